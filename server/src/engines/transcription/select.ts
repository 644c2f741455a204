import type { Config } from '../../config.ts';
import { createHintTranscriber } from './hint.ts';
import { createOpenAITranscriber } from './openai.ts';
import type { Transcriber } from './types.ts';

/**
 * TRANSCRIBE_ENGINE (SPEC.md V-3): `openai` uses the provider (and, should it be down, nothing
 * else); `hint` only the browser's transcript; `none` refuses every note. The default `auto` is
 * the provider when TRANSCRIBE_OPENAI_API_KEY or TRANSCRIBE_OPENAI_BASE_URL is set, else the hint.
 */
export function createTranscriber(
  config: Pick<Config, 'transcribeEngine' | 'transcribeOpenai'>,
): Transcriber | null {
  switch (config.transcribeEngine) {
    case 'none':
      return null;
    case 'hint':
      return createHintTranscriber();
    case 'openai':
    case 'auto':
      return config.transcribeOpenai
        ? createOpenAITranscriber(config.transcribeOpenai)
        : createHintTranscriber();
  }
}
