import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildMessage, ParentMessage } from './child.ts';
import { forkChild } from './forked.ts';

/**
 * A server under measurement in its own process, so its CPU time is its own and not the load
 * generator's: `cpuUs()` reads the child's `process.cpuUsage()` (every thread, worker threads
 * included) over IPC. With `BENCH_PROFILE=<dir>`, `profile(name, work)` writes the main thread's
 * CPU profile over `work` to `<dir>/<name>.cpuprofile` (open it in Chrome's DevTools).
 */
export interface ServerProcess {
  url: string;
  /** Whatever the child reported when it was ready (test data it prepared, for instance). */
  info: Record<string, unknown>;
  /** User + system CPU the child has used so far, in microseconds. */
  cpuUs(): Promise<number>;
  /**
   * CPU the child's main thread (the event loop) has used so far, µs, from Linux's
   * `/proc/<pid>/task/<pid>/schedstat` (nanoseconds on a core); NaN where there is no /proc.
   */
  mainThreadUs(): number;
  /**
   * How long the main thread has waited so far for a core while ready to run (the run queue), µs:
   * the second field of the same schedstat; NaN where there is no /proc.
   */
  mainThreadWaitUs(): number;
  profile<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

type Request = ParentMessage extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;
type Ready = Extract<ChildMessage, { type: 'ready' }>;

export async function startServerProcess(
  script: URL,
  /** `nodeFlags`: Node's own flags for the child (Alma's: SERVER_NODE_FLAGS, as it ships). */
  options: { env?: Record<string, string>; label?: string; nodeFlags?: readonly string[] } = {},
): Promise<ServerProcess> {
  const label = options.label ?? 'server';
  const forked = await forkChild<Request, Exclude<ChildMessage, Ready>, Ready>(script, {
    label,
    isReady: (message): message is Ready => message.type === 'ready',
    ...(options.env ? { env: options.env } : {}),
    ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
    // BENCH_CPU_PROF=<dir>: node's own profiler on every thread of the child (one file each,
    // workers included), written when it exits.
    ...(process.env.BENCH_CPU_PROF
      ? { afterLoader: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] }
      : {}),
  });
  const { child, ask } = forked;
  const { url, info } = forked.ready;
  const profileDir = process.env.BENCH_PROFILE;
  return {
    url,
    info,
    cpuUs: async () => {
      const answer = await ask({ type: 'cpu' });
      return answer.type === 'cpu' ? answer.us : Number.NaN;
    },
    mainThreadUs: () => schedstat(child.pid, 0),
    mainThreadWaitUs: () => schedstat(child.pid, 1),
    profile: async (name, work) => {
      if (!profileDir) return work();
      mkdirSync(profileDir, { recursive: true });
      await ask({ type: 'profile-start' });
      try {
        return await work();
      } finally {
        await ask({ type: 'profile-stop', file: join(profileDir, `${label}-${name}.cpuprofile`) });
      }
    },
    close: forked.close,
  };
}

/** A field of the main thread's `/proc/<pid>/task/<pid>/schedstat` (ns) in µs; NaN without /proc. */
function schedstat(pid: number | undefined, field: 0 | 1): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[field]) / 1000;
  } catch {
    return Number.NaN;
  }
}
