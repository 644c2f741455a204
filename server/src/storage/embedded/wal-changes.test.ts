import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchWalChanges } from './wal-changes.ts';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'alma-wal-changes-'));
});
afterAll(async () => rm(directory, { recursive: true, force: true }));

describe('watchWalChanges (issue 14)', () => {
  it("moves on every commit, this connection's or another's, and on a checkpoint that restarts the WAL; not on reads", async () => {
    const file = join(directory, 'changes.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)');
    const other = new Database(file);
    const changes = watchWalChanges(file);
    if (!changes) throw new Error('no -shm file to watch');
    try {
      let seen = changes.generation();
      const moved = () => {
        const now = changes.generation();
        const didMove = now !== seen;
        seen = now;
        return didMove;
      };
      expect(moved()).toBe(false);
      db.prepare('SELECT * FROM t').all();
      other.prepare('SELECT count(*) FROM t').get();
      expect(moved()).toBe(false);
      other.prepare('INSERT INTO t (v) VALUES (1)').run();
      expect(moved()).toBe(true);
      expect(moved()).toBe(false);
      db.prepare('INSERT INTO t (v) VALUES (2)').run();
      expect(moved()).toBe(true);
      db.pragma('wal_checkpoint(TRUNCATE)');
      expect(moved()).toBe(true);
      other.prepare('UPDATE t SET v = 3 WHERE id = 1').run();
      expect(moved()).toBe(true);
      // A rolled-back transaction committed nothing.
      other.exec('BEGIN IMMEDIATE');
      other.prepare('DELETE FROM t').run();
      other.exec('ROLLBACK');
      expect(moved()).toBe(false);
    } finally {
      changes.close();
      other.close();
      db.close();
    }
  });

  it('counts the frames a checkpoint has not copied yet: as PRAGMA wal_checkpoint reports them', () => {
    const file = join(directory, 'backlog.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const changes = watchWalChanges(file);
    if (!changes) throw new Error('no -shm file to watch');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
      expect(changes.backlog()).toBe(0);
      for (let i = 0; i < 30; i++) insert.run('x'.repeat(3000));
      const frames = changes.backlog();
      expect(frames).toBeGreaterThanOrEqual(30);
      const [outcome] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
      expect(outcome).toMatchObject({ log: frames, checkpointed: frames });
      expect(changes.backlog()).toBe(0);
      // The next commit starts the WAL again: its frames are the backlog.
      insert.run('y');
      expect(changes.backlog()).toBeGreaterThan(0);
      expect(changes.backlog()).toBeLessThan(frames);
    } finally {
      changes.close();
      db.close();
    }
    expect(changes.backlog()).toBe(0);
  });

  it('has nothing to watch in memory: the caller asks the database every time', () => {
    expect(watchWalChanges(':memory:')).toBeNull();
  });

  it('counts a header it cannot read as a change, every time', () => {
    const file = join(directory, 'gone.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    const changes = watchWalChanges(file);
    if (!changes) throw new Error('no -shm file to watch');
    changes.close();
    db.close();
    expect(changes.generation()).not.toBe(changes.generation());
  });
});
