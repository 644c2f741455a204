import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
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
  /**
   * CPU used so far by the child's threads that run nicer than its main thread, µs (schedstat, as
   * above): Alma's speech workers (SPEECH_WORKER_NICE, S-9). The rest of the other threads' CPU is
   * V8's platform threads (concurrent garbage collection and compilation, for every isolate) and
   * libuv's pool. A thread that has exited no longer counts: compare readings while the same
   * threads live. NaN where there is no /proc.
   */
  nicerThreadsUs(): number;
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
    nicerThreadsUs: () => nicerThreadsUs(child.pid),
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

/** A field of a thread's `/proc/<pid>/task/<tid>/schedstat` (ns; the main thread's unless `tid`) in µs; NaN without /proc. */
function schedstat(pid: number | undefined, field: 0 | 1, tid = pid): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[field]) / 1000;
  } catch {
    return Number.NaN;
  }
}

/** A thread's nice, from `/proc/<pid>/task/<tid>/stat` (its 19th field); NaN if it is gone. */
function niceOf(pid: number, tid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis (the command may hold spaces): state is the
    // 3rd field of the line, nice the 19th.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return Number.NaN;
  }
}

/** The schedstat CPU of every thread of `pid` nicer than its main thread, µs; NaN without /proc. */
function nicerThreadsUs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  let tids: number[];
  try {
    tids = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return Number.NaN;
  }
  const mainNice = niceOf(pid, pid);
  let us = 0;
  for (const tid of tids) {
    if (tid === pid || !(niceOf(pid, tid) > mainNice)) continue;
    const cpu = schedstat(pid, 0, tid);
    if (Number.isFinite(cpu)) us += cpu; // a thread that ended meanwhile counts nothing
  }
  return us;
}
