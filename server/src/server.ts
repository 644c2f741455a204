import type { Capability } from '@alma/protocol';
import { buildApp, type AppDeps } from './app.ts';
import { formatCapabilities } from './modules/health/capabilities.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openStorage, type ThreadStopped } from './storage/index.ts';

export interface RunningServer {
  url: string;
  port: number;
  config: Config;
  /** What each engine is and how to enable what is missing (SPEC.md H-3), as `/health` says. */
  capabilities: Capability[];
  close: () => Promise<void>;
}

/** Opens storage, builds the app and listens. `close` drains replies, sockets, then the database. */
export async function startServer(
  env: Record<string, string | undefined> = process.env,
  /** Tests: dependencies to inject instead of those the configuration names. */
  overrides: Pick<AppDeps, 'speech' | 'clock' | 'blobs' | 'engine'> = {},
): Promise<RunningServer> {
  const config = loadConfig(env);
  // A store thread that stops is logged; the store goes on without it (storage/embedded/index.ts).
  let threadStopped: ThreadStopped = (thread, error) =>
    console.error(`storage ${thread} thread stopped:`, error);
  const storage = await openStorage({
    mongodbUri: config.mongodbUri,
    mongodbDbName: config.mongodbDb,
    dataDir: config.dataDir,
    onThreadStopped: (thread, error) => threadStopped(thread, error),
  });
  const { app, health, startEngines } = await buildApp({ config, storage, ...overrides });
  threadStopped = (thread, err) =>
    app.log.warn({ err, thread }, `storage ${thread} thread stopped: its work goes on on the main thread`);
  try {
    // Ready before reachable (SPEC.md S-12): /health answers once the speech workers are warm.
    await startEngines();
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    await storage.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://localhost:${port}`,
    port,
    config,
    capabilities: health.capabilities,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await storage.close();
      })()),
  };
}

async function main(): Promise<void> {
  let server: RunningServer;
  try {
    server = await startServer();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  console.info(
    `Alma is running on ${server.url} (database: ${server.config.mongodbUri ? 'mongodb' : 'embedded'})`,
  );
  console.info(formatCapabilities(server.capabilities));
  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) process.exit(1); // a second Ctrl+C: stop waiting
    console.info(`${signal}: finishing replies in flight, then closing`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

// Run only as the entry point (bundled dist/server.js or `tsx src/server.ts`), not when imported.
const entry = process.argv[1] ?? '';
if (/server\.(ts|js)$/.test(entry) && import.meta.url.endsWith(entry.split('/').pop() ?? '')) {
  void main();
}
