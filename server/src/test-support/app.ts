import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type AlmaApp, type AppDeps } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openStorage } from '../storage/index.ts';
import type { Storage } from '../storage/types.ts';

export interface TestApp extends AlmaApp {
  storage: Storage;
  /** The app's DATA_DIR (a temp dir removed by `close`). */
  dataDir: string;
  close: () => Promise<void>;
}

/**
 * buildApp on a fresh embedded database in a temp dir, for `inject` tests. Not listening.
 * `deps` passes extra dependencies through to buildApp (an injected clock, say).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  deps: Pick<AppDeps, 'clock' | 'mailer' | 'logger' | 'blobs'> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'alma-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    REPLY_TOKEN_DELAY_MS: '0',
    // An app under test lives seconds: no idle warm-up of speech workers (S-12) to take CPU.
    SPEECH_WARM_UP_CLAUSES: '0',
    CLIENT_DIST: join(dataDir, 'no-client'),
    ...env,
  });
  const storage = await openStorage({ dataDir, mongodbUri: undefined });
  const built = await buildApp({ config, storage, logger: false, ...deps });
  await built.app.ready();
  return {
    ...built,
    storage,
    dataDir,
    close: async () => {
      await built.app.close();
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const json = (res: { body: string }): unknown => JSON.parse(res.body);

/** A registration body the server accepts (spec §5: confirmation and terms included). */
export function registrationBody(
  overrides: { name?: string; email?: string; password?: string; plan?: string } = {},
): Record<string, unknown> {
  const password = overrides.password ?? 'Secret123';
  return {
    name: 'Ana López',
    email: 'ana@example.com',
    plan: 'free',
    ...overrides,
    password,
    confirmPassword: password,
    terms: true,
  };
}
