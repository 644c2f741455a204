import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags.ts';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const scripts = (path: string) => (JSON.parse(read(path)) as { scripts: Record<string, string> }).scripts;

describe('the server runs with its Node flags wherever it is started (node-flags.ts)', () => {
  it.each([
    ['npm start', () => scripts('package.json').start],
    ['the server package’s start', () => scripts('server/package.json').start],
    ['the Dockerfile’s CMD', () => read('Dockerfile').match(/^CMD \[(.*)\]$/m)?.[1]],
  ])('%s', (_where, command) => {
    const started = command() ?? '';
    expect(started).toMatch(/server\.js/);
    for (const flag of SERVER_NODE_FLAGS) expect(started).toContain(flag);
  });
});
