import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runtimePackages, systemPackages } from '../../scripts/system-packages.mjs';
import { pathWithout } from './bare-path.ts';

/**
 * `npm test`'s preflight on a machine like a fresh container: this machine's PATH without a browser
 * (nor apt, so nothing can be installed; for the first case without ffmpeg and redis-server either), a temporary HOME (no Playwright browser, empty npm cache), CHROMIUM_PATH unset.
 * It must either get a browser or stop with the exact command — before any slow step.
 */
const root = new URL('../..', import.meta.url).pathname;
const sandbox = mkdtempSync(join(tmpdir(), 'alma-preflight-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function preflight(bin: string) {
  const home = mkdtempSync(join(sandbox, 'home-'));
  const env: Record<string, string> = { PATH: bin, HOME: home, CI: '' };
  const started = Date.now();
  const run = spawnSync(process.execPath, ['scripts/preflight.mjs'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 170_000,
  });
  return { ...run, seconds: (Date.now() - started) / 1000 };
}

describe('npm test preflight on a bare machine', () => {
  it('names every missing required package in one message with the command to install them', () => {
    const run = preflight(pathWithout(sandbox, 'bare', ['ffmpeg', 'redis-server']));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('npm test cannot run yet');
    expect(run.stderr).toMatch(/missing: chromium, ffmpeg, redis-server/);
    // No apt on this PATH: the commands for other systems, the browser first.
    expect(run.stderr).toContain(
      'Install with: npx playwright install chromium && brew install ffmpeg && brew install redis',
    );
    expect(run.stderr).not.toMatch(/\n\s+at /); // one message, no stack trace
    // Measured, not asserted (no timing thresholds in tests): ~3 s here.
    console.info(`preflight stopped after ${run.seconds.toFixed(1)} s`);
  });

  it('with only the browser missing, gets Playwright’s own or stops with the exact command', () => {
    const run = preflight(pathWithout(sandbox, 'no-browser', []));
    if (run.status === 0) {
      // This machine could download: Playwright's Chromium is now in the temporary HOME.
      expect(run.stdout).toContain("getting Playwright's own");
    } else {
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('no Chromium for the end-to-end tests');
      expect(run.stderr).toContain(
        'Install one: npx playwright install chromium — or point CHROMIUM_PATH at a Chromium or Chrome binary.',
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    // Measured, not asserted: ~20 s here (npx fetches playwright, then the download fails).
    console.info(`preflight finished after ${run.seconds.toFixed(1)} s`);
  }, 180_000);
});

describe('one list of system packages', () => {
  it('.ci/run installs from the list npm test reads', () => {
    const ci = readFileSync(join(root, '.ci/run'), 'utf8');
    expect(ci).toContain('node scripts/system-packages.mjs --install');
    expect(ci).not.toMatch(/apt-get install/); // no second list to drift
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.test).toMatch(/^node scripts\/preflight\.mjs && /);
  });

  it('the list holds what other suites need: ffmpeg, redis-server, python3-socketio', () => {
    const names = systemPackages.map((p) => p.name);
    for (const name of ['chromium', 'ffmpeg', 'redis-server', 'python3-socketio', 'pocketsphinx']) {
      expect(names).toContain(name);
    }
  });

  it('the Dockerfile installs exactly the runtime packages', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const line = /apt-get install -y --no-install-recommends ([^\\\n]+)/.exec(dockerfile);
    expect(line?.[1]?.trim().split(/\s+/).sort()).toEqual([...runtimePackages].sort());
  });
});
