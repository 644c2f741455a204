import { createServer } from 'node:http';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { corkTransportBatches } from './cork-batches.ts';

type Served = Awaited<ReturnType<typeof serve>>;

/** A socket.io server and one websocket client; counts the writes the server's TCP socket makes. */
async function serve(cork: boolean) {
  const http = createServer();
  const io = new Server(http, { serveClient: false });
  if (cork) corkTransportBatches(io);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const connected = new Promise<{
    emitBurst: (n: number) => void;
    emitAcrossMicrotasks: (n: number) => Promise<void>;
    writes: () => number;
    disconnect: () => void;
  }>((resolve) =>
    io.on('connection', (socket) => {
      const tcp = (socket.conn.transport as unknown as { socket: { _socket: NetSocket } }).socket._socket;
      let writes = 0;
      const writev = (tcp as unknown as { _writev: (...args: unknown[]) => void })._writev.bind(tcp);
      const write = (tcp as unknown as { _write: (...args: unknown[]) => void })._write.bind(tcp);
      Object.assign(tcp, {
        _writev: (...args: unknown[]) => {
          writes++;
          writev(...args);
        },
        _write: (...args: unknown[]) => {
          writes++;
          write(...args);
        },
      });
      resolve({
        emitBurst: (n) => {
          for (let i = 0; i < n; i++) socket.emit('event', i);
        },
        // As a send's events leave: one now, the rest after awaits that take no I/O (microtasks).
        emitAcrossMicrotasks: async (n) => {
          for (let i = 0; i < n; i++) {
            socket.emit('event', i);
            await Promise.resolve();
          }
        },
        writes: () => writes,
        disconnect: () => void socket.disconnect(true),
      });
    }),
  );
  const client: ClientSocket = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'] });
  const server = await connected;
  await new Promise<void>((resolve) =>
    client.connected ? resolve() : client.once('connect', () => resolve()),
  );
  return {
    ...server,
    client,
    close: async () => {
      client.disconnect();
      await new Promise<void>((resolve) => void io.close(() => resolve()));
    },
  };
}

describe("a moment's packets leave in one write", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  // As engine.io writes them, the first packet leaves at once and the four after it wait for
  // that write, each then written on its own; batched, the five leave at the end of the tick.
  const ways = [
    ['emitted in one go', (s: Served) => s.emitBurst(5)],
    ['queued across microtasks', (s: Served) => s.emitAcrossMicrotasks(5)],
  ] as const;
  for (const cork of [true, false]) {
    for (const [way, emit] of ways) {
      it(`${cork ? 'batched' : 'as engine.io writes them'}: five packets ${way} arrive whole and in order`, async () => {
        const s = await serve(cork);
        close = s.close;
        const received: number[] = [];
        const all = new Promise<void>((resolve) =>
          s.client.on('event', (i: number) => {
            received.push(i);
            if (received.length === 5) resolve();
          }),
        );
        const before = s.writes();
        await emit(s);
        await all;
        expect(received).toEqual([0, 1, 2, 3, 4]);
        expect(s.writes() - before).toBe(cork ? 1 : 5);
      });
    }
  }

  it('a connection closed with packets waiting sends them before it closes', async () => {
    const s = await serve(true);
    close = s.close;
    const received: number[] = [];
    const closed = new Promise<void>((resolve) => s.client.once('disconnect', () => resolve()));
    s.client.on('event', (i: number) => received.push(i));
    s.emitBurst(3);
    s.disconnect();
    await closed;
    expect(received).toEqual([0, 1, 2]);
  });
});
