import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthSessionSchema } from '@alma/protocol';
import { buildTestApp, json, registrationBody, type TestApp } from '../test-support/app.ts';
import { redactUrl, turnBatched } from './request-log.ts';

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
        url: '/chat/sessions?x=[redacted]',
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

  it('a health probe refused is logged at info', async () => {
    lines.length = 0;
    expect((await t.app.inject({ method: 'POST', url: '/health' })).statusCode).toBe(404);
    expect(requestLines()).toEqual([
      expect.objectContaining({ msg: 'request', level: 30, method: 'POST', url: '/health', statusCode: 404 }),
    ]);
  });

  it("the server's log writes the lines of one event-loop turn together, in order, once the turn ends", async () => {
    const writes: string[] = [];
    const log = turnBatched({ write: (text) => writes.push(text) });
    log.write('a\n');
    log.write('b\n');
    log.write('c\n');
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['a\nb\nc\n']);
    log.write('d\n');
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('a line still pending when the process exits is written', () => {
    const script = `import('${new URL('./request-log.ts', import.meta.url).href}').then((m) => {
      const { stream } = m.serverLogger('info');
      stream.write('{"msg":"last words"}\\n');
      process.exit(0);
    });`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('{"msg":"last words"}\n');
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

describe('W-4 secrets stay out of the request log', () => {
  it('W-4 redacts every query value, keeping the names, and the token segment of reset and verify paths', () => {
    expect(redactUrl('/auth/callback?token=eyJhbGciOi.x.y&refreshToken=abc')).toBe(
      '/auth/callback?token=[redacted]&refreshToken=[redacted]',
    );
    expect(redactUrl('/api/auth/resetpassword/Zm9vYmFy')).toBe('/api/auth/resetpassword/[redacted]');
    expect(redactUrl('/auth/verifyemail/Zm9vYmFy?x=1')).toBe('/auth/verifyemail/[redacted]?x=[redacted]');
    expect(redactUrl('/reset-password/Zm9vYmFy')).toBe('/reset-password/[redacted]');
    expect(redactUrl('/chat/sessions?flag')).toBe('/chat/sessions?flag');
    expect(redactUrl('/health')).toBe('/health');
  });

  it('W-4 a provider callback and an emailed link leave no token in the log', async () => {
    const secret = 'c2VjcmV0LXRva2VuLXZhbHVlLTEyMzQ1Njc4OTA';
    await t.app.inject({ method: 'GET', url: `/auth/callback?token=${secret}&refreshToken=${secret}` });
    await t.app.inject({ method: 'GET', url: `/reset-password/${secret}` });
    await t.app.inject({
      method: 'PUT',
      url: `/auth/resetpassword/${secret}`,
      payload: { password: 'Secret123' },
    });
    await t.app.inject({ method: 'GET', url: `/auth/verifyemail/${secret}` });
    // A sign-in, a refresh and an authenticated call: password and tokens stay out too.
    const body = registrationBody({ email: 'logged@example.com', password: 'Pa55word-in-log' });
    const session = AuthSessionSchema.parse(
      json(await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body })),
    );
    const refreshed = AuthSessionSchema.parse(
      json(
        await t.app.inject({
          method: 'POST',
          url: '/auth/refresh',
          payload: { refreshToken: session.refreshToken },
        }),
      ),
    );
    await t.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${session.token}` },
    });
    const log = JSON.stringify(lines);
    for (const value of ['Pa55word-in-log', session.token, session.refreshToken, refreshed.refreshToken])
      expect(log).not.toContain(value);
    expect(log).toContain('/auth/callback?token=[redacted]&refreshToken=[redacted]');
    expect(log).toContain('/auth/resetpassword/[redacted]');
    expect(log).not.toContain(secret);
  });
});
