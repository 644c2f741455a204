import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from '../../server/src/storage/embedded/index.ts';
import type {
  CheckpointerMessage,
  CheckpointRequest,
} from '../../server/src/storage/embedded/checkpointer.ts';
import type { ReadBatch, ReaderMessage } from '../../server/src/storage/embedded/reader.ts';
import { ensureServerBuilt } from '../fixtures/processes.ts';

/**
 * The built server starts the embedded store's threads from its bundles: the reader
 * (server/src/storage/embedded/reader.ts) from `dist/reader-worker.js`, the checkpoints
 * (checkpointer.ts) from `dist/checkpoint-worker.js`. Should a bundle be missing or fail to load,
 * the store would silently go back to doing that work on the event loop. This starts each as the
 * server does and asks it for its work.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
let directory: string;
beforeAll(async () => {
  ensureServerBuilt();
  directory = await mkdtemp(join(tmpdir(), 'alma-storage-threads-'));
}, 180_000);
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the bundled storage threads (issue 14)', () => {
  it('starts from dist/reader-worker.js and answers a batch from the file', async () => {
    const file = join(directory, 'alma.db');
    const storage = openEmbeddedStorage({ file, readThread: false });
    await storage.users.create({
      id: 'user-1',
      email: 'ana@example.com',
      name: 'Ana',
      passwordHash: 'x',
      plan: 'pro',
      role: 'user',
      language: 'es',
      theme: 'dark',
      createdAt: '2026-12-01T05:00:00.000Z',
    });
    const worker = new Worker(join(root, 'server/dist/reader-worker.js'), { workerData: { file } });
    try {
      const messages: ReaderMessage[] = [];
      const answered = new Promise<void>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (message: ReaderMessage) => {
          messages.push(message);
          if (message.kind === 'ready')
            worker.postMessage({
              id: 7,
              calls: [
                ['users', 'findById', ['user-1']],
                ['usage', 'get', ['user-1', '2026-12']],
                ['users', 'remove', ['user-1']],
              ],
            } satisfies ReadBatch);
          else resolve();
        });
      });
      await answered;
      expect(messages[0]).toStrictEqual({ kind: 'ready' });
      const answer = messages[1];
      expect(answer?.kind === 'answer' && answer.id).toBe(7);
      const outcomes = answer?.kind === 'answer' ? answer.outcomes : [];
      expect(outcomes[0]).toMatchObject([true, { id: 'user-1', name: 'Ana', plan: 'pro' }]);
      expect(outcomes[1]).toMatchObject([true, { messages: 0 }]);
      expect(outcomes[2]).toStrictEqual([
        false,
        { name: 'Error', message: 'the reader thread has no read users.remove' },
      ]);
    } finally {
      await worker.terminate();
      await storage.close();
    }
  });

  it('starts from dist/checkpoint-worker.js and checkpoints the file when asked', async () => {
    const file = join(directory, 'checkpoints.db');
    // A few commits into the WAL: too few for the store to checkpoint them, or to start its thread.
    const storage = openEmbeddedStorage({ file, readThread: false });
    for (let i = 0; i < 20; i++)
      await storage.users.create({
        id: `user-${i}`,
        email: `ana${i}@example.com`,
        name: 'Ana',
        passwordHash: 'x'.repeat(1000),
        plan: 'free',
        role: 'user',
        language: 'es',
        theme: 'dark',
        createdAt: '2026-12-01T08:00:00.000Z',
      });
    const worker = new Worker(join(root, 'server/dist/checkpoint-worker.js'), { workerData: { file } });
    try {
      const messages: CheckpointerMessage[] = [];
      await new Promise<void>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (message: CheckpointerMessage) => {
          messages.push(message);
          if (message.kind === 'ready') worker.postMessage('checkpoint' satisfies CheckpointRequest);
          else resolve();
        });
      });
      expect(messages[0]).toStrictEqual({ kind: 'ready' });
      expect(messages[1]).toMatchObject({ kind: 'checkpointed' });
      const done = messages[1]?.kind === 'checkpointed' ? messages[1] : null;
      expect(done?.log).toBeGreaterThanOrEqual(20);
      expect(done?.checkpointed).toBe(done?.log);
      // Asked to stop, it closes its connection and exits.
      const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
      worker.postMessage('stop' satisfies CheckpointRequest);
      expect(await exited).toBe(0);
    } finally {
      await worker.terminate();
      await storage.close();
    }
  });
});
