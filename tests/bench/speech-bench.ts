/**
 * Speech benchmark (part of `npm run bench`; alone: `tsx tests/bench/speech-bench.ts`).
 *
 * Time to first audio on a four-sentence reply, two ways, in one run and one process:
 *  - streamed: the pipeline as it is (SPEC.md S-1) — send → the first `speech:chunk`;
 *  - whole: the same reply generated without speech, then synthesised in one piece after the
 *    generation ended — send → `chat:reply`, plus the time to synthesise the whole text.
 * Both use the builtin synthesiser (espeak-ng wasm) and the same scripted reply engine, paced like
 * the builtin one (REPLY_TOKEN_DELAY_MS per word, default 35). The ratio whole/streamed is printed;
 * no thresholds. Environment: BENCH_RUNS (default 5), BENCH_TOKEN_DELAY_MS (default 35).
 */
import { ClientEvent, ServerEvent, type Language } from '@alma/protocol';
import { createSpeechSynthesizer, loadConfig } from '@alma/server';
import { mkdirSync, writeFileSync } from 'node:fs';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient } from '../fixtures/socket.ts';
import { median } from './support/report.ts';
import { scriptedEngine, SPOKEN_REPLY } from './support/scripted-engine.ts';

const RUNS = Number(process.env.BENCH_RUNS) || 5;
const DELAY_MS = Number(process.env.BENCH_TOKEN_DELAY_MS ?? 35);
const LANGUAGE: Language = 'es';
const REPLY = SPOKEN_REPLY;

const scripted = scriptedEngine(REPLY, DELAY_MS);

/** Sends one message per run; `until` names the event whose arrival ends the measure. */
async function measure(server: TestServer, until: 'speech:chunk' | 'chat:reply'): Promise<number[]> {
  const user = await registerUser(server.url);
  const client = connectClient(server.url, user.token);
  await client.connected();
  const times: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      let at = 0;
      const mark = (payload: { replyId?: string }) => {
        if (!at && payload.replyId) at = performance.now();
      };
      client.socket.on(until === 'speech:chunk' ? ServerEvent.speechChunk : ServerEvent.chatReply, mark);
      const ack = await client.request(ClientEvent.chatSend, {
        clientMessageId: `bench-${until === ServerEvent.speechChunk ? 'speech' : 'reply'}-${i}`,
        message: 'Hoy ha sido un día largo pero bonito',
      });
      if (!ack.ok) throw new Error(JSON.stringify(ack.error));
      await client.waitForReplyEnd(ack.data.replyId, 60_000);
      client.socket.off(until === 'speech:chunk' ? ServerEvent.speechChunk : ServerEvent.chatReply, mark);
      if (!at) throw new Error(`no ${until} arrived`);
      times.push(at - started);
    }
  } finally {
    client.close();
  }
  return times;
}

const config = loadConfig({ DATA_DIR: '/tmp/alma-speech-bench-config', SPEECH_ENGINE: 'builtin' });
const synthesizer = createSpeechSynthesizer(config);
if (!synthesizer) throw new Error('the builtin synthesiser is not available');

const streamedServer = await startTestServer({}, undefined, { engine: scripted, speech: synthesizer });
const wholeServer = await startTestServer({}, undefined, { engine: scripted, speech: null });
try {
  // One warm-up synthesis: the wasm module compiles on first use, for both ways alike.
  await synthesizer.synthesize({
    text: 'Hola.',
    language: LANGUAGE,
    voice: { voice: 'es+f3' },
    signal: new AbortController().signal,
  });
  const streamed = await measure(streamedServer, 'speech:chunk');
  const generated = await measure(wholeServer, 'chat:reply');
  const synthesis: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await synthesizer.synthesize({
      text: REPLY,
      language: LANGUAGE,
      voice: { voice: 'es+f3' },
      signal: new AbortController().signal,
    });
    synthesis.push(performance.now() - started);
  }
  const whole = generated.map((t, i) => t + (synthesis[i] ?? 0));
  const result = {
    reply: { sentences: 4, characters: REPLY.length, tokenDelayMs: DELAY_MS },
    runs: RUNS,
    synthesizer: synthesizer.name,
    streamedFirstAudioMs: Math.round(median(streamed)),
    wholeGenerationMs: Math.round(median(generated)),
    wholeSynthesisMs: Math.round(median(synthesis)),
    wholeFirstAudioMs: Math.round(median(whole)),
    ratio: Number((median(whole) / median(streamed)).toFixed(2)),
  };
  console.info(
    `speech: time to first audio on a four-sentence reply (median of ${RUNS}, ${synthesizer.name})\n` +
      `  streamed (send → first speech:chunk)         ${result.streamedFirstAudioMs} ms\n` +
      `  whole (generation ${result.wholeGenerationMs} ms + synthesis ${result.wholeSynthesisMs} ms) ${result.wholeFirstAudioMs} ms\n` +
      `  ratio whole / streamed                       ${result.ratio}×`,
  );
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL('speech-latest.json', dir), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await streamedServer.dispose();
  await wholeServer.dispose();
}
