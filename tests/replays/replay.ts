import { ClientEvent, ServerEvent, routes } from '@alma/protocol';
import { readFileSync } from 'node:fs';
import { apiClient } from '../fixtures/api.ts';
import type { TestClient } from '../fixtures/socket.ts';
import type { Scenario } from './scenarios.ts';

/**
 * Runs recorded scenarios and normalises runs so they can be compared. A recording is one JSON
 * line per entry: first `{ dir: 'meta', event: 'scenario', payload: <Scenario> }`, then, in the
 * order the client saw them, what it sent (`in`), server events (`out`), acks (`ack`) and REST
 * answers (`rest`). Ids become <id1>, <id2>… in order of first appearance, times become <time>.
 */
export interface RecordLine {
  t: number;
  dir: 'meta' | 'in' | 'out' | 'ack' | 'rest';
  event: string;
  payload: unknown;
}

export function readRecording(file: string): { scenario: Scenario; lines: RecordLine[] } {
  const all = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as RecordLine);
  const [meta, ...lines] = all;
  if (meta?.dir !== 'meta') throw new Error(`${file}: the first line must be the scenario`);
  return { scenario: meta.payload as Scenario, lines };
}

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Binary payloads (speech audio): live ones arrive as Buffer / ArrayBuffer, recorded ones as `{ $binary }`. */
function bytesOf(value: unknown): Uint8Array | null {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const binary = (value as { $binary?: unknown }).$binary;
    if (keys.length === 1 && typeof binary === 'string') return Buffer.from(binary, 'base64');
  }
  return null;
}

/**
 * What a binary payload is compared by: its length. The builtin speech engine's timings, visemes
 * and audio lengths are deterministic, but its MP3 bytes are not quite (the encoder's rounding
 * differs from run to run), so the bytes themselves are not compared.
 */
export function binaryDigest(bytes: Uint8Array): string {
  return `<binary ${bytes.byteLength} bytes>`;
}

/** Recordings keep binary payloads as their length (a recording stays small and readable). */
export function encodeForRecording(value: unknown): unknown {
  const bytes = bytesOf(value);
  if (bytes) return binaryDigest(bytes);
  if (Array.isArray(value)) return value.map(encodeForRecording);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeForRecording(v)]));
  }
  return value;
}

/** Speech and the gestures placed on it come when synthesis is ready, which depends on the machine. */
const TIMED_EVENTS: ReadonlySet<string> = new Set([ServerEvent.speechChunk, ServerEvent.avatarIntent]);
const TERMINAL_EVENTS: ReadonlySet<string> = new Set([ServerEvent.chatReply, ServerEvent.chatError]);

/**
 * Speech timing aside: each reply's `speech:chunk` and `avatar:intent` lines, in their own order,
 * move to just before the reply's last event, and `seq` becomes `<seq>` — where synthesis
 * finishes among the deltas depends on the machine, what is said and in which order does not
 * (C-4's numbering is checked by tests/socket).
 */
function settleSpeech<T extends Pick<RecordLine, 'dir' | 'event' | 'payload'>>(lines: readonly T[]): T[] {
  const held = new Map<string, T[]>();
  const out: T[] = [];
  for (const line of lines) {
    const replyId = (line.payload as { replyId?: unknown } | null)?.replyId;
    if (line.dir === 'out' && typeof replyId === 'string' && TIMED_EVENTS.has(line.event)) {
      held.set(replyId, [...(held.get(replyId) ?? []), line]);
      continue;
    }
    if (line.dir === 'out' && typeof replyId === 'string' && TERMINAL_EVENTS.has(line.event)) {
      out.push(...(held.get(replyId) ?? []));
      held.delete(replyId);
    }
    out.push(line);
  }
  for (const rest of held.values()) out.push(...rest);
  return out;
}

/**
 * Ids and times normalised; binary payloads by length; speech settled (above); `server:status` kept only once — a reconnection emits it again at a
 * point that depends on how many events were missed (P-6, C-8), and nothing else does.
 */
