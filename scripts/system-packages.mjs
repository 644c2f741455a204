// The one list of system packages Alma's tests and optional engines use. `.ci/run`, `npm test`
// (scripts/preflight.mjs), the Dockerfile check and the README check all read it, so they cannot
// drift. Plain Node (no dependencies): it runs before `pnpm install`.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * @typedef {object} SystemPackage
 * @property {string} name Debian package name.
 * @property {string} why What it is for, in one line.
 * @property {boolean} required true: tests fail without it, so `npm test` stops; false: the tests
 *   that use it are skipped, and say so.
 * @property {boolean} runtime true: the server uses it at run time (the Dockerfile installs it).
 * @property {string} elsewhere The install command off Debian/Ubuntu.
 * @property {() => boolean} [present] How to tell it is there without dpkg.
 */

/** @type {SystemPackage[]} */
export const systemPackages = [
  {
    name: 'chromium',
    why: 'the browser the end-to-end tests drive (or Playwright’s own, or CHROMIUM_PATH)',
    required: true,
    runtime: false,
    elsewhere: 'npx playwright install chromium',
    present: () => findChromium() !== undefined,
  },
  {
    name: 'fonts-liberation',
    why: 'metric-compatible fonts so pages render alike on every machine',
    required: false,
    runtime: false,
    elsewhere: '(any Liberation fonts package)',
  },
  {
    name: 'ffmpeg',
    why: 'decodes Safari’s MP4/AAC voice notes and MP3/AAC voice uploads',
    required: true,
    runtime: true,
    elsewhere: 'brew install ffmpeg',
    present: () => onPath('ffmpeg') !== undefined,
  },
  {
    name: 'redis-server',
    why: 'the scale-out tests start their own Redis (REDIS_URL in production)',
    required: true,
    runtime: false,
    elsewhere: 'brew install redis',
    present: () => onPath('redis-server') !== undefined,
  },
  {
    name: 'python3-socketio',
    why: 'the foreign-client protocol test (python-socketio for /usr/bin/python3)',
    required: true,
    runtime: false,
    elsewhere: 'python3 -m pip install "python-socketio[client]"',
    present: () => findPythonWithSocketio() !== undefined,
  },
  {
    name: 'python3-websocket',
    why: 'the websocket transport python-socketio uses in that test',
    required: true,
    runtime: false,
    elsewhere: 'python3 -m pip install websocket-client',
    present: () => findPythonWithSocketio() !== undefined,
  },
  {
    name: 'pocketsphinx',
    why: 'English voice-note transcription (TRANSCRIBE_ENGINE=auto)',
    required: false,
    runtime: true,
    elsewhere: '(libpocketsphinx 5 from your package manager)',
  },
  {
    name: 'pocketsphinx-en-us',
    why: 'pocketsphinx’s English model',
    required: false,
    runtime: true,
    elsewhere: '(the en-us model for pocketsphinx)',
  },
  {
    name: 'pocketsphinx-testdata',
    why: 'LibriVox clips for the transcription word-error-rate test',
    required: false,
    runtime: false,
    elsewhere: '(Debian only; the test is skipped without it)',
  },
];

/** The packages the Dockerfile installs: what the server uses at run time. */
export const runtimePackages = systemPackages.filter((p) => p.runtime).map((p) => p.name);

/** The first executable called `name` on PATH. */
export function onPath(name, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The Chromium the end-to-end tests drive, in order: CHROMIUM_PATH, a `chromium` (Debian) or
 * `chromium-browser` (Ubuntu) on PATH. Playwright's own browser is the config's last resort.
 */
export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return onPath('chromium', env.PATH) ?? onPath('chromium-browser', env.PATH);
}

/**
 * A python 3 that imports socketio and websocket (its websocket transport): ALMA_PYTHON, Debian's
 * /usr/bin/python3, then PATH's.
 */
export function findPythonWithSocketio(env = process.env) {
  const candidates = [env.ALMA_PYTHON, '/usr/bin/python3', onPath('python3', env.PATH)];
  for (const python of candidates) {
    if (!python || !existsSync(python)) continue;
    const probe = spawnSync(python, ['-c', 'import socketio, websocket'], {
      stdio: 'ignore',
      timeout: 10_000,
    });
    if (probe.status === 0) return python;
  }
  return undefined;
}

/** Whether apt can install here: Debian or Ubuntu with apt-get and dpkg. */
export function aptAvailable() {
  return onPath('apt-get') !== undefined && onPath('dpkg') !== undefined;
}

/** Installed according to dpkg (when there is one), else according to the package's own probe. */
function installed(pkg) {
  if (pkg.present?.()) return true;
  if (onPath('dpkg') === undefined) return false;
  return spawnSync('dpkg', ['-s', pkg.name], { stdio: 'ignore' }).status === 0;
}

/** The packages that are missing, in list order. */
export function missingPackages(packages = systemPackages) {
  return packages.filter((p) => !installed(p));
}

export function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The exact apt command for these packages (with sudo unless we are root). */
export function aptCommand(names) {
  return `${isRoot() ? '' : 'sudo '}apt-get install -y --no-install-recommends ${names.join(' ')}`;
}

/** Installs with apt; only as root on Debian/Ubuntu. Throws when apt fails. */
export function aptInstall(names) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...names], {
    stdio: 'inherit',
    env,
  });
}

// `node scripts/system-packages.mjs [--install]`: list what is missing; with --install (as root on
// Debian/Ubuntu; what .ci/run does) install it all.
if (import.meta.url === `file://${process.argv[1]}`) {
  const missing = missingPackages().map((p) => p.name);
  if (missing.length === 0) {
    console.info('system packages: all present');
  } else if (!process.argv.includes('--install')) {
    console.info(`system packages missing: ${missing.join(' ')}\n  ${aptCommand(missing)}`);
  } else if (!isRoot() || !aptAvailable()) {
    console.error(
      `missing system packages: ${missing.join(' ')}. Install them first:\n  ${aptCommand(missing)}`,
    );
    process.exit(1);
  } else {
    console.info(`installing: ${missing.join(' ')}`);
    aptInstall(missing);
  }
}
