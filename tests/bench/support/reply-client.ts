import { ClientEvent, PROTOCOL_VERSION, REPLY_EVENTS, ServerEvent } from '@alma/protocol';
import { io, type Socket } from 'socket.io-client';
import { WireSocket, type BenchSocket } from './wire-client.ts';

export type { BenchSocket } from './wire-client.ts';

/** What one client saw of one reply, in `performance.now()` milliseconds. */
export interface ReplyTrace {
  sentAt: number;
  ackAt?: number;
  deltaAt: number[];
  chunkAt: number[];
  /** Each `speech:chunk`'s text, in arrival order: the clauses that were voiced. */
  chunkTexts: string[];
  endAt?: number;
  /** `reply`, an error code, `ack_failed`, or `timeout`. */
  outcome?: string;
  /** A `seq` missing between two received (SPEC.md C-4). */
  gaps: number;
  /** A `seq` not above the one before. */
  reorders: number;
  disconnected: boolean;
}

const REPLY_EVENT_NAMES = new Set<string>(REPLY_EVENTS);

/**
 * The clients the load comes from: `socket.io-client`, or (`wire`) the light client of
 * wire-client.ts, which the speech bench uses by default (BENCH_CLIENT) so that its 200 clients
 * take less of the cores they share with the server.
 */
export type ClientKind = 'socket.io' | 'wire';

export function connect(url: string, token: string, kind?: 'socket.io'): Promise<Socket>;
export function connect(url: string, token: string, kind: ClientKind): Promise<BenchSocket>;
export function connect(url: string, token: string, kind: ClientKind = 'socket.io'): Promise<BenchSocket> {
  if (kind === 'wire') return WireSocket.connect(url, { token, protocolVersion: PROTOCOL_VERSION });
  const socket = io(url, {
    auth: { token, protocolVersion: PROTOCOL_VERSION },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/**
 * Sends one message — into a new session, or into `sessionId` — and traces its reply until
 * `chat:reply`/`chat:error` or `timeoutMs`. The socket carries this reply only (its user's one
 * reply at a time), so every reply event it hears is this one's, even one decoded in the same frame
 * batch as the ack.
 */
export function traceReply(
  socket: BenchSocket,
  message: string,
  label: string,
  timeoutMs: number,
  sessionId?: string,
): Promise<ReplyTrace> {
  const trace: ReplyTrace = {
    sentAt: performance.now(),
    deltaAt: [],
    chunkAt: [],
    chunkTexts: [],
    gaps: 0,
    reorders: 0,
    disconnected: false,
  };
  let lastSeq = -1;
  return new Promise((resolve) => {
    const finish = (outcome: string) => {
      if (trace.outcome) return;
      trace.outcome = outcome;
      trace.endAt = performance.now();
      clearTimeout(timer);
      socket.offAny(onEvent);
      resolve(trace);
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    const onEvent = (event: string, data: unknown) => {
      if (!REPLY_EVENT_NAMES.has(event)) return;
      const payload = data as { seq?: number; code?: string; text?: string };
      const at = performance.now();
      const seq = payload.seq ?? -1;
      if (seq <= lastSeq) trace.reorders++;
      else if (seq > lastSeq + 1) trace.gaps += seq - lastSeq - 1;
      lastSeq = Math.max(lastSeq, seq);
      if (event === ServerEvent.chatDelta) trace.deltaAt.push(at);
      else if (event === ServerEvent.speechChunk) {
        trace.chunkAt.push(at);
        trace.chunkTexts.push(payload.text ?? '');
      } else if (event === ServerEvent.chatReply) finish('reply');
      else if (event === ServerEvent.chatError) finish(payload.code ?? 'error');
    };
    socket.onAny(onEvent);
    socket.once('disconnect', () => {
      if (trace.outcome) return; // the bench closing the socket after the reply
      trace.disconnected = true;
      finish('disconnected');
    });
    socket.emit(
      ClientEvent.chatSend,
      { clientMessageId: label, message, sessionId },
      (ack: { ok: boolean }) => {
        trace.ackAt = performance.now();
        if (!ack.ok) finish('ack_failed');
      },
    );
  });
}
