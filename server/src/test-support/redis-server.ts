import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, createConnection, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on loopback (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface TestRedis {
  /** `redis://127.0.0.1:<port>`: what REDIS_URL is set to. */
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and starts it again on the same port, empty (nothing is saved). */
  restart: () => Promise<void>;
  /** Stops the server (SIGTERM), keeping its port and folder for `up`: Redis gone for a while. */
  down: () => Promise<void>;
  /** Starts it again after `down`, on the same port, empty; answers once it answers PING. */
  up: () => Promise<void>;
  /** Stops the server and removes its folder. */
  stop: () => Promise<void>;
}

/** Answers once a PING gets PONG on the port. */
async function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => resolve(false));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/**
 * A real Debian `redis-server` for the scale-out tests (scripts/system-packages.mjs lists it), on
 * a free port with its own temporary folder, no persistence: `--save '' --appendonly no`.
 */
export async function startTestRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'alma-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const output: string[] = [];

  const launch = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    started.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const spawnError = new Promise<never>((_, reject) =>
      started.once('error', (error) => reject(new Error(`redis-server did not start: ${error.message}`))),
    );
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await Promise.race([pong(port), spawnError]))) {
      if (started.exitCode !== null || Date.now() > deadline) {
        throw new Error(`redis-server on port ${port} is not answering:\n${output.join('')}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  const halt = async () => {
    if (!child) return;
    const running = child;
    child = undefined;
    running.kill('SIGTERM');
    await exited(running);
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    restart: async () => {
      await halt();
      await launch();
    },
    down: halt,
    up: launch,
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
