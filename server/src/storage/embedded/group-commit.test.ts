import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGroupCommit } from './group-commit.ts';
import { openEmbeddedStorage } from './index.ts';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  // Several turns of the event loop: the group's flush runs on setImmediate.
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
};

function table() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v INTEGER)');
  return db;
}

describe('group commit with the fsync off the event loop (issue 14)', () => {
  it('acknowledges a group only once its sync has finished', async () => {
    const db = table();
    const sync = deferred();
    const writes = createGroupCommit(db, { sync: () => sync.promise });
    const write = writes.write(() => db.prepare('INSERT INTO t VALUES (1)').run());
    expect(await settled(write)).toBe(false);
    // Committed (readers see it), but not acknowledged until synced.
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toMatchObject({ n: 1 });
    sync.resolve();
    await expect(write).resolves.toMatchObject({ changes: 1 });
    db.close();
  });

  it("a sync that fails rejects the group's writes; a write that threw rejects with its own error", async () => {
    const db = table();
    const writes = createGroupCommit(db, { sync: () => Promise.reject(new Error('EIO')) });
    const [ok, bad] = await Promise.allSettled([
      writes.write(() => db.prepare('INSERT INTO t VALUES (1)').run()),
      writes.write(() => {
        throw new Error('constraint');
      }),
    ]);
    expect(ok).toMatchObject({ status: 'rejected', reason: { message: 'EIO' } });
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: 'constraint' } });
    db.close();
  });

  it('a write asking only for its commit resolves before the sync; synced() waits for it', async () => {
    const db = table();
    const syncs: ReturnType<typeof deferred>[] = [];
    const writes = createGroupCommit(db, {
      sync: () => {
        const sync = deferred();
        syncs.push(sync);
        return sync.promise;
      },
    });
    const insert = () => db.prepare('INSERT INTO t VALUES (1)').run();
    // In one group: one write waits for the disk, the other only for the commit.
    const durable = writes.write(insert);
    const committed = writes.write(insert, { synced: false });
    await expect(committed).resolves.toMatchObject({ changes: 1 });
    expect(await settled(durable)).toBe(false);
    // A dependent write in the next group, then the one wait for the disk covering both groups.
    await expect(writes.write(insert, { synced: false })).resolves.toMatchObject({ changes: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toMatchObject({ n: 3 });
    const onDisk = writes.synced();
    expect(syncs).toHaveLength(2); // the first group's, and the one synced() asked for
    syncs[0]?.resolve();
    await expect(durable).resolves.toMatchObject({ changes: 1 });
    expect(await settled(onDisk)).toBe(false);
    syncs[1]?.resolve();
    await expect(onDisk).resolves.toBeUndefined();
    db.close();
  });

  it('a group that cannot commit rejects its commit-only writes too', async () => {
    const db = table();
    const writes = createGroupCommit(db, { sync: () => Promise.resolve() });
    db.exec('BEGIN'); // the group's BEGIN IMMEDIATE fails: a transaction is open already
    const write = writes.write(() => db.prepare('INSERT INTO t VALUES (1)').run(), { synced: false });
    await expect(write).rejects.toThrow();
    db.close();
  });
});

describe('atomic units', () => {
  const values = (db: Database.Database) =>
    (db.prepare('SELECT v FROM t ORDER BY v').all() as { v: number }[]).map((row) => row.v);

  it('a unit inside another joins it: one savepoint for the whole, however deep', async () => {
    const db = table();
    const exec = vi.spyOn(db, 'exec');
    const writes = createGroupCommit(db);
    const insert = writes.atomic((v: number) => db.prepare('INSERT INTO t VALUES (?)').run(v));
    const both = writes.atomic((a: number, b: number) => [insert(a), insert(b)]);
    await writes.write(() => both(1, 2));
    expect(values(db)).toEqual([1, 2]);
    const savepoints = exec.mock.calls.filter(([sql]) => String(sql).startsWith('SAVEPOINT'));
    // The group's one for the write; `both` and the two `insert`s run inside it.
    expect(savepoints).toHaveLength(1);
    db.close();
  });

  it("an inner unit that throws undoes the whole write, the outer unit's rows included, not the group", async () => {
    const db = table();
    const writes = createGroupCommit(db);
    const insert = writes.atomic((v: number) => db.prepare('INSERT INTO t VALUES (?)').run(v));
    const failing = writes.atomic(() => {
      insert(3);
      throw new Error('undone');
    });
    const outer = writes.atomic(() => {
      insert(2);
      failing();
    });
    const results = await Promise.allSettled([
      writes.write(() => insert(1)),
      writes.write(outer),
      writes.write(() => insert(4)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(values(db)).toEqual([1, 4]);
    // Outside a write, a unit is a transaction of its own, and it commits.
    insert(5);
    expect(db.inTransaction).toBe(false);
    expect(values(db)).toEqual([1, 4, 5]);
    db.close();
  });
});

describe('the embedded store on a file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'alma-group-commit-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  const newUser = (id: string) => ({
    id,
    email: `${id}@example.com`,
    name: id,
    passwordHash: '',
    language: 'es' as const,
    theme: 'dark' as const,
    plan: 'free' as const,
    role: 'user' as const,
    createdAt: new Date().toISOString(),
  });

  it('acknowledges a write once the WAL file is synced: on the loop while the disk is fast', async () => {
    const order: string[] = [];
    const storage = openEmbeddedStorage({
      file: join(dir, 'fast.db'),
      walSync: { syncHere: () => void order.push('synced') },
    });
    const created = storage.users.create(newUser('user-1')).then(() => order.push('acknowledged'));
    const other = storage.users.create(newUser('user-2')).then(() => order.push('acknowledged'));
    await Promise.all([created, other]);
    // One group, one sync, before either is acknowledged.
    expect(order).toEqual(['synced', 'acknowledged', 'acknowledged']);
    await storage.close();
  });

  it('acknowledges a write once the WAL file is synced: on the thread pool once the disk is slow', async () => {
    let clock = 0;
    const gate = deferred();
    const pool: number[] = [];
    const storage = openEmbeddedStorage({
      file: join(dir, 'slow.db'),
      walSync: {
        now: () => clock,
        syncHere: () => void (clock += 50),
        syncOnPool: async (handle) => {
          await gate.promise;
          pool.push(handle.fd);
          await handle.datasync();
        },
      },
    });
    await storage.users.create(newUser('user-1')); // synced on the loop, in 50 ms
    expect(pool).toEqual([]);

    const created = storage.users.create(newUser('user-2'));
    expect(await settled(created)).toBe(false);
    expect(await storage.users.findById('user-2')).not.toBeNull(); // committed, not yet durable
    gate.resolve();
    await created;
    expect(pool).toHaveLength(1);
    await storage.close();
  });
});
