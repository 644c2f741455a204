import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Closing the embedded store waits for its threads (checkpointer.ts, reader.ts) even in a process
 * with nothing else to keep it alive — a script that awaits `close()` at its top level, or the
 * server's shutdown once its sockets are gone. Runs in a child process: the test runner's own
 * handles would keep this one alive whatever the threads do.
 */
let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'alma-close-threads-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function closeIn(thread: 'checkpoint' | 'reader'): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./close-threads.fixture.ts', import.meta.url)),
      join(directory, `${thread}.db`),
      thread,
    ],
    // tsx resolves from the repository, whatever directory the tests run from.
    { cwd: fileURLToPath(new URL('.', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

describe('closing the store with its threads running', () => {
  it.each(['checkpoint', 'reader'] as const)(
    'the %s thread holds the process until the close has resolved',
    async (thread) => {
      expect(await closeIn(thread)).toEqual({ code: 0, out: 'closed\n' });
    },
    60_000,
  );
});
