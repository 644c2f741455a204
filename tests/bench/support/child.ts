/**
 * The child side of `server-process.ts`: a server script calls `serveParent` once it listens.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

export type ParentMessage =
  | { type: 'cpu'; id: number }
  | { type: 'profile-start'; id: number }
  | { type: 'profile-stop'; id: number; file: string }
  | { type: 'close'; id: number };
export type ChildMessage =
  | { type: 'ready'; url: string; info: Record<string, unknown> }
  | { type: 'cpu'; id: number; us: number }
  | { type: 'done'; id: number };

export function serveParent(server: {
  url: string;
  info?: Record<string, unknown>;
  close: () => Promise<void>;
}): void {
  const send = (message: ChildMessage) => process.send?.(message);
  let session: Session | undefined;
  /**
   * CPU the profiler's start and stop took (stopping serialises the whole profile: 150-180 ms
   * for a 1.5 s run), left out of the CPU reported: a profiled run measures what an unprofiled
   * one does, bar the sampling itself.
   */
  let profilerUs = 0;
  const cpuUs = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  process.on('message', (message: ParentMessage) => {
    switch (message.type) {
      case 'cpu':
        send({ type: 'cpu', id: message.id, us: cpuUs() - profilerUs });
        return;
      // The main thread's CPU profile over the measured rounds only (start-up left out).
      case 'profile-start': {
        const started = cpuUs();
        session = new Session();
        session.connect();
        void session
          .post('Profiler.enable')
          .then(() => session?.post('Profiler.start'))
          .then(() => {
            profilerUs += cpuUs() - started;
            send({ type: 'done', id: message.id });
          });
        return;
      }
      case 'profile-stop':
        void (async () => {
          const started = cpuUs();
          const result = await session?.post('Profiler.stop');
          if (result) writeFileSync(message.file, JSON.stringify(result.profile));
          session?.disconnect();
          profilerUs += cpuUs() - started;
          send({ type: 'done', id: message.id });
        })();
        return;
      case 'close':
        // process.exit, not a natural end: timers the server leaves would keep it alive.
        void server.close().finally(() => process.exit(0));
    }
  });
  // The bench gone (killed, or its output piped into `head`): nobody will ask for `close`.
  process.once('disconnect', () => void server.close().finally(() => process.exit(0)));
  send({ type: 'ready', url: server.url, info: server.info ?? {} });
}
