import { clientEvents, PROTOCOL_VERSION, serverEvents, type ServerEventName } from '@alma/protocol';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPythonWithSocketio } from '../../scripts/system-packages.mjs';
import { startTestServer, type TestServer } from '../fixtures/server.ts';

/**
 * SPEC.md F-1, F-2: the protocol followed by a client that is not ours — Debian's python-socketio
 * (tests/socket/foreign/alma_client.py) registers over REST, connects, sends, and receives a whole
 * reply; every payload it saw is validated here with the protocol's zod schemas. npm test's
 * preflight makes sure python3-socketio is installed (scripts/system-packages.mjs).
 */
interface Seen {
  event: string;
  args: number;
  payload: unknown;
  strictHandlerError?: string;
}
interface Run {
  ack: unknown;
  finished: boolean;
  events: Seen[];
}

const script = new URL('./foreign/alma_client.py', import.meta.url).pathname;
const python = findPythonWithSocketio();
let server: TestServer;
let run: Run;

/** Python sends binary fields as `{ $bytes: base64 }` (JSON has no bytes): rebuild them. */
const revive = (_key: string, value: unknown) =>
  value && typeof value === 'object' && '$bytes' in value
    ? new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'))
    : value;

beforeAll(async () => {
  if (!python)
    throw new Error('no python3 with socketio: apt-get install python3-socketio python3-websocket');
  server = await startTestServer({ REPLY_TOKEN_DELAY_MS: '5' });
  // Asynchronously: the server runs in this process and must keep answering.
  const { stdout } = await promisify(execFile)(
    python,
    [script, server.url, String(PROTOCOL_VERSION), 'pyra@example.com'],
    { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  run = JSON.parse(stdout, revive) as Run;
}, 150_000);
afterAll(async () => server?.dispose());

describe('a foreign client (python-socketio) follows the protocol (SPEC.md F-1, F-2)', () => {
  it('F-2: the send is acknowledged with a valid result', () => {
    const ack = run.ack as { ok: boolean; data: unknown };
    expect(ack.ok).toBe(true);
    expect(clientEvents['chat:send'].result.safeParse(ack.data).success).toBe(true);
  });

  it('F-2: every payload it received is valid, and the whole reply arrived in order', () => {
    expect(run.finished).toBe(true);
    for (const seen of run.events) {
      const schema = serverEvents[seen.event as ServerEventName];
      expect(schema, `unknown event ${seen.event}`).toBeDefined();
      const parsed = schema.safeParse(seen.payload);
      expect(parsed.success, `${seen.event}: ${parsed.error?.message}`).toBe(true);
    }
    expect(run.events[0]?.event).toBe('server:status'); // P-6
    const { replyId } = (run.ack as { data: { replyId: string } }).data;
    const reply = run.events.filter((e) => (e.payload as { replyId?: string }).replyId === replyId);
    const kinds = reply.map((e) => e.event);
    expect(kinds[0]).toBe('chat:typing');
    expect(kinds.at(-1)).toBe('chat:reply');
    expect(kinds).toContain('chat:delta');
    const seqs = reply.map((e) => (e.payload as { seq: number }).seq);
    expect(seqs).toEqual(seqs.map((_, i) => i)); // C-4: 0, 1, 2, … across kinds
    const text = reply
      .filter((e) => e.event === 'chat:delta')
      .map((e) => (e.payload as { text: string }).text)
      .join('');
    expect(text).toBe((reply.at(-1)?.payload as { reply: { reply: string } }).reply.reply);
  });

  it('F-1: every server event carries the recovery offset as a second argument, which a one-argument handler cannot take', () => {
    expect(run.events.length).toBeGreaterThan(3);
    for (const seen of run.events) {
      expect(seen.args, seen.event).toBe(2);
      expect(seen.strictHandlerError, seen.event).toMatch(/positional argument/);
    }
  });
});
