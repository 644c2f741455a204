import type { ServerStatus } from '@alma/protocol';

/**
 * Watches the dependencies the server needs (the database; Redis and job queues when scale-out
 * adds them) and tells listeners when the overall status changes (SPEC.md H-1, H-2). A check is
 * a plain async function; one that throws, or answers after `timeoutMs`, counts as not ok.
 */
export interface HealthCheck {
  /** Stable name reported by /health (`database`, `redis`, `queues`, …). */
  name: string;
  run: () => Promise<boolean | { ok: boolean; detail?: string }>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface HealthSnapshot {
  status: ServerStatus;
  checks: CheckResult[];
}

export interface HealthMonitor {
  /** The last known snapshot (all ok until the first round says otherwise). */
  current(): HealthSnapshot;
  /** Runs every check now; listeners hear of a status change before this resolves. */
  check(): Promise<HealthSnapshot>;
  /** Adds a check (scale-out registers Redis and queues); it runs from the next round. */
  add(check: HealthCheck): void;
  /** Called with the new snapshot each time the overall status changes. */
  onChange(listener: (snapshot: HealthSnapshot) => void): () => void;
  /** Checks every `intervalMs` from now until `stop()`. */
  start(): void;
  stop(): void;
}

export interface HealthMonitorOptions {
  checks: HealthCheck[];
  /** How often the background round runs (HEALTH_CHECK_INTERVAL_MS). */
  intervalMs: number;
  /** A check that has not answered by then is down (the client waits 3 s for /health). */
  timeoutMs?: number;
  onError?: (error: unknown, check: string) => void;
}

const DEFAULT_TIMEOUT_MS = 1500;

async function runCheck(check: HealthCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ name: check.name, ok: false, detail: 'no answer' }), timeoutMs);
  });
  const answer = check.run().then(
    (r): CheckResult => (typeof r === 'boolean' ? { name: check.name, ok: r } : { name: check.name, ...r }),
    (error: unknown): CheckResult => ({
      name: check.name,
      ok: false,
      detail: error instanceof Error ? error.message : String(error),
    }),
  );
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function createHealthMonitor(options: HealthMonitorOptions): HealthMonitor {
  const checks = [...options.checks];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const listeners = new Set<(snapshot: HealthSnapshot) => void>();
  let snapshot: HealthSnapshot = {
    status: 'online',
    checks: checks.map((c) => ({ name: c.name, ok: true })),
  };
  let timer: NodeJS.Timeout | undefined;
  // One round at a time: /health and the timer share it, so a slow database is asked once.
  let round: Promise<HealthSnapshot> | undefined;

  const runRound = async (): Promise<HealthSnapshot> => {
    const results = await Promise.all(checks.map((c) => runCheck(c, timeoutMs)));
    const next: HealthSnapshot = {
      status: results.every((r) => r.ok) ? 'online' : 'degraded',
      checks: results,
    };
    const changed = next.status !== snapshot.status;
    snapshot = next;
    if (changed) {
      for (const listener of listeners) {
        try {
          listener(next);
        } catch (error) {
          options.onError?.(error, 'listener');
        }
      }
    }
    return next;
  };

  const monitor: HealthMonitor = {
    current: () => snapshot,
    check: () => (round ??= runRound().finally(() => (round = undefined))),
    add: (check) => void checks.push(check),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      if (timer) return;
      const tick = () => {
        void monitor.check().finally(() => {
          if (timer) timer = setTimeout(tick, options.intervalMs).unref();
        });
      };
      timer = setTimeout(tick, options.intervalMs).unref();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
  return monitor;
}
