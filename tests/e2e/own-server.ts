import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags.ts';

export interface OwnServer {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
}

const root = new URL('../..', import.meta.url).pathname;

/**
 * A second server for a spec that needs settings the shared one must not have (a 30 s access
 * token, say): the built server on E2E_PORT + 100, its own empty database, the same defaults
 * as playwright.config.ts's webServer plus `env`.
 */
export async function startOwnServer(env: Record<string, string>): Promise<OwnServer> {
  const port = Number(process.env.E2E_PORT ?? 3199) + 100;
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'alma-e2e-own-'));
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'server/dist/server.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      REPLY_TOKEN_DELAY_MS: '40',
      // A spec's own server lives a minute: no idle warm-up of speech workers (S-12) taking CPU
      // from the browser beside it (the suite's main server keeps the default).
      SPEECH_WARM_UP_CLAUSES: '0',
      AUTH_RATE_LIMIT_MAX: '1000',
      CORS_ORIGINS: url,
      APP_URL: url,
      ...env,
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server on ${url} exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server on ${url} did not start within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
