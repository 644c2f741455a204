import { ClientEvent, ServerEvent, routes } from '@alma/protocol';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer } from '../fixtures/server.ts';
import { connectClient } from '../fixtures/socket.ts';

const root = new URL('../..', import.meta.url).pathname;
const LONG = 'Hoy quiero contarte con calma todo lo que pasó en el trabajo, con mi familia y con mis amigos';

describe('C-8 graceful shutdown', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it.each([
    ['lets a reply in flight finish within the grace time', '5000', true],
    ['aborts a reply that outlives the grace time and stores it as incomplete', '50', false],
  ])('%s', async (_name, grace, complete) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'alma-shutdown-'));
    dirs.push(dataDir);
    const server = await startTestServer({ REPLY_TOKEN_DELAY_MS: '40', SHUTDOWN_GRACE_MS: grace }, dataDir);
    const user = await registerUser(server.url);
    const client = connectClient(server.url, user.token);
    await client.connected();
    const ack = await client.request(ClientEvent.chatSend, {
      clientMessageId: `shutdown-${grace}`,
      message: LONG,
    });
    if (!ack.ok) throw new Error(ack.error.message);
    await client.waitFor((e) => e.some((x) => x.event === ServerEvent.chatDelta));
    const disconnected = new Promise<string>((resolve) => client.socket.once('disconnect', resolve));
    client.socket.io.opts.reconnection = false;
    await server.close();
    // The connection is closed (not a deliberate "io server disconnect"), so browsers reconnect
    // to the restarted server by themselves.
    expect(await disconnected).toBe('transport close');
    const last = client.replyEvents(ack.data.replyId).at(-1);
    expect(last?.event).toBe(ServerEvent.chatReply);
    expect((last?.payload as { message: { isComplete: boolean } }).message.isComplete).toBe(complete);

    // After a restart on the same data the reply is there, as it was announced.
    const again = await startTestServer({}, dataDir);
    try {
      const call = apiClient(again.url, { token: user.token });
      const page = await call(routes.chat.listMessages, { query: { sessionId: ack.data.sessionId } });
      expect(page.items.map((m) => [m.role, m.isComplete])).toEqual([
        ['user', true],
        ['assistant', complete],
      ]);
    } finally {
      await again.close();
    }
  });
});

describe('P-3 origin check', () => {
  it('refuses a browser handshake from an origin not allowed, accepts an allowed one', async () => {
    const server = await startTestServer({ CORS_ORIGINS: 'http://allowed.example' });
    try {
      const user = await registerUser(server.url);
      const attempt = (origin: string) =>
        new Promise<string>((resolve) => {
          const socket = io(server.url, {
            transports: ['websocket'],
            reconnection: false,
            extraHeaders: { origin },
            auth: { token: user.token, protocolVersion: 1 },
          });
          socket.on('connect', () => {
            socket.disconnect();
            resolve('connected');
          });
          socket.on('connect_error', () => {
            socket.disconnect();
            resolve('refused');
          });
        });
      expect(await attempt('http://evil.example')).toBe('refused');
      expect(await attempt('http://allowed.example')).toBe('connected');
    } finally {
      await server.dispose();
    }
  });
});

describe('start-up configuration', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'server/dist/server.js'))) {
      execFileSync('node', ['build.mjs'], { cwd: join(root, 'server'), stdio: 'ignore' });
    }
  });

  it('stops with one clear message naming each bad variable, exit code 2', () => {
    const run = spawnSync('node', ['server/dist/server.js'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: 'seventy',
        MONGODB_URI: 'postgres://db',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'alma-cfg-')),
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('PORT="seventy"');
    expect(run.stderr).toContain('MONGODB_URI="postgres://db"');
    expect(run.stderr).not.toContain('    at '); // no stack trace
  });
});
