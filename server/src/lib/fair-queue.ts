/**
 * Jobs of many users on a small pool of workers (SPEC.md AU-3): at most `workers` run at once and
 * at most `perUser` of them belong to one user; a free worker takes the oldest job of the user
 * served least recently, so one user's queue — or one slow job — never holds everyone else's.
 */

export interface FairJob {
  id: string;
  userId: string;
  run: () => Promise<void>;
}

export interface FairQueueOptions {
  workers: number;
  perUser?: number;
}

export function createFairQueue({ workers, perUser = 1 }: FairQueueOptions) {
  const waiting = new Map<string, (FairJob & { seq: number })[]>();
  const running = new Map<string, FairJob>();
  /** When each user with work here was last served; the least recent goes first. */
  const served = new Map<string, number>();
  let seq = 0;
  let closed = false;
  const runningOf = (userId: string) => [...running.values()].filter((j) => j.userId === userId).length;

  function next(): FairJob | null {
    let best: { userId: string; servedAt: number; oldest: number } | null = null;
    for (const [userId, jobs] of waiting) {
      const oldest = jobs[0]?.seq;
      if (oldest === undefined || runningOf(userId) >= perUser) continue;
      const servedAt = served.get(userId) ?? -1;
      if (!best || servedAt < best.servedAt || (servedAt === best.servedAt && oldest < best.oldest))
        best = { userId, servedAt, oldest };
    }
    if (!best) return null;
    const jobs = waiting.get(best.userId) ?? [];
    const job = jobs.shift() ?? null;
    if (!jobs.length) waiting.delete(best.userId);
    served.set(best.userId, ++seq);
    return job;
  }

  /** Forgets a user with nothing waiting or running (the map stays as small as the queue). */
  function forget(userId: string): void {
    if (!waiting.has(userId) && runningOf(userId) === 0) served.delete(userId);
  }

  function pump(): void {
    while (!closed && running.size < workers) {
      const job = next();
      if (!job) return;
      running.set(job.id, job);
      void job
        .run()
        .catch(() => undefined) // a job reports its own failures; the queue only keeps going
        .finally(() => {
          running.delete(job.id);
          forget(job.userId);
          pump();
        });
    }
  }

  return {
    enqueue(job: FairJob): void {
      const jobs = waiting.get(job.userId) ?? [];
      jobs.push({ ...job, seq: ++seq });
      waiting.set(job.userId, jobs);
      pump();
    },
    /** Takes a job out of the queue before it starts; false when it is not waiting. */
    remove(id: string): boolean {
      for (const [userId, jobs] of waiting) {
        const at = jobs.findIndex((j) => j.id === id);
        if (at < 0) continue;
        jobs.splice(at, 1);
        if (!jobs.length) waiting.delete(userId);
        forget(userId);
        return true;
      }
      return false;
    },
    /** Jobs waiting or running. */
    size: (): number => running.size + [...waiting.values()].reduce((n, jobs) => n + jobs.length, 0),
    isRunning: (id: string): boolean => running.has(id),
    /** Starts nothing more (shutdown); running jobs are stopped by their owners. */
    close(): void {
      closed = true;
    },
    workers,
  };
}

export type FairQueue = ReturnType<typeof createFairQueue>;

/**
 * Runs jobs on a fair queue, each with its own abort controller: `stop` takes one out before it
 * starts or aborts it while it runs (avatar jobs, voice analysis).
 */
export function createLocalRunner<J extends { id: string; userId: string }>(deps: {
  queue: FairQueue;
  run: (job: J, signal: AbortSignal) => Promise<void>;
}) {
  const running = new Map<string, AbortController>();
  let finished = 0;
  return {
    running,
    /** Jobs run to their end here since start (`/health`). */
    finished: () => finished,
    enqueue(job: J, after?: () => void): void {
      deps.queue.enqueue({
        id: job.id,
        userId: job.userId,
        run: async () => {
          const controller = new AbortController();
          running.set(job.id, controller);
          try {
            await deps.run(job, controller.signal);
          } finally {
            running.delete(job.id);
            finished += 1;
            after?.();
          }
        },
      });
    },
    /** Takes a job out of this queue, or aborts it if it runs here. */
    stop(id: string): void {
      deps.queue.remove(id);
      running.get(id)?.abort();
    },
    abortAll(): void {
      for (const controller of running.values()) controller.abort();
    },
  };
}

/**
 * Fills this instance's free workers from a queue shared by instances, one pass at a time:
 * `take` claims the next job and starts it (false when there is none or no room). A call during
 * a pass makes that pass go round once more, so no wake-up is lost.
 */
export function createPuller(deps: {
  /** Room for one more job here (and not closing). */
  free: () => boolean;
  take: () => Promise<boolean>;
  onError: (error: unknown) => void;
}): () => void {
  let pulling: Promise<void> | null = null;
  let again = false;
  return function pull(): void {
    if (!deps.free()) return;
    if (pulling) {
      again = true;
      return;
    }
    pulling = (async () => {
      do {
        again = false;
        while (deps.free() && (await deps.take()));
      } while (again && deps.free());
    })()
      .catch(deps.onError)
      .finally(() => {
        pulling = null;
      });
  };
}
