import { describe, expect, it } from 'vitest';
import { createFairQueue } from './fair-queue.ts';

/** A job that runs until the test finishes it; `started` records the order jobs begin in. */
function harness(workers: number, perUser = 1) {
  const queue = createFairQueue({ workers, perUser });
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const add = (userId: string, id: string) =>
    queue.enqueue({
      id,
      userId,
      run: () =>
        new Promise<void>((resolve) => {
          started.push(id);
          finishers.set(id, resolve);
        }),
    });
  const finish = async (id: string) => {
    finishers.get(id)?.();
    await new Promise((r) => setImmediate(r));
  };
  return { queue, started, add, finish };
}

describe('fair scheduling of processing jobs (AU-3)', () => {
  it("one user's queue never holds another user's job: each user runs one at a time", async () => {
    const { started, add, finish, queue } = harness(2);
    add('ana', 'a1');
    add('ana', 'a2');
    add('ana', 'a3');
    add('bob', 'b1');
    expect(started).toEqual(['a1', 'b1']);
    await finish('b1');
    expect(started).toEqual(['a1', 'b1']); // ana's next waits for her running one
    await finish('a1');
    expect(started).toEqual(['a1', 'b1', 'a2']);
    expect(queue.size()).toBe(2);
  });

  it('a single worker serves users in turn, the least recently served first', async () => {
    const { started, add, finish } = harness(1);
    add('ana', 'a1');
    add('ana', 'a2');
    add('ana', 'a3');
    add('bob', 'b1');
    add('cai', 'c1');
    add('bob', 'b2');
    for (const id of ['a1', 'b1', 'c1', 'a2', 'b2']) await finish(id);
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('a removed job never starts, and a failing job frees its worker', async () => {
    const queue = createFairQueue({ workers: 1 });
    const started: string[] = [];
    queue.enqueue({
      id: 'x',
      userId: 'u',
      run: () => (started.push('x'), Promise.reject(new Error('boom'))),
    });
    queue.enqueue({ id: 'y', userId: 'v', run: async () => void started.push('y') });
    queue.enqueue({ id: 'z', userId: 'w', run: async () => void started.push('z') });
    expect(queue.remove('y')).toBe(true);
    expect(queue.remove('x')).toBe(false); // already running
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['x', 'z']);
    expect(queue.size()).toBe(0);
  });
});
