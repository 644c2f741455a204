import { encodeWav } from '../../audio/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Transcriber } from './types.ts';

/**
 * Any OpenAI-compatible `POST {baseUrl}/audio/transcriptions` (OpenAI whisper-1, faster-whisper
 * servers, LocalAI): multipart with `file` (a 16 kHz mono WAV encoded here from the decoded
 * note), `model`, `response_format=json` and, when known, `language`; the answer is `{ text }`.
 * Failures (network, non-2xx, no text, time-out) become `voice_note_failed` with the cause in
 * `detail`; an empty transcript (silence) too — nothing is stored for it.
 */
export interface OpenAITranscriberOptions {
  /** Up to and including `/v1`. */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

const MAX_ERROR_BODY = 300;

export function createOpenAITranscriber(options: OpenAITranscriberOptions): Transcriber {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
  const fail = (detail: string) =>
    new AppError('voice_note_failed', { detail: `openai transcription (${options.model}): ${detail}` });

  return {
    name: 'openai',
    async transcribe(request) {
      const wav = encodeWav(request.pcm, request.sampleRate);
      const form = new FormData();
      form.append('file', new Blob([wav], { type: 'audio/wav' }), 'note.wav');
      form.append('model', options.model);
      form.append('response_format', 'json');
      if (request.language) form.append('language', request.language);
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(options.timeoutMs)]);
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
          body: form,
          signal,
        });
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason;
        throw fail((error as Error).message);
      }
      if (!response.ok) {
        const body = await response.text().catch(() => '');
        throw fail(`HTTP ${response.status} ${body.slice(0, MAX_ERROR_BODY)}`);
      }
      let text: unknown;
      try {
        text = ((await response.json()) as { text?: unknown }).text;
      } catch (error) {
        throw fail(`unreadable answer: ${(error as Error).message}`);
      }
      if (typeof text !== 'string') throw fail('the answer has no text');
      const trimmed = text.trim();
      if (trimmed.length === 0) throw fail('nothing was recognised');
      return { text: trimmed, engine: 'openai' };
    },
  };
}
