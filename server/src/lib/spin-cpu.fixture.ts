import { serveWorkerJobs } from './worker-job.ts';
import { currentThreadId, threadCpuMs } from './thread-cpu.ts';

/** worker-job.test.ts: a job thread that burns the CPU milliseconds it is asked for, then answers. */
const threadId = currentThreadId();
const cpuMs = () => (threadId === null ? null : threadCpuMs(threadId)) ?? performance.now();

serveWorkerJobs<{ cpuMs: number }, number>(
  async (input) => {
    const start = cpuMs();
    while (cpuMs() - start < input.cpuMs) {
      // busy: the budget is what is measured
    }
    return cpuMs() - start;
  },
  () => ({ code: 'processing_failed' }),
);
