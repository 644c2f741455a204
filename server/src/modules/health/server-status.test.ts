import {
  HealthSchema,
  PROTOCOL_VERSION,
  ServerEvent,
  ServerStatusEventSchema,
  type ServerStatus,
} from '@alma/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp } from '../../test-support/app.ts';

/**
 * SPEC.md H-2: every connected client hears `server:status` when health changes — the database
 * lost, then back — not only once on connect. Real socket.io clients against the listening app.
 */
let t: TestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  // /health is asked to run the checks now, right after the database is lost: no answer given again (H-1).
  t = await buildTestApp({ HEALTH_CHECK_INTERVAL_MS: '50', HEALTH_MAX_AGE_MS: '0' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

async function connectedClient(email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Ana', email, password: 'Password123!', confirmPassword: 'Password123!', terms: true },
  });
  const { token } = json(res) as { token: string };
  const socket = io(url, { auth: { token, protocolVersion: PROTOCOL_VERSION }, transports: ['websocket'] });
  sockets.push(socket);
  const statuses: ServerStatus[] = [];
  socket.on(ServerEvent.serverStatus, (payload: unknown) => {
    statuses.push(ServerStatusEventSchema.parse(payload).status);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return statuses;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('server:status follows health (SPEC.md H-1, H-2)', () => {
  it('H-2: pushes degraded to every client when the database is lost and online when it is back', async () => {
    const a = await connectedClient('status-a@example.com');
    const b = await connectedClient('status-b@example.com');
    await until(() => a.length === 1 && b.length === 1, 'the status sent on connect (P-6)');
    expect([a, b]).toEqual([['online'], ['online']]);

    const ping = t.storage.ping.bind(t.storage);
    // The database stops answering: a test double at the driver boundary (no way to unplug
    // SQLite for a moment and plug it back).
    t.storage.ping = async () => false;
    try {
      await until(() => a.length === 2 && b.length === 2, 'degraded');
      expect([a[1], b[1]]).toEqual(['degraded', 'degraded']);
      const health = HealthSchema.parse(json(await t.app.inject({ method: 'GET', url: '/health' })));
      expect(health.checks).toEqual([{ name: 'database', ok: false }]);
      // Still degraded: no repeated pushes while nothing changes.
      await new Promise((r) => setTimeout(r, 300));
      expect(a).toEqual(['online', 'degraded']);
    } finally {
      t.storage.ping = ping;
    }
    await until(() => a.length === 3 && b.length === 3, 'online again');
    expect(a).toEqual(['online', 'degraded', 'online']);
    expect(b).toEqual(['online', 'degraded', 'online']);
  });

  it('H-2: a client connecting while degraded is told so at once, then hears it is back', async () => {
    const ping = t.storage.ping.bind(t.storage);
    t.storage.ping = async () => false; // the database is unreachable (test double, as above)
    let c: ServerStatus[];
    try {
      // /health runs the checks now (H-1): the monitor knows before the client connects.
      const health = HealthSchema.parse(json(await t.app.inject({ method: 'GET', url: '/health' })));
      expect(health.status).toBe('degraded');
      c = await connectedClient('status-c@example.com');
      await until(() => c.length >= 1, 'the status on connect');
      expect(c).toEqual(['degraded']);
    } finally {
      t.storage.ping = ping;
    }
    await until(() => c.length === 2, 'online again');
    expect(c).toEqual(['degraded', 'online']);
  });
});
