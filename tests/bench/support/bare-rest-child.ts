/**
 * The REST baseline: bare Fastify (its defaults: no logger, no hooks, no plugins) answering
 * `GET /health` and `GET /chat/sessions` with the JSON Alma answered (`BENCH_BODIES`, JSON of
 * `{ path: body }`), serialised per request as Fastify does for any object a handler returns.
 */
import Fastify from 'fastify';
import { serveParent } from './child.ts';

const bodies = JSON.parse(process.env.BENCH_BODIES ?? '{}') as Record<string, unknown>;
const app = Fastify();
for (const [path, body] of Object.entries(bodies)) {
  app.get(path, async () => body);
}
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
serveParent({ url: `http://127.0.0.1:${port}`, close: () => app.close() });
