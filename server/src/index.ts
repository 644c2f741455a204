export { buildApp, type AlmaApp, type AppDeps } from './app.ts';
export { loadConfig, ConfigError, type Config } from './config.ts';
export { startServer, type RunningServer } from './server.ts';
export { openStorage } from './storage/index.ts';
export type { Storage } from './storage/types.ts';
