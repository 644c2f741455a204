import type { Config } from '../../config.ts';
import { ConfigError } from '../../config.ts';
import { createBuiltinReplyEngine } from './builtin.ts';
import { createLocalReplyEngine } from './local.ts';
import { createOpenAIReplyEngine } from './openai.ts';
import type { ReplyEngine } from './types.ts';

/**
 * The reply engine REPLY_ENGINE names. loadConfig has already checked what each engine needs
 * (and fills `config.openai` / `config.llm` exactly for its engine), so a mismatch here is a
 * programming error, reported the same way.
 */
export function createReplyEngine(config: Config): ReplyEngine {
  switch (config.replyEngine) {
    case 'builtin':
      return createBuiltinReplyEngine({ tokenDelayMs: config.replyTokenDelayMs });
    case 'openai':
      if (!config.openai) throw new ConfigError(['REPLY_ENGINE=openai: OPENAI_* settings missing']);
      return createOpenAIReplyEngine(config.openai);
    case 'local':
      if (!config.llm) throw new ConfigError(['REPLY_ENGINE=local: LLM_MODEL_PATH missing']);
      return createLocalReplyEngine(config.llm);
  }
}
