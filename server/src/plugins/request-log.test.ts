import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test-support/app.ts';

let t: TestApp;
const lines: Record<string, unknown>[] = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  t = await buildTestApp({}, { logger: { level: 'info', stream } });
});
afterAll(async () => t.close());

/** The access lines: ours, or Fastify's own pair ("incoming request", "request completed"). */
const requestLines = () =>
  lines.filter((l) => ['request', 'incoming request', 'request completed'].includes(String(l.msg)));

describe('request log (issue 14: REST at near-bare cost)', () => {
  it('writes one line per request — method, path, status, milliseconds — not two', async () => {
    lines.length = 0;
    const res = await t.app.inject({ method: 'GET', url: '/chat/sessions?x=1' });
    expect(res.statusCode).toBe(401);
    expect(requestLines()).toEqual([
      expect.objectContaining({
        msg: 'request',
        reqId: res.headers['x-request-id'],
        method: 'GET',
        url: '/chat/sessions?x=1',
        statusCode: 401,
        ms: expect.any(Number) as number,
      }),
    ]);
  });

  it('health probes are logged at debug only', async () => {
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/health' });
    expect(requestLines()).toEqual([]);
    t.app.log.level = 'debug';
    try {
      await t.app.inject({ method: 'GET', url: '/health' });
    } finally {
      t.app.log.level = 'info';
    }
    expect(requestLines()).toEqual([
      expect.objectContaining({ msg: 'request', url: '/health', statusCode: 200 }),
    ]);
  });

  it("keeps a caller's plain x-request-id and replaces anything else with a UUID", async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'trace-42_a' },
    });
    expect(kept.headers['x-request-id']).toBe('trace-42_a');
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'bad id; with spaces' },
    });
    expect(replaced.headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });
});
