import { parentPort } from 'node:worker_threads';

/** checkpointer.test.ts: a checkpoint thread that says it is ready, then fails every checkpoint asked. */
const port = parentPort;
if (!port) throw new Error('checkpoint-fails.fixture.ts runs as a worker thread');
port.on('message', () => port.postMessage({ kind: 'failed', message: 'disk I/O error' }));
port.postMessage({ kind: 'ready' });
