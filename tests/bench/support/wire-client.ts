import WebSocket from 'ws';

/**
 * A socket.io client for the load generator, as light as the wire allows: engine.io 4 and
 * socket.io 5 over a bare `ws` WebSocket (the protocol the official client speaks over its
 * websocket transport), and no more per packet than reading it.
 *
 * Why: the benches' 200 clients run in one process on the server's own two cores. With
 * socket.io-client they took ~4.4 ms of CPU a reply beside Alma at 200 sessions — ~0.9 s a
 * round, most of it in the round's first seconds, when the speech workers voice every reply's
 * first clause — and what the clients take no speech worker has. The measurement should weigh on
 * what it measures as little as it can; the figures it records are the same (the arrival of each
 * event, as `performance.now()` when its frame is read, its `seq`, its payload).
 *
 * Supported: the default namespace, `auth` in the handshake, events in and out (binary
 * attachments in: placeholders replaced by Buffers), acks of our emits, pings, the server's
 * disconnect. Not: reconnection, recovery offsets sent back, other namespaces, binary out.
 */

type Listener = (event: string, payload: unknown) => void;

/** The part of a socket.io-client `Socket` the benches use, which a WireSocket also has. */
export interface BenchSocket {
  onAny(listener: Listener): unknown;
  offAny(listener: Listener): unknown;
  on(event: string, listener: (payload: never) => void): unknown;
  once(event: 'disconnect', listener: () => void): unknown;
  emit(event: string, payload: unknown, ack?: (answer: never) => void): unknown;
  disconnect(): unknown;
}

/** engine.io packet types (the first character of a text frame). */
const EIO = { open: '0', close: '1', ping: '2', pong: '3', message: '4' } as const;
/** socket.io packet types (the second character of an engine.io message). */
const SIO = {
  connect: '0',
  disconnect: '1',
  event: '2',
  ack: '3',
  connectError: '4',
  binaryEvent: '5',
} as const;

interface Packet {
  type: string;
  ackId: number | undefined;
  attachments: number;
  data: unknown;
}

/** A socket.io packet after the engine.io `4`: type, attachments (`5<n>-`), ack id, JSON. */
export function parsePacket(text: string): Packet {
  const type = text.charAt(1);
  let at = 2;
  let attachments = 0;
  if (type === SIO.binaryEvent) {
    const dash = text.indexOf('-', at);
    attachments = Number(text.slice(at, dash));
    at = dash + 1;
  }
  if (text.charAt(at) === '/')
    throw new Error(`wire client: namespaces are not supported: ${text.slice(0, 40)}`);
  let digits = at;
  while (digits < text.length && text.charCodeAt(digits) >= 48 && text.charCodeAt(digits) <= 57) digits++;
  const ackId = digits > at ? Number(text.slice(at, digits)) : undefined;
  const json = text.slice(digits);
  return { type, ackId, attachments, data: json.length > 0 ? JSON.parse(json) : undefined };
}

/** Puts each binary attachment where its placeholder is (`{ _placeholder: true, num }`). */
function withAttachments(value: unknown, buffers: readonly Buffer[]): unknown {
  if (Array.isArray(value)) return value.map((item) => withAttachments(item, buffers));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (record._placeholder === true && typeof record.num === 'number') return buffers[record.num];
  for (const key of Object.keys(record)) record[key] = withAttachments(record[key], buffers);
  return record;
}

export class WireSocket implements BenchSocket {
  private readonly any = new Set<Listener>();
  private readonly byEvent = new Map<string, Set<(payload: never) => void>>();
  private readonly onDisconnect = new Set<() => void>();
  private readonly acks = new Map<number, (answer: never) => void>();
  private nextAck = 0;
  /** A binary event waiting for its attachments. */
  private pending: { packet: Packet; buffers: Buffer[] } | null = null;
  private gone = false;

  private constructor(private readonly ws: WebSocket) {}

  /** Connects to `/socket.io/` at `url` with `auth`; rejects with the server's refusal. */
  static connect(url: string, auth: object): Promise<WireSocket> {
    const address = new URL('/socket.io/?EIO=4&transport=websocket', url);
    address.protocol = address.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(address, { perMessageDeflate: false });
    const socket = new WireSocket(ws);
    return new Promise((resolve, reject) => {
      let connected = false;
      ws.on('error', (error) => (connected ? socket.lost() : reject(error)));
      ws.on('close', () =>
        connected ? socket.lost() : reject(new Error('wire client: closed before connecting')),
      );
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) return socket.attachment(data);
        const text = data.toString();
        const kind = text.charAt(0);
        if (kind === EIO.ping) return ws.send(EIO.pong);
        if (kind === EIO.open) return ws.send(`${EIO.message}${SIO.connect}${JSON.stringify(auth)}`);
        if (kind === EIO.close) return ws.close();
        if (kind !== EIO.message) return;
        const packet = parsePacket(text);
        if (packet.type === SIO.connect) {
          connected = true;
          resolve(socket);
        } else if (packet.type === SIO.connectError) {
          const refusal = packet.data as { message?: string; data?: unknown };
          ws.close();
          reject(Object.assign(new Error(refusal.message ?? 'connect_error'), { data: refusal.data }));
        } else socket.packet(packet);
      });
    });
  }

  onAny(listener: Listener): this {
    this.any.add(listener);
    return this;
  }

  offAny(listener: Listener): this {
    this.any.delete(listener);
    return this;
  }

  on(event: string, listener: (payload: never) => void): this {
    const listeners = this.byEvent.get(event) ?? new Set();
    listeners.add(listener);
    this.byEvent.set(event, listeners);
    return this;
  }

  once(_event: 'disconnect', listener: () => void): this {
    this.onDisconnect.add(listener);
    return this;
  }

  emit(event: string, payload: unknown, ack?: (answer: never) => void): this {
    let id = '';
    if (ack) {
      const ackId = this.nextAck++;
      this.acks.set(ackId, ack);
      id = String(ackId);
    }
    this.ws.send(`${EIO.message}${SIO.event}${id}${JSON.stringify([event, payload])}`);
    return this;
  }

  disconnect(): this {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(`${EIO.message}${SIO.disconnect}`);
    this.gone = true;
    this.ws.close();
    return this;
  }

  private packet(packet: Packet): void {
    if (packet.type === SIO.event) this.event(packet.data);
    else if (packet.type === SIO.binaryEvent) this.pending = { packet, buffers: [] };
    else if (packet.type === SIO.ack && packet.ackId !== undefined) {
      const ack = this.acks.get(packet.ackId);
      this.acks.delete(packet.ackId);
      ack?.(...((packet.data ?? []) as [never]));
    } else if (packet.type === SIO.disconnect) this.ws.close();
  }

  private attachment(data: Buffer): void {
    const pending = this.pending;
    if (!pending) return;
    pending.buffers.push(data);
    if (pending.buffers.length < pending.packet.attachments) return;
    this.pending = null;
    this.event(withAttachments(pending.packet.data, pending.buffers));
  }

  /** `[name, payload, …]`: the payload is the first argument (a recovery offset may follow, F-1). */
  private event(data: unknown): void {
    const [event, payload] = data as [string, unknown];
    for (const listener of this.any) listener(event, payload);
    for (const listener of this.byEvent.get(event) ?? []) listener(payload as never);
  }

  private lost(): void {
    if (this.gone) return;
    this.gone = true;
    for (const listener of this.onDisconnect) listener();
  }
}
