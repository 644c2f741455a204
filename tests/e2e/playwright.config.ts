import { defineConfig } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../../scripts/system-packages.mjs';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags.ts';
import { wavOf } from './wav.ts';

/**
 * End-to-end tests on a real browser against the built app (`pnpm run build` first; `npm test`
 * does). The browser is the one `npm test`'s preflight found (scripts/system-packages.mjs):
 * CHROMIUM_PATH, else `chromium` or `chromium-browser` on PATH, else Playwright's own (which the
 * preflight installs with `playwright install chromium` where it can download).
 */
const PORT = Number(process.env.E2E_PORT ?? 3199);
const root = new URL('../..', import.meta.url).pathname;
// Each run starts on an empty database (the config is evaluated once per process; only the
// main process starts the server).
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'alma-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

/**
 * Chromium's fake microphone plays this WAV (voice-note.spec.ts): a 2 s, 440 Hz tone at
 * 44.1 kHz mono, written at config load so no binary is committed.
 */
function fakeMicWav(): string {
  const dir = join(root, 'tests/e2e/artifacts');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'fake-mic.wav');
  writeFileSync(
    file,
    wavOf(44100, 2, (t) => Math.sin(2 * Math.PI * 440 * t) * 0.3),
  );
  return file;
}
const micWav = fakeMicWav();

export default defineConfig({
  testDir: '.',
  outputDir: './artifacts/results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['html', { outputFolder: './artifacts/report', open: 'never' }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: findChromium(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        // Spoken replies start on their own (spec §1); headless runs have no audio device.
        '--autoplay-policy=no-user-gesture-required',
        // A fake microphone for voice notes (spec §4 Recording), granted without a prompt.
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${micWav}%noloop`,
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      use: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
      // A test tagged @any-width in its title checks what no viewport changes (a transport, a
      // server rule, a token): the desktop project runs it, keeping the suite inside CI's time.
      // Layout, touch and whatever a phone shows differently run in both projects.
      grepInvert: /@any-width/,
    },
  ],
  webServer: {
    command: ['node', ...SERVER_NODE_FLAGS, 'server/dist/server.js'].join(' '),
    cwd: root,
    url: `http://localhost:${PORT}/health`,
    reuseExistingServer: false,
    // The server listens once its speech workers are warm (SPEC.md S-12): seconds when quiet,
    // most of a minute on a loaded 2-core machine.
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      REPLY_TOKEN_DELAY_MS: '40',
      AUTH_RATE_LIMIT_MAX: '1000',
      CORS_ORIGINS: `http://localhost:${PORT}`,
      // The dashboard spec signs in as this admin to see the usage reset (spec §6).
      ADMIN_EMAILS: 'admin-e2e@example.com',
      // Links in the emails written to DATA_DIR/outbox point at this server.
      APP_URL: `http://localhost:${PORT}`,
    },
  },
});
