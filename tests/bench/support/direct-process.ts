import { fork } from 'node:child_process';
import type { Language } from '@alma/protocol';
import type { DirectAnswer, DirectRequest } from './direct-child.ts';

type Request = DirectRequest extends infer R ? (R extends { type: 'close' } ? never : Omit<R, 'id'>) : never;

/**
 * Direct speech measured in a child process (direct-child.ts), off the load generator's event
 * loop and heap. `direct` and `synthesizer` answer each clause's CPU (µs), per pass over `texts`.
 */
export interface DirectProcess {
  direct(texts: readonly string[], runs: number): Promise<number[][]>;
  synthesizer(texts: readonly string[], runs: number, language: Language): Promise<number[][]>;
  close(): Promise<void>;
}

export async function startDirectProcess(voice: string): Promise<DirectProcess> {
  const child = fork(new URL('./direct-child.ts', import.meta.url), [], {
    env: { ...process.env, BENCH_DIRECT_VOICE: voice },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (answer: DirectAnswer) => void>();
  let next = 0;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`direct speech exited with ${code}`)));
    child.on('message', (message: DirectAnswer | { ready: true }) => {
      if ('ready' in message) resolve();
      else {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    });
  });
  const ask = (request: Request) =>
    new Promise<number[][]>((resolve) => {
      const id = next++;
      waiting.set(id, (answer) => resolve(answer.cpuUs));
      child.send({ ...request, id });
    });
  return {
    direct: (texts, runs) => ask({ type: 'direct', texts: [...texts], runs }),
    synthesizer: (texts, runs, language) => ask({ type: 'synthesizer', texts: [...texts], runs, language }),
    close: async () => {
      if (child.exitCode !== null) return;
      child.send({ type: 'close', id: next++ } satisfies DirectRequest);
      await exited;
    },
  };
}
