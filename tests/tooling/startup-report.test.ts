import { HealthSchema } from '@alma/protocol';
import { CAPABILITY_LABELS, FRESH_MACHINE, formatCapabilities, shown } from '@alma/server';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathWithout } from './bare-path.ts';

/**
 * SPEC.md H-3 as a person meets it: `npm start`'s server prints, once it listens, what each engine
 * is and how to enable what is missing; `/health` says the same; the README's table says what a
 * fresh machine gets — all three from one list (server/src/modules/health/capabilities.ts).
 */
const root = new URL('../..', import.meta.url).pathname;
const sandbox = mkdtempSync(join(tmpdir(), 'alma-startup-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** Starts the real server entry point; resolves with its output once the report is printed. */
function startEntryPoint(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: root,
    env: { HOME: sandbox, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const reported = new Promise<string>((resolve, reject) => {
    const lines = Object.keys(CAPABILITY_LABELS).length + 1;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const at = out.indexOf('Engines:');
      if (at >= 0 && out.slice(at).split('\n').length > lines) resolve(out);
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  return { child, reported };
}

describe('start-up report (SPEC.md H-3)', () => {
  it('H-3: on a machine without ffmpeg or transcription the server prints the fresh-machine report, as /health says', async () => {
    const dataDir = mkdtempSync(join(sandbox, 'data-'));
    const { child, reported } = startEntryPoint({
      PATH: pathWithout(sandbox, 'no-ffmpeg', ['ffmpeg']),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CLIENT_DIST: join(dataDir, 'no-client'),
      // Whether or not this machine has pocketsphinx, use the browser's transcript only.
      TRANSCRIBE_ENGINE: 'hint',
    });
    try {
      const out = await reported;
      const url = /Alma is running on (http:\/\/\S+)/.exec(out)?.[1];
      expect(url).toBeTruthy();
      const report = out.slice(out.indexOf('Engines:')).split('\n').slice(0, 7).join('\n');
      expect(report).toBe(formatCapabilities(FRESH_MACHINE));
      expect(report).toContain('Safari voice notes, MP3/AAC samples  off → apt-get install ffmpeg');
      const health = HealthSchema.parse(await (await fetch(`${url}/health`)).json());
      expect(health.capabilities).toEqual(FRESH_MACHINE);
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);

  it('H-3: the README quick-start table is the fresh-machine report', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const header = readme.indexOf('| capability');
    expect(header).toBeGreaterThan(0);
    const lines = readme.slice(header).split('\n').slice(2);
    const rows = lines
      .slice(
        0,
        lines.findIndex((l) => !l.startsWith('|')),
      )
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim().replace(/^`|`$/g, '')),
      );
    expect(rows).toEqual(
      FRESH_MACHINE.map((c) => [CAPABILITY_LABELS[c.id], shown(c.engine), c.enable ?? '—']),
    );
  });
});
