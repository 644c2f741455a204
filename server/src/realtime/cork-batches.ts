import type { Server } from 'socket.io';

/** What this reads of engine.io's websocket transport (engine.io 6: `transports/websocket.js`). */
interface WebSocketTransport {
  name: string;
  send(packets: unknown[]): void;
  /** The `ws` WebSocket, and its TCP socket. */
  socket?: { _socket?: { cork?: () => void; uncork?: () => void } };
}

interface EngineConnection {
  transport: WebSocketTransport;
  /** Sends the buffered packets as one batch, if the transport can take them now. */
  flush(): void;
  on(event: 'upgrade', listener: (transport: WebSocketTransport) => void): void;
}

/**
 * Writes the packets of one moment on a connection in one `writev` (issue 14).
 *
 * Two steps. Each connection's buffer is flushed once a tick (flushOncePerTick), so the packets
 * of one moment — a message's announcements, its ack, the reply's `chat:typing` and first
 * `chat:delta`, a reply's end — leave as one batch (engine.io's `flush`). The websocket transport
 * hands `ws` one packet at a time and `ws` writes each frame with a syscall of its own; corking
 * the TCP socket across the batch makes it one write; a batch of one is left as it was.
 *
 * Only a websocket transport whose socket can be corked is changed (a polling transport batches
 * into one HTTP response already); the transport a connection upgrades to is corked too.
 */
export function corkTransportBatches(io: Pick<Server, 'engine'>): void {
  io.engine.on('connection', (conn: EngineConnection) => {
    flushOncePerTick(conn);
    corkBatches(conn.transport);
    conn.on('upgrade', corkBatches);
  });
}

/**
 * engine.io flushes a connection's buffer at every packet it is given, so the first packet of a
 * moment leaves alone and the rest wait for that write, then leave as a second batch: a send's
 * `session:updated` in one write, its `usage:updated`, ack, `chat:typing` and first `chat:delta`
 * in another. Flushing once at the end of the tick (`process.nextTick`, after the microtasks
 * under way) lets every packet of the moment join one batch, one `writev`, and wakes the client
 * once: at 200 sends at once, 200 writes instead of 400. Packets wait no longer than the code that
 * queued them runs; order, send callbacks and closing (which waits for the flush's `drain`) are
 * engine.io's own.
 */
function flushOncePerTick(conn: EngineConnection): void {
  const flush = conn.flush.bind(conn);
  let scheduled = false;
  conn.flush = () => {
    if (scheduled) return;
    scheduled = true;
    process.nextTick(() => {
      scheduled = false;
      flush();
    });
  };
}

function corkBatches(transport: WebSocketTransport): void {
  const tcp = transport.socket?._socket;
  if (transport.name !== 'websocket' || typeof tcp?.cork !== 'function' || typeof tcp.uncork !== 'function')
    return;
  const send = transport.send.bind(transport);
  transport.send = (packets) => {
    if (packets.length < 2) return send(packets);
    tcp.cork?.();
    try {
      send(packets);
    } finally {
      tcp.uncork?.();
    }
  };
}
