/**
 * Storage write benchmark (alone: `tsx tests/bench/storage-write-bench.ts`; `BENCH_QUICK=1` for a
 * small run; `BENCH_ROUNDS`, `BENCH_SENDS`).
 *
 * What 200 sends written at once hold the event loop for (issue 14): each user's next message
 * into a session of 20 exchanges, through the embedded store's send write (`sends.store`), all
 * in one group commit — as a burst of `chat:send` does. The figure is the time from the last send
 * asked to the first thing the event loop does after the group's commit: the group write, and
 * whatever its commit does on the event loop.
 *
 * Two stores seeded alike, side by side in one process, rounds alternated: one whose WAL
 * checkpoints run on their own thread (checkpointer.ts, the default), one that checkpoints inside
 * its commits as SQLite does by default (`checkpointThread: false`). Medians and p90 of the
 * rounds after two warm-up rounds each. No thresholds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uuidv7 } from '../../server/src/lib/ids.ts';
import { EMBEDDED_FILE_NAME, openEmbeddedStorage } from '../../server/src/storage/index.ts';
import type { NewMessage } from '../../server/src/storage/records.ts';
import type { Storage } from '../../server/src/storage/types.ts';
import { seedHistory } from './support/seed-history.ts';
import { fmt, machine, median, percentile, printTable, QUICK, ratio, writeResult } from './support/report.ts';

const SENDS = Number(process.env.BENCH_SENDS) || 200;
const ROUNDS = Number(process.env.BENCH_ROUNDS) || (QUICK ? 4 : 16);
const WARM_UP_ROUNDS = 2;
const TURNS = 20;

interface Store {
  name: string;
  dataDir: string;
  storage: Storage;
  sessions: string[];
  blocks: number[];
}

const users = Array.from({ length: SENDS }, (_, i) => `user-${String(i).padStart(4, '0')}`);

async function seeded(name: string, checkpointThread: boolean): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), 'alma-storage-write-'));
  const file = join(dataDir, EMBEDDED_FILE_NAME);
  const setup = openEmbeddedStorage({ file, readThread: false, checkpointThread: false });
  await Promise.all(
    users.map((id, i) =>
      setup.users.create({
        id,
        name: `Usuaria ${i}`,
        email: `u${i}@example.com`,
        passwordHash: 'x',
        plan: 'free',
        role: 'user',
        language: 'es',
        theme: 'dark',
        createdAt: new Date().toISOString(),
      }),
    ),
  );
  await setup.close();
  const sessions = await seedHistory(dataDir, users, TURNS);
  const storage = openEmbeddedStorage({ file, readThread: false, checkpointThread });
  return { name, dataDir, storage, sessions, blocks: [] };
}

/** One round: every user's next message, asked at once; how long the event loop was held. */
async function round(store: Store): Promise<number> {
  const createdAt = new Date().toISOString();
  const writes = users.map((userId, i) => {
    const message: NewMessage = {
      _id: uuidv7(),
      sessionId: store.sessions[i] ?? '',
      userId,
      role: 'user',
      content: '¿Y si esta semana probamos a acostarnos media hora antes?',
      createdAt,
      clientMessageId: uuidv7(),
      replyTo: null,
      emotion: null,
      emotionAnalysis: null,
      language: 'es',
      userLanguage: 'es',
      personality: null,
      audioUrl: null,
      isComplete: true,
      voiceId: null,
      avatarId: null,
    };
    const reply: NewMessage = {
      ...message,
      _id: uuidv7(),
      role: 'assistant',
      content: '',
      clientMessageId: null,
      replyTo: message._id,
      personality: 'default',
      isComplete: false,
      gesture: null,
    };
    return store.storage.sends.store(
      { message, reply, count: { period: createdAt.slice(0, 7), limit: null } },
      { synced: false },
    );
  });
  // The group commits in the next check phase; this immediate runs right after it.
  const asked = performance.now();
  await new Promise<void>((resolve) => setImmediate(resolve));
  const held = performance.now() - asked;
  const written = await Promise.all(writes);
  if (written.some((w) => w.kind !== 'stored')) throw new Error('a send was not stored');
  await store.storage.synced();
  // Let the checkpoint thread (if any) take its turn, as between bursts.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return held;
}

const stores = [await seeded('checkpoint thread', true), await seeded('checkpoints in the commit', false)];
try {
  for (let r = 0; r < WARM_UP_ROUNDS + ROUNDS; r++)
    for (const store of r % 2 === 0 ? stores : [...stores].reverse()) {
      const held = await round(store);
      if (r >= WARM_UP_ROUNDS) store.blocks.push(held);
    }
  const [thread, inCommit] = stores as [Store, Store];
  console.log(
    `storage-write: ${SENDS} sends at once into sessions of ${TURNS} exchanges, ${ROUNDS} rounds a store (alternated)`,
  );
  printTable(
    ['store', 'event loop held p50', 'p90', 'max'],
    stores.map((s) => [
      s.name,
      `${fmt(median(s.blocks))} ms`,
      `${fmt(percentile(s.blocks, 90))} ms`,
      `${fmt(Math.max(...s.blocks))} ms`,
    ]),
  );
  const p50 = ratio(median(thread.blocks), median(inCommit.blocks));
  const p90 = ratio(percentile(thread.blocks, 90), percentile(inCommit.blocks, 90));
  console.log(`thread / in the commit: p50 ×${fmt(p50, 2)}, p90 ×${fmt(p90, 2)}`);
  writeResult('storage-write', {
    machine: machine(),
    sends: SENDS,
    rounds: ROUNDS,
    stores: stores.map((s) => ({ name: s.name, blocksMs: s.blocks })),
    ratios: { p50, p90 },
  });
} finally {
  for (const store of stores) {
    await store.storage.close();
    rmSync(store.dataDir, { recursive: true, force: true });
  }
}
