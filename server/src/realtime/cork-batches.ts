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
  on(event: 'upgrade', listener: (transport: WebSocketTransport) => void): void;
}

/**
 * Writes each batch engine.io gives a websocket in one `writev` (issue 14).
 *
 * A socket's packets that wait while its previous write is under way leave together, as one
 * batch (engine.io's `flush`), but the websocket transport hands `ws` one packet at a time and
 * `ws` writes each frame with a syscall of its own. The batches are the packets of one moment:
 * a message's announcements, its ack, the reply's `chat:typing` and first `chat:delta` (four
 * packets a send, when many send at once), a reply's end. Corking the TCP socket across the
 * batch makes it one write; a batch of one is left as it was.
 *
 * Only a websocket transport whose socket can be corked is changed (a polling transport batches
 * into one HTTP response already); the transport a connection upgrades to is corked too.
 */
export function corkTransportBatches(io: Pick<Server, 'engine'>): void {
  io.engine.on('connection', (conn: EngineConnection) => {
    corkBatches(conn.transport);
    conn.on('upgrade', corkBatches);
  });
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
