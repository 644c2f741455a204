// `npm test`'s first step, before anything slow: makes sure the system packages the tests need
// (scripts/system-packages.mjs) are there. As root on Debian/Ubuntu it installs what is missing with
// apt; otherwise it gets Playwright's own Chromium when no browser is found. When it cannot, it
// stops at once with one message naming the exact command. Plain Node: it runs before
// `pnpm install`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  aptAvailable,
  aptCommand,
  aptInstall,
  findChromium,
  isRoot,
  missingPackages,
} from './system-packages.mjs';

function stop(lines) {
  console.error(`\nnpm test cannot run yet:\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  process.exit(1);
}

function checkNode() {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    stop([`Node.js ${process.versions.node} is too old: Alma needs 20.19 or newer.`]);
  }
}

/** The Playwright version the workspace uses: the installed one, else package.json's range. */
function playwrightVersion() {
  const installed = 'node_modules/@playwright/test/package.json';
  if (existsSync(installed)) return JSON.parse(readFileSync(installed, 'utf8')).version;
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  return String(pkg.devDependencies['@playwright/test']).replace(/^[\^~]/, '');
}

/** `playwright install chromium` (a no-op when Playwright's browser is already there). */
function installPlaywrightChromium() {
  const version = playwrightVersion();
  console.info(`No Chromium on PATH: getting Playwright's own (playwright@${version} install chromium)…`);
  const run = spawnSync('npx', ['--yes', `playwright@${version}`, 'install', 'chromium'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 10 * 60_000,
  });
  if (run.status === 0) return true;
  const lines = `${run.stderr ?? ''}${run.stdout ?? ''}`.split('\n').map((l) => l.trim());
  const reason = lines.find((l) => l.startsWith('Error: '))?.slice(7) ?? lines.filter(Boolean).at(-1);
  console.error(`playwright install chromium failed${reason ? `: ${reason}` : ''}`);
  return false;
}

function main() {
  checkNode();
  let missing = missingPackages();
  if (missing.length > 0 && isRoot() && aptAvailable()) {
    console.info(`Installing the system packages the tests need: ${missing.map((p) => p.name).join(' ')}`);
    try {
      aptInstall(missing.map((p) => p.name));
    } catch {
      stop([
        `apt-get could not install them; run it yourself and retry:`,
        aptCommand(missing.map((p) => p.name)),
      ]);
    }
    missing = missingPackages();
  }

  const noBrowser = missing.some((p) => p.name === 'chromium');
  const others = missing.filter((p) => p.name !== 'chromium');
  const required = others.filter((p) => p.required);
  const optional = others.filter((p) => !p.required);
  if (required.length > 0) {
    // Stop before fetching a browser: the message must name everything at once.
    const names = [...(noBrowser ? ['chromium'] : []), ...required.map((p) => p.name)];
    stop([
      `missing: ${names.join(', ')} (${required.map((p) => p.why).join('; ')}).`,
      aptAvailable()
        ? `Install with: ${aptCommand(names)}`
        : `Install with: ${[...(noBrowser ? ['npx playwright install chromium'] : []), ...required.map((p) => p.elsewhere)].join(' && ')}`,
    ]);
  }
  if (optional.length > 0) {
    console.info(
      `Optional, tests that use them are skipped: ${optional.map((p) => p.name).join(' ')}` +
        (aptAvailable() ? ` (${aptCommand(optional.map((p) => p.name))})` : ''),
    );
  }
  if (noBrowser && !findChromium() && !installPlaywrightChromium()) {
    stop([
      'no Chromium for the end-to-end tests, and Playwright could not download its own.',
      `Install one: ${aptAvailable() ? aptCommand(['chromium']) : 'npx playwright install chromium'}` +
        ' — or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    ]);
  }
}

main();
