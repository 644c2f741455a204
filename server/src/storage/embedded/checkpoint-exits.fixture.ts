import { parentPort } from 'node:worker_threads';

/** checkpointer.test.ts: a checkpoint thread that says it is ready, then dies when first asked. */
const port = parentPort;
if (!port) throw new Error('checkpoint-exits.fixture.ts runs as a worker thread');
port.on('message', () => process.exit(3));
port.postMessage({ kind: 'ready' });
