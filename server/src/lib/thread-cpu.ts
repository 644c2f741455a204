import { readFileSync, readlinkSync } from 'node:fs';

/**
 * CPU time of one worker thread, so a job's budget counts the work it does rather than the time
 * it waits for a busy machine. Linux only (`/proc`): the worker tells its thread id at start
 * (`currentThreadId`) and the parent reads that thread's utime + stime. Elsewhere both answer
 * null and the caller falls back to wall-clock time.
 */

/** Kernel clock ticks per second for /proc times (USER_HZ, 100 on every Linux the server runs on). */
const TICKS_PER_SECOND = 100;

/** The calling thread's kernel id, or null off Linux. */
export function currentThreadId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/** CPU milliseconds a thread of this process has used, or null when it cannot be read (gone, not Linux). */
export function threadCpuMs(threadId: number): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${threadId}/stat`, 'utf8');
    // Fields after "pid (comm) ": state is [0], utime [11], stime [12] (proc(5) fields 14 and 15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}
