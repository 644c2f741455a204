import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * A PATH folder (under `parent`) with every program of this machine's PATH except `without`, apt
 * and any Chromium: a fresh machine's PATH without removing anything from this one.
 */
export function pathWithout(parent: string, name: string, without: string[]): string {
  const bin = join(parent, name);
  mkdirSync(bin);
  const hidden = new Set([...without, 'apt-get', 'apt', 'dpkg', 'chromium', 'chromium-browser']);
  for (const dir of (process.env.PATH ?? '').split(delimiter).reverse()) {
    if (!dir || !existsSync(dir)) continue;
    for (const tool of readdirSync(dir)) {
      if (hidden.has(tool)) continue;
      rmSync(join(bin, tool), { force: true }); // earlier PATH folders win
      symlinkSync(join(dir, tool), join(bin, tool));
    }
  }
  return bin;
}
