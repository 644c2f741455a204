import type { Config } from '../../config.ts';
import { ConfigError } from '../../config.ts';
import { createBuiltinSynthesizer } from './builtin.ts';
import { createOpenAISynthesizer } from './openai.ts';
import type { SpeechSynthesizer } from './types.ts';

/**
 * The synthesiser SPEECH_ENGINE names; null for `none`: replies are then text only, and the
 * pipeline skips speech (`/health` reports `engines.speech: 'none'`). loadConfig fills
 * `config.speechOpenai` exactly for `openai`, so a mismatch here is a programming error.
 */
export function createSpeechSynthesizer(config: Config): SpeechSynthesizer | null {
  switch (config.speechEngine) {
    case 'builtin':
      return createBuiltinSynthesizer();
    case 'openai': {
      const openai = config.speechOpenai;
      if (!openai) throw new ConfigError(['SPEECH_ENGINE=openai: SPEECH_OPENAI_* settings missing']);
      return createOpenAISynthesizer({
        baseUrl: openai.baseUrl,
        apiKey: openai.apiKey,
        model: openai.model,
        defaultVoice: openai.voice,
        responseFormat: openai.responseFormat,
        timeoutMs: openai.timeoutMs,
        voiceCloning: openai.voiceCloning,
      });
    }
    case 'none':
      return null;
  }
}
