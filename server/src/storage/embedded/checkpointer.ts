import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-thread.ts';

/**
 * WAL checkpoints off the event loop (issue 14). SQLite copies the WAL back into the database
 * file (a checkpoint) from inside the commit that finds the WAL past `wal_autocheckpoint` frames:
 * on the main connection, that is a commit of the event loop, which then also syncs the database
 * file. Measured: of 200 sends written together (sessions with 20 exchanges), every other group
 * commit took 15–21 ms instead of 4 ms, a third of the whole group write; the burst's acks and
 * first deltas waited behind it.
 *
 * A worker thread with a connection of its own to the file runs the checkpoints instead: once it
 * is ready the main connection's automatic checkpoint is switched off, and after each commit the
 * main thread looks at the WAL-index header (one read of 100 bytes, wal-changes.ts `backlog`)
 * and, past `CHECKPOINT_FRAMES` frames not yet copied, asks the thread for a PASSIVE checkpoint:
 * it copies what no reader still needs and never waits for, nor blocks, the writer. A writer that
 * then finds the whole WAL copied starts it again from the beginning, as after its own checkpoint.
 *
 * The thread starts once the WAL holds half that many frames (a store that writes little, as
 * tests and tools do, never starts it). Until it is ready, and after it fails or exits, the main
 * connection checkpoints as SQLite does by default: the WAL never grows without bound.
 */
export interface Checkpointer {
  /** After a commit of the main connection: asks for a checkpoint if one is due. */
  committed(): void;
  /** Lets a checkpoint in progress finish, then stops the thread and closes its connection. */
  close(): Promise<void>;
}

/** SQLite's default `wal_autocheckpoint`: a checkpoint once this many frames are not yet copied. */
export const CHECKPOINT_FRAMES = 1000;

/** How much nicer than the process the thread runs: below the speech workers (5), which speak now. */
export const CHECKPOINT_NICE = 10;

/** What the main thread asks; what the thread answers. */
export type CheckpointRequest = 'checkpoint' | 'stop';
export type CheckpointerMessage =
  | { kind: 'ready' }
  /** PASSIVE's outcome: the WAL's frames, and how many of them the database now holds. */
  | { kind: 'checkpointed'; log: number; checkpointed: number }
  | { kind: 'failed'; message: string };

const CHECKPOINT_WORKER = {
  source: new URL('./checkpoint-worker.ts', import.meta.url),
  bundle: 'checkpoint-worker.js',
};

export function createCheckpointer(
  file: string,
  main: {
    /** Frames in the WAL not yet copied into the database (wal-changes.ts). */
    backlog: () => number;
    /** Switches the main connection's own checkpoints on or off. */
    autocheckpoint: (on: boolean) => void;
    /** Each checkpoint the thread ran (tests). */
    onCheckpoint?: (outcome: { log: number; checkpointed: number }) => void;
    /** Told once, should the thread die or fail a checkpoint before the store closes (logged). */
    stopped?: (error: Error) => void;
  },
  entry: { source: URL; bundle: string } = CHECKPOINT_WORKER,
): Checkpointer {
  let worker: Worker | null = null;
  let state: 'idle' | 'starting' | 'ready' | 'gone' = 'idle';
  let asked = false;

  function gone(error: Error): void {
    if (state === 'gone') return;
    const checkpointing = state === 'ready';
    state = 'gone';
    worker = null;
    // The main connection takes its checkpoints back (it gave them up only once the thread was ready).
    if (checkpointing) main.autocheckpoint(true);
    main.stopped?.(error);
  }

  function start(): void {
    state = 'starting';
    const started = startWorker(entry, { file });
    worker = started;
    started.unref();
    started.on('message', (message: CheckpointerMessage) => {
      if (message.kind === 'ready') {
        if (state !== 'starting') return;
        main.autocheckpoint(false);
        state = 'ready';
        committed();
      } else if (message.kind === 'checkpointed') {
        asked = false;
        main.onCheckpoint?.(message);
      } else {
        // A checkpoint that failed (an I/O error): the main connection checkpoints from now on.
        gone(new Error(`a checkpoint failed: ${message.message}`));
        void started.terminate();
      }
    });
    started.on('error', gone);
    started.on('exit', (code) => gone(new Error(`the checkpoint thread exited with code ${code}`)));
  }

  function committed(): void {
    if (state === 'gone' || (state === 'ready' && asked)) return;
    const backlog = main.backlog();
    if (state === 'idle' && backlog >= CHECKPOINT_FRAMES / 2) start();
    else if (state === 'ready' && backlog >= CHECKPOINT_FRAMES) {
      asked = true;
      worker?.postMessage('checkpoint' satisfies CheckpointRequest);
    }
  }

  return {
    committed,
    async close() {
      const stopping = worker;
      const wasReady = state === 'ready';
      state = 'gone';
      worker = null;
      if (!stopping) return;
      if (!wasReady) {
        await stopping.terminate();
        return;
      }
      // The thread closes its connection before it exits; the main connection closes after it.
      // Until then the thread holds the process: unreferenced, a process with nothing else to do
      // would end while the close waits (a script awaiting it would exit with code 13).
      stopping.ref();
      const exited = new Promise<void>((resolve) => stopping.once('exit', () => resolve()));
      stopping.postMessage('stop' satisfies CheckpointRequest);
      await exited;
    },
  };
}
