export { buildApp, type AlmaApp, type AppDeps } from './app.ts';
export { loadConfig, ConfigError, type Config } from './config.ts';
export { startServer, type RunningServer } from './server.ts';
export { openStorage } from './storage/index.ts';
export type { Storage } from './storage/types.ts';
export type { SpeechSynthesizer } from './engines/speech/types.ts';
export { createSpeechSynthesizer } from './engines/speech/select.ts';
export { createBuiltinSynthesizer } from './engines/speech/builtin.ts';
export { mp3Frames } from './engines/speech/mp3-frames.ts';
export type { ReplyEngine, ReplyChunk } from './engines/reply/types.ts';
export { createPacer } from './lib/pace.ts';
export { processModel } from './avatars/processing/pipeline.ts';
export {
  CAPABILITY_LABELS,
  FRESH_MACHINE,
  formatCapabilities,
  shown,
} from './modules/health/capabilities.ts';
export { renderGlbPortrait, PORTRAIT_SIZE } from './avatars/portrait/portrait.ts';
