import { AppError } from '../../lib/app-error.ts';
import type { Transcriber } from './types.ts';

/**
 * The transcript the browser offered (`transcriptHint`, Chrome's SpeechRecognition), trimmed.
 * Without one there is nothing to say: `transcription_not_configured` — never an invented text.
 */
export function createHintTranscriber(): Transcriber {
  return {
    name: 'hint',
    async transcribe(request) {
      const text = request.hint?.trim() ?? '';
      if (text.length === 0) {
        throw new AppError('transcription_not_configured', {
          detail: 'no transcription provider is configured and the browser offered no transcript',
        });
      }
      return { text, engine: 'hint' };
    },
  };
}
