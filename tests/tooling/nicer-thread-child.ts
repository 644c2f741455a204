/**
 * A child for `server-process.test.ts`: two worker threads spin until each has used its share of
 * CPU (its own /proc schedstat) — one at nice +5, as Alma's speech workers run (S-9), 300 ms;
 * one at the process's nice, 600 ms — then it reports ready, as a server would once it listens.
 */
import { Worker } from 'node:worker_threads';
import { serveParent } from '../bench/support/child.ts';

const SPIN = `
  const { readFileSync } = require('node:fs');
  const { getPriority, setPriority } = require('node:os');
  const { parentPort, workerData } = require('node:worker_threads');
  const tid = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ', 1)[0]);
  if (workerData.nice > 0) setPriority(tid, getPriority(tid) + workerData.nice);
  const cpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  let x = 0;
  while (cpuMs() < workerData.ms) for (let i = 0; i < 1e5; i++) x += Math.sqrt(i);
  parentPort.postMessage(x > 0);
  setInterval(() => {}, 1 << 30); // stays alive, idle, until terminated
`;

const spin = (nice: number, ms: number) =>
  new Promise<Worker>((resolve, reject) => {
    const worker = new Worker(SPIN, { eval: true, workerData: { nice, ms } });
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });

// Both stay alive (idle) while the parent reads: an ended thread leaves /proc.
const workers = await Promise.all([spin(5, 300), spin(0, 600)]);
serveParent({
  url: 'http://127.0.0.1:0',
  close: async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  },
});
