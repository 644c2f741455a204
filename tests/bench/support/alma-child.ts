/**
 * Alma in a child process for the benchmarks (`startServerProcess(ALMA_CHILD, …)`): the real server
 * (embedded database in a temp folder, builtin engines) with the configuration in
 * `BENCH_ALMA_ENV` (JSON). `BENCH_SCRIPTED_REPLY` swaps the reply engine for one that writes that
 * text word by word, `REPLY_TOKEN_DELAY_MS` apart, so every reply is the same and comparable with
 * a baseline's. `BENCH_SPEECH_INLINE=1` speaks with the builtin synthesiser on the event loop, as
 * before the speech workers (SPEC.md S-9): the "before" of speech-load-bench.ts.
 */
import { createBuiltinSynthesizer } from '@alma/server';
import { startTestServer } from '../../fixtures/server.ts';
import { serveParent } from './child.ts';
import { scriptedEngine } from './scripted-engine.ts';

const env = JSON.parse(process.env.BENCH_ALMA_ENV ?? '{}') as Record<string, string>;
const scripted = process.env.BENCH_SCRIPTED_REPLY;
const server = await startTestServer(env, undefined, {
  ...(scripted ? { engine: scriptedEngine(scripted, Number(env.REPLY_TOKEN_DELAY_MS ?? 0)) } : {}),
  ...(process.env.BENCH_SPEECH_INLINE === '1' ? { speech: createBuiltinSynthesizer() } : {}),
});
serveParent({ url: server.url, info: { dataDir: server.dataDir }, close: server.dispose });
