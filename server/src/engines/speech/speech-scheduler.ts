/**
 * The order speech jobs are served in (issue 14; SPEC.md S-10): every reply's first clause before
 * anyone's later clauses — time to first audio stays fair under load — then first come, first
 * served. Bounded: when `maxQueued` jobs wait, a later clause is refused (and a first clause takes
 * the place of the newest later one); a job that waited longer than `maxWaitMs` is refused when
 * its turn comes. A refused reply goes on as text (S-10).
 */
export interface ScheduledJob {
  first: boolean;
  queuedAt: number;
  /** Called when the job will not be served. */
  refuse(reason: 'busy' | 'aborted'): void;
  aborted(): boolean;
}

export function createSpeechScheduler<J extends ScheduledJob>(options: {
  maxQueued: number;
  maxWaitMs: number;
  now?: () => number;
}) {
  const now = options.now ?? (() => performance.now());
  const firsts: J[] = [];
  const laters: J[] = [];
  return {
    /** False when the job was refused at once (the queue is full of work as urgent). */
    add(job: J): boolean {
      if (firsts.length + laters.length >= options.maxQueued) {
        const evicted = job.first ? laters.pop() : undefined;
        if (!evicted) {
          job.refuse('busy');
          return false;
        }
        evicted.refuse('busy');
      }
      (job.first ? firsts : laters).push(job);
      return true;
    },
    /**
     * The next job to serve, refusing aborted and stale ones on the way; undefined when none (or,
     * `firstOnly`, when no first clause waits).
     */
    next({ firstOnly = false }: { firstOnly?: boolean } = {}): J | undefined {
      for (;;) {
        const job = firsts.shift() ?? (firstOnly ? undefined : laters.shift());
        if (!job) return undefined;
        if (job.aborted()) job.refuse('aborted');
        else if (now() - job.queuedAt > options.maxWaitMs) job.refuse('busy');
        else return job;
      }
    },
    /** Waits count from `at` (the first worker ready: a cold start is no one's wait). */
    restartClocks(at: number): void {
      for (const job of [...firsts, ...laters]) job.queuedAt = Math.max(job.queuedAt, at);
    },
    get size(): number {
      return firsts.length + laters.length;
    },
  };
}
