import type { Language } from '@alma/protocol';
import type { DirectAnswer, DirectRequest } from './direct-child.ts';
import { forkChild } from './forked.ts';

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
  const forked = await forkChild<Request, DirectAnswer, { ready: true }>(
    new URL('./direct-child.ts', import.meta.url),
    {
      label: 'direct speech',
      isReady: (message): message is { ready: true } => 'ready' in message,
      env: { BENCH_DIRECT_VOICE: voice },
    },
  );
  const ask = async (request: Request) => (await forked.ask(request)).cpuUs;
  return {
    direct: (texts, runs) => ask({ type: 'direct', texts: [...texts], runs }),
    synthesizer: (texts, runs, language) => ask({ type: 'synthesizer', texts: [...texts], runs, language }),
    close: forked.close,
  };
}
