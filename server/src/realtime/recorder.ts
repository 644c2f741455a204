import type { FastifyBaseLogger } from 'fastify';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'socket.io';

/**
 * Records each socket's traffic to `<dir>/<time>-<socket id>.jsonl` (SOCKET_RECORD_DIR): one line
 * per event, `{ t, dir: 'in' | 'out' | 'ack', event, payload }`, t in ms since the connection.
 * Binary payloads are written as `{ $binary: <base64> }`. tests/replays replays such files.
 */
export interface RecordLine {
  t: number;
  dir: 'in' | 'out' | 'ack';
  event: string;
  payload: unknown;
}

export function encodeBinary(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $binary: Buffer.from(value).toString('base64') };
  if (value instanceof ArrayBuffer) return { $binary: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(encodeBinary);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeBinary(v)]));
  }
  return value;
}

export function createSocketRecorder(dir: string, log: FastifyBaseLogger) {
  mkdirSync(dir, { recursive: true });
  return {
    attach(socket: Socket) {
      const started = Date.now();
      const file = join(dir, `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${socket.id}.jsonl`);
      const out = createWriteStream(file, { flags: 'a' });
      out.on('error', (err) => log.warn({ err, file }, 'socket recording failed'));
      const write = (dirn: RecordLine['dir'], event: string, payload: unknown) => {
        const line: RecordLine = {
          t: Date.now() - started,
          dir: dirn,
          event,
          payload: encodeBinary(payload),
        };
        out.write(`${JSON.stringify(line)}\n`);
      };
      socket.onAny((event: string, ...args: unknown[]) =>
        write(
          'in',
          event,
          args.find((a) => typeof a !== 'function'),
        ),
      );
      socket.onAnyOutgoing((event: string, ...args: unknown[]) => write('out', event, args[0]));
      socket.on('disconnect', () => out.end());
      return { ack: (event: string, result: unknown) => write('ack', event, result) };
    },
  };
}
