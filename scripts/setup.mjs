// Installs the workspace with pnpm 10 unless node_modules is already in step with the lockfile.
// pnpm comes through npx because corepack cannot verify registry signatures on our machines;
// after the first install the workspace's own pnpm (a root devDependency) runs every script.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const lock = 'pnpm-lock.yaml';
const marker = 'node_modules/.modules.yaml';
const upToDate = existsSync(marker) && existsSync(lock) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;

if (!upToDate) {
  const frozen = existsSync(lock) && process.env.CI ? ' --frozen-lockfile' : '';
  execSync(`npx --yes pnpm@10 install${frozen}`, { stdio: 'inherit' });
}
