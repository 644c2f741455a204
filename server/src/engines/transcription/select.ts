import type { Config } from '../../config.ts';
import { createHintTranscriber } from './hint.ts';
import { createOpenAITranscriber } from './openai.ts';
import { createPocketsphinxTranscriber, detectPocketsphinx } from './pocketsphinx.ts';
import type { Transcriber } from './types.ts';

/**
 * TRANSCRIBE_ENGINE (SPEC.md V-3): `openai` uses the provider (and, should it be down, nothing
 * else); `pocketsphinx` Debian's pocketsphinx for English notes and the browser's transcript for
 * the rest (refused at start when it is not installed); `hint` only the browser's transcript;
 * `none` refuses every note. The default `auto` is the provider when TRANSCRIBE_OPENAI_API_KEY or
 * TRANSCRIBE_OPENAI_BASE_URL is set, else pocketsphinx when installed, else the hint.
 */
export function createTranscriber(
  config: Pick<Config, 'transcribeEngine' | 'transcribeOpenai' | 'transcribePocketsphinxModel'>,
): Transcriber | null {
  switch (config.transcribeEngine) {
    case 'none':
      return null;
    case 'hint':
      return createHintTranscriber();
    case 'openai':
      return config.transcribeOpenai
        ? createOpenAITranscriber(config.transcribeOpenai)
        : createHintTranscriber();
    case 'pocketsphinx': {
      const found = detectPocketsphinx(config.transcribePocketsphinxModel);
      if (!found.ok) throw new Error(`TRANSCRIBE_ENGINE=pocketsphinx: ${found.reason}`);
      return createPocketsphinxTranscriber({ install: found.install, fallback: createHintTranscriber() });
    }
    case 'auto': {
      if (config.transcribeOpenai) return createOpenAITranscriber(config.transcribeOpenai);
      const found = detectPocketsphinx(config.transcribePocketsphinxModel);
      return found.ok
        ? createPocketsphinxTranscriber({ install: found.install, fallback: createHintTranscriber() })
        : createHintTranscriber();
    }
  }
}
