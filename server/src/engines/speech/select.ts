import type { Config } from '../../config.ts';
import { ConfigError } from '../../config.ts';
import { createOpenAISynthesizer } from './openai.ts';
import { createSynthesisPool } from './synthesis-pool.ts';
import type { SpeechSynthesizer } from './types.ts';

/**
 * The synthesiser SPEECH_ENGINE names; null for `none`: replies are then text only, and the
 * pipeline skips speech (`/health` reports `engines.speech: 'none'`). loadConfig fills
 * `config.speechOpenai` exactly for `openai`, so a mismatch here is a programming error.
 */
export function createSpeechSynthesizer(config: Config): SpeechSynthesizer | null {
  switch (config.speechEngine) {
    case 'builtin':
      // espeak-ng and the MP3 encoder in worker threads, off the event loop (SPEC.md S-9).
      return createSynthesisPool({
        size: config.speechPool.size ?? undefined,
        maxQueued: config.speechPool.maxQueued,
        maxWaitMs: config.speechPool.maxWaitMs,
        idleWarmUpClauses: config.speechPool.idleWarmUpClauses,
        nice: config.speechPool.nice,
      });
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
