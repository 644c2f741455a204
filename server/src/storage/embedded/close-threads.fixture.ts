import Database from 'libsql';
import { CHECKPOINT_FRAMES, createCheckpointer } from './checkpointer.ts';
import { readerThreadReady, testUser } from '../../test-support/embedded-store.ts';
import { openEmbeddedStorage } from './index.ts';
import { watchWalChanges } from './wal-changes.ts';

/**
 * Test fixture for close-threads.test.ts: starts the checkpoint thread or the
 * reader thread, waits until it has taken over its work, then closes the store at the top level
 * with nothing else keeping the process alive, and prints `closed` once the close has resolved.
 * Usage: node --import tsx close-threads.fixture.ts <file> checkpoint|reader
 */
const [file, thread] = process.argv.slice(2);
if (file === undefined || (thread !== 'checkpoint' && thread !== 'reader'))
  throw new Error('usage: close-threads.fixture.ts <file> checkpoint|reader');

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const deadline = Date.now() + 30_000;

if (thread === 'checkpoint') {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  const wal = watchWalChanges(file);
  if (!wal) throw new Error('no WAL to watch');
  let ready = false;
  const checkpointer = createCheckpointer(file, {
    backlog: () => wal.backlog(),
    autocheckpoint: (on) => {
      ready = !on;
      db.pragma(`wal_autocheckpoint = ${on ? CHECKPOINT_FRAMES : 0}`);
    },
  });
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  // Commits of ~20 pages each until the WAL's backlog has started the thread and it is ready.
  while (!ready) {
    if (Date.now() > deadline) throw new Error('the checkpoint thread never took over');
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < 20; i++) insert.run('x'.repeat(2000));
    db.exec('COMMIT');
    checkpointer.committed();
    await (wal.backlog() >= CHECKPOINT_FRAMES / 2 ? pause(20) : turn());
  }
  await checkpointer.close();
  db.close();
  wal.close();
} else {
  const storage = openEmbeddedStorage({ file, checkpointThread: false });
  const user = await storage.users.create(testUser());
  // Reads asked together start the thread; it is ready once it answers them.
  await readerThreadReady(storage, user.id, deadline - Date.now());
  await storage.close();
}
console.log('closed');
