import { parentPort } from 'node:worker_threads';

/** reader.test.ts: a reader thread that says it is ready, then dies on the first batch it is asked. */
const port = parentPort;
if (!port) throw new Error('reader-exits.fixture.ts runs as a worker thread');
port.on('message', () => process.exit(3));
port.postMessage({ kind: 'ready' });
