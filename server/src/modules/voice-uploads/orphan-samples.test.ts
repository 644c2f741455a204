import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp, type AlmaApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openStorage } from '../../storage/index.ts';
import type { Storage } from '../../storage/types.ts';
import { tone, wavOf } from '../../test-support/voice-samples.ts';

/**
 * VU-10 through the whole server: the data directory as an instance killed mid-analysis leaves
 * it — a sample written, no voice recorded — is cleaned up when the server starts again.
 */
let dataDir: string;
let app: AlmaApp['app'];
let storage: Storage;
const samples = () => join(dataDir, 'custom-voices');
const ORPHAN = 'custom-0193a1b2-0000-7000-8000-00000000beef.wav';
const RECENT = 'custom-0193a1b2-0000-7000-8000-00000000cafe.wav';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'alma-orphan-samples-'));
  mkdirSync(samples(), { recursive: true });
  const wav = wavOf(tone({ f0: 200, seconds: 1 }), 16_000);
  for (const name of [ORPHAN, RECENT]) writeFileSync(join(samples(), name), wav);
  const anHourAgo = new Date(Date.now() - 3600_000);
  utimesSync(join(samples(), ORPHAN), anHourAgo, anHourAgo);
  storage = await openStorage({ dataDir, mongodbUri: undefined });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    CLIENT_DIST: join(dataDir, 'no-client'),
  });
  app = (await buildApp({ config, storage, logger: false, speech: null })).app;
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await storage?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('removes a sample an earlier instance left without a voice, and keeps one a live upload may own', async () => {
  await vi.waitFor(() => expect(readdirSync(samples())).toEqual([RECENT]));
});
