import { fork, type ChildProcess } from 'node:child_process';

/**
 * A TypeScript child process the bench talks to over IPC (server-process.ts, direct-process.ts):
 * forked with tsx, ready once it sends the message `isReady` picks out; `ask` sends a request with
 * a fresh `id` and resolves with the answer carrying that id.
 */
export interface Forked<Request, Answer, Ready> {
  child: ChildProcess;
  ready: Ready;
  ask(request: Request): Promise<Answer>;
  /** Asks the child to close (`{ type: 'close' }`) and resolves once it has exited. */
  close(): Promise<void>;
}

export async function forkChild<Request extends object, Answer extends { id: number }, Ready>(
  script: URL,
  options: {
    /** Names the child in the error should it exit before it is ready. */
    label: string;
    isReady: (message: Answer | Ready) => message is Ready;
    env?: Record<string, string | undefined>;
    /** Node's flags before and after tsx's loader. */
    nodeFlags?: readonly string[];
    afterLoader?: readonly string[];
  },
): Promise<Forked<Request, Answer, Ready>> {
  const child = fork(script, [], {
    env: { ...process.env, ...options.env },
    // tsx runs the TypeScript child as it runs the bench.
    execArgv: [...(options.nodeFlags ?? []), '--import', 'tsx', ...(options.afterLoader ?? [])],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, (answer: Answer) => void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${options.label} exited with ${code}`)));
    child.on('message', (message: Answer | Ready) => {
      if (options.isReady(message)) resolve(message);
      else {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    });
  });
  return {
    child,
    ready,
    ask: (request) =>
      new Promise<Answer>((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        child.send({ ...request, id });
      }),
    close: async () => {
      if (child.exitCode !== null) return;
      child.send({ type: 'close', id: next++ });
      await exited;
    },
  };
}
