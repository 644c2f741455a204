import { ClientEvent, ServerEvent, type ClientEventName } from '@alma/protocol';
import { readFileSync } from 'node:fs';
import type { TestClient } from '../fixtures/socket.ts';

/**
 * Replays recorded socket sessions (SOCKET_RECORD_DIR files: one JSON line per event, see
 * server/src/realtime/recorder.ts) against a live server and normalises both sides so they can
 * be compared: ids become <id1>, <id2>… in order of first appearance, times become <time>.
 */
export interface RecordLine {
  t: number;
  dir: 'in' | 'out' | 'ack';
  event: string;
  payload: unknown;
}

export function readRecording(file: string): RecordLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as RecordLine);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function normalise(lines: readonly Pick<RecordLine, 'dir' | 'event' | 'payload'>[]): string[] {
  const ids = new Map<string, string>();
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (UUID.test(value)) {
        if (!ids.has(value)) ids.set(value, `<id${ids.size + 1}>`);
        return ids.get(value);
      }
      return ISO_TIME.test(value) ? '<time>' : value;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, k === 'uptimeS' ? '<n>' : walk(v)]),
      );
    }
    return value;
  };
  return lines.map((line) => `${line.dir} ${line.event} ${JSON.stringify(walk(line.payload))}`);
}

/** Maps ids of the recording to the live run's, by walking a recorded and a live value in parallel. */
function learnIds(recorded: unknown, live: unknown, map: Map<string, string>): void {
  if (typeof recorded === 'string' && typeof live === 'string' && UUID.test(recorded) && UUID.test(live)) {
    map.set(recorded, live);
  } else if (Array.isArray(recorded) && Array.isArray(live)) {
    recorded.forEach((r, i) => learnIds(r, live[i], map));
  } else if (recorded && live && typeof recorded === 'object' && typeof live === 'object') {
    for (const [k, v] of Object.entries(recorded)) learnIds(v, (live as Record<string, unknown>)[k], map);
  }
}

function substitute(value: unknown, map: Map<string, string>): unknown {
  if (typeof value === 'string') return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => substitute(v, map));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, map)]));
  }
  return value;
}

/**
 * Sends the recording's client events in order through `client`, waiting for each ack and, for
 * a send, for its reply to end. Returns the live run as record lines (server events and acks).
 */
export async function replay(recording: readonly RecordLine[], client: TestClient): Promise<RecordLine[]> {
  const ids = new Map<string, string>();
  const recordedAcks = recording.filter((l) => l.dir === 'ack');
  let ackIndex = 0;
  await client.waitFor((events) => events.some((e) => e.event === ServerEvent.serverStatus));
  for (const line of recording) {
    if (line.dir !== 'in') continue;
    const ack = await client.request(line.event as ClientEventName, substitute(line.payload, ids) as never);
    const recordedAck = recordedAcks[ackIndex++];
    if (recordedAck) learnIds(recordedAck.payload, ack, ids);
    if (line.event === ClientEvent.chatSend && ack.ok) {
      await client.waitForReplyEnd((ack.data as { replyId: string }).replyId);
    }
  }
  return client.timeline.map((entry) => ({ t: 0, ...entry }));
}