export function normalise(lines: readonly Pick<RecordLine, 'dir' | 'event' | 'payload'>[]): string[] {
  const ids = new Map<string, string>();
  const walk = (value: unknown): unknown => {
    const bytes = bytesOf(value);
    if (bytes) return binaryDigest(bytes);
    if (typeof value === 'string') {
      if (ISO_TIME.test(value)) return '<time>';
      // Whole ids, and ids inside strings (an audioUrl is `/audio/<replyId>.mp3`).
      return value.replace(UUID_ANYWHERE, (id) => {
        if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
        return ids.get(id) ?? id;
      });
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, k === 'uptimeS' ? '<n>' : k === 'seq' ? '<seq>' : walk(v)]),
      );
    }
    return value;
  };
  let statusSeen = false;
  return settleSpeech(lines)
    .filter((line) => {
      if (line.dir === 'meta') return false;
      if (line.event !== ServerEvent.serverStatus) return true;
      const first = !statusSeen;
      statusSeen = true;
      return first;
    })
    .map((line) => `${line.dir} ${line.event} ${JSON.stringify(walk(line.payload))}`);
}

const deltasOf = (client: TestClient, replyId: string) =>
  client.events.filter((e) => e.event === ServerEvent.chatDelta && e.payload.replyId === replyId).length;

/**
 * Runs a scenario's steps through `client` (connected as the user of `token`) and returns the run
 * as record lines. Each send waits for its reply to end (or for its error ack).
 */
export async function runScenario(
  scenario: Scenario,
  client: TestClient,
  server: { url: string; token: string },
): Promise<RecordLine[]> {
  const timeline = client.timeline as RecordLine[];
  const call = apiClient(server.url, { token: server.token, language: 'es' });
  await client.waitFor((events) => events.some((e) => e.event === ServerEvent.serverStatus));
  let sessionId: string | undefined;
  for (const [i, step] of scenario.steps.entries()) {
    if (step.kind === 'personality') {
      if (!sessionId) throw new Error('a personality step needs a session: send first');
      const answer = await call(routes.chat.changePersonality, {
        body: { sessionId, personality: step.personality },
      });
      // The system message reaches the socket on its own channel: wait for it, then log the answer.
      await client.waitFor((events) =>
        events.some(
          (e) =>
            e.event === ServerEvent.chatMessage &&
            (e.payload.message as { _id: string })._id === answer.message._id,
        ),
      );
      timeline.push({ t: 0, dir: 'rest', event: 'POST /personality', payload: answer });
      continue;
    }
    const payload = {
      clientMessageId: `${scenario.name}-${i + 1}`,
      message: step.message,
      ...(step.personality ? { personality: step.personality } : {}),
      ...(sessionId ? { sessionId } : {}),
    };
    timeline.push({ t: 0, dir: 'in', event: ClientEvent.chatSend, payload });
    const ack = await client.request(ClientEvent.chatSend, payload);
    if (!ack.ok) continue;
    sessionId = ack.data.sessionId;
    const { replyId } = ack.data;
    if (step.cancelAfterDeltas !== undefined) {
      const k = step.cancelAfterDeltas;
      await client.waitFor(() => deltasOf(client, replyId) >= k);
      const cancel = { replyId };
      timeline.push({ t: 0, dir: 'in', event: ClientEvent.chatCancel, payload: cancel });
      await client.request(ClientEvent.chatCancel, cancel);
    }
    if (step.dropAfterDeltas !== undefined) {
      const k = step.dropAfterDeltas;
      await client.waitFor(() => deltasOf(client, replyId) >= k);
      // No clean disconnect: what a flaky network does. socket.io reconnects and recovers (C-8).
      client.socket.io.engine.close();
      // As generous as below: this may be the first reply, waiting for the speech workers to start.
      await client.waitForReplyEnd(replyId, 60_000);
      if (!client.socket.recovered) throw new Error('the connection was not recovered');
    }
    // Generous: on a busy machine the first reply also waits for the speech engine to compile.
    await client.waitForReplyEnd(replyId, 60_000);
  }
  return timeline.map((entry) => ({ ...entry, t: 0 }));
}
