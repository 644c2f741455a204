import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CustomAvatarRecord } from '../../storage/types.ts';
import { createLocalRunner, type FairQueue } from '../../lib/fair-queue.ts';

/**
 * Where avatar jobs wait and who runs them (SPEC.md AU-3, AU-8, M-7). A job is a custom avatar
 * recorded as `pending`: the database is the queue, so a job survives its instance. In one
 * process (no REDIS_URL) this board runs every job here; `createRedisJobBoard` lets any
 * instance's workers take them, under a lease.
 */

export interface AvatarJob {
  id: string;
  userId: string;
  /** The upload's bytes (the job's CPU budget follows it). */
  size: number;
}

export interface JobBoard {
  /** This instance's folder for uploads still arriving (`incoming/<instance>`). */
  readonly incoming: string;
  /** A job just recorded as pending: it runs here or on any instance with a free worker. */
  add(job: AvatarJob): void;
  /** Stops a job wherever it waits or runs (its record already says cancelled, or is gone). */
  stop(id: string): Promise<void>;
  /**
   * After start: half-received uploads of instances that are gone are removed, and jobs whose
   * instance is gone are taken back (AU-8) — never a live instance's files or jobs.
   */
  recover(): Promise<void>;
  /** The jobs running on this instance now. */
  running(): string[];
  /** Jobs this instance's workers have run to their end since start. */
  finished(): number;
  /** Stops taking jobs and stops the ones running here (shutdown). */
  close(): Promise<void>;
}

export interface JobBoardDeps {
  /** The worker threads of this instance, shared with compatibility checks. */
  queue: FairQueue;
  /** Runs one job to its end; `signal` aborts it (cancel, shutdown). */
  run: (job: AvatarJob, signal: AbortSignal) => Promise<void>;
  /** Jobs pending or processing, of every user. */
  listUnfinished: () => Promise<CustomAvatarRecord[]>;
  /**
   * A job whose instance is gone, as a job to run again when its upload survived (the record
   * is back to `pending`), or null (recorded as failed, or finished meanwhile).
   */
  takeOver: (record: CustomAvatarRecord) => Promise<AvatarJob | null>;
  /** DATA_DIR/custom-avatars/incoming. */
  incomingRoot: string;
  instanceId: string;
}

export const jobOf = (record: CustomAvatarRecord): AvatarJob => ({
  id: record.id,
  userId: record.userId,
  size: record.originalSize,
});

/** One process: every job runs here, and after a restart every unfinished job is this one's. */
export function createLocalJobBoard(deps: JobBoardDeps): JobBoard {
  const runner = createLocalRunner(deps);
  return {
    incoming: join(deps.incomingRoot, deps.instanceId),
    add: (job) => runner.enqueue(job),
    stop: async (id) => runner.stop(id),
    running: () => [...runner.running.keys()],
    finished: runner.finished,
    async recover() {
      // Only this process writes here: whatever is left was cut off by a restart.
      await rm(deps.incomingRoot, { recursive: true, force: true });
      await mkdir(deps.incomingRoot, { recursive: true });
      for (const record of await deps.listUnfinished()) {
        const job = await deps.takeOver(record);
        if (job) runner.enqueue(job);
      }
    },
    close: async () => runner.abortAll(),
  };
}
