import Database from 'libsql';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../lib/worker-thread.ts';
import { CHECKPOINT_NICE, type CheckpointerMessage, type CheckpointRequest } from './checkpointer.ts';

/**
 * The checkpoint thread (checkpointer.ts): a connection of its own to the store's file, already
 * migrated, that writes nothing and copies the WAL into the database when asked.
 */
const { file } = workerData as { file: string };
const port = parentPort;
if (!port) throw new Error('checkpoint-worker.ts runs as a worker thread');

// Copying the WAL can wait: the event loop and speech go first when the cores are all taken.
lowerThreadPriority(CHECKPOINT_NICE);
const db = new Database(file);

port.on('message', (request: CheckpointRequest) => {
  if (request === 'stop') {
    db.close();
    port.close();
    return;
  }
  let answer: CheckpointerMessage;
  try {
    const [outcome] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    answer = { kind: 'checkpointed', log: outcome?.log ?? 0, checkpointed: outcome?.checkpointed ?? 0 };
  } catch (error) {
    answer = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});

port.postMessage({ kind: 'ready' } satisfies CheckpointerMessage);
