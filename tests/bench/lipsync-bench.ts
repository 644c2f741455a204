/**
 * Lip-sync benchmark (part of `npm run bench`; alone: `tsx tests/bench/lipsync-bench.ts`).
 *
 * A real server (builtin espeak engine, a scripted reply engine) speaks one reply in Spanish and
 * one in English; the `speech:chunk`s the client receives are decoded with ffmpeg — which, like
 * Chromium's `decodeAudioData`, honours the chunks' LAME Info frame (SPEC.md S-8) — and laid end to
 * end as the client's queue plays them. In that sound three kinds of event are found and matched
 * to the mouth track (each chunk's visemes from the chunk's start):
 *  - onsets: sound after ≥ 60 ms of silence ↔ the first open-mouth key after a `sil` key;
 *  - offsets: sound falling into ≥ 60 ms of silence ↔ the `sil` key;
 *  - lip closures: a full `PP` key ↔ the fall of the high-frequency energy into the nearest dip
 *    (lips shut: p, b, m).
 * offset = mouth − sound (negative: the mouth leads). Printed per language: the share within
 * −125/+45 ms (ITU-R BT.1359's detectability window), the median offset and median |offset|.
 *
 * Baseline in the same run: the same chunks without their Info frame, played as before S-8 (each
 * decoded buffer whole — codec delay and padding included — one after another, the mouth from
 * each buffer's start). No thresholds; figures only.
 */
import { ClientEvent, ServerEvent, type Language } from '@alma/protocol';
import {
  createSpeechSynthesizer,
  loadConfig,
  mp3Frames,
  type ReplyChunk,
  type ReplyEngine,
} from '@alma/server';
import { mkdirSync, writeFileSync } from 'node:fs';
import { decodeWithFfmpeg } from '../../server/src/test-support/ffmpeg-audio.ts';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer } from '../fixtures/server.ts';
import { connectClient } from '../fixtures/socket.ts';

const RATE = 22_050;
const HOP_MS = 2;
const WINDOW_MS = 8;
const SILENCE_MIN_MS = 60;
const WINDOW = { lead: -125, lag: 45 };

const REPLIES: Record<Language, { message: string; reply: string }> = {
  es: {
    message: '¿Qué tal el fin de semana?',
    reply:
      'Pues muy bien, gracias por preguntar. El sábado paseamos por el parque y comimos bajo los árboles. ' +
      'Por la tarde vimos una película preciosa, un poco triste, pero bonita. ' +
      '¿Y tú, qué hiciste? Me encantaría saber si pudiste descansar. Mañana empieza otra semana, paso a paso.',
  },
  en: {
    message: 'How was your weekend?',
    reply:
      'Pretty good, thanks for asking. On Saturday we walked in the park and had lunch beneath the maple trees. ' +
      'In the evening we watched a beautiful movie, a bit sad, but lovely. ' +
      'What about you, what did you do? I would love to hear if you managed to rest. Maybe the week brings better plans.',
  },
};

interface Chunk {
  audio: Uint8Array;
  durationMs: number;
  visemes: { t: number; v: string; w: number }[];
}

interface Event {
  kind: 'onset' | 'offset' | 'closure';
  ms: number;
}

function scripted(text: string): ReplyEngine {
  return {
    name: 'scripted',
    async *stream(): AsyncIterable<ReplyChunk> {
      for (const piece of text.match(/\S+\s*/g) ?? []) {
        await new Promise((r) => setTimeout(r, 5));
        yield { type: 'text', text: piece };
      }
    },
  };
}

/** Energy envelope in dB, one value per HOP_MS; `emphasis` uses the first difference (high frequencies). */
function envelope(pcm: Float32Array, emphasis: boolean): Float32Array {
  const hop = Math.round((HOP_MS * RATE) / 1000);
  const win = Math.round((WINDOW_MS * RATE) / 1000);
  const out = new Float32Array(Math.floor(pcm.length / hop));
  for (let f = 0; f < out.length; f++) {
    let sum = 0;
    const start = f * hop - win / 2;
    for (let i = Math.max(1, start); i < Math.min(pcm.length, start + win); i++) {
      const x = emphasis ? (pcm[i] ?? 0) - 0.95 * (pcm[i - 1] ?? 0) : (pcm[i] ?? 0);
      sum += x * x;
    }
    out[f] = 10 * Math.log10(sum / win + 1e-12);
  }
  return out;
}

/** Sound events in the played PCM: onsets and offsets around silences, closures at the PP keys' dips. */
function soundEvents(pcm: Float32Array): { onsets: number[]; offsets: number[]; hf: Float32Array } {
  const env = envelope(pcm, false);
  const peak = env.reduce((m, v) => Math.max(m, v), -Infinity);
  const silent = env.map((v) => (v < peak - 40 ? 1 : 0));
  const minRun = SILENCE_MIN_MS / HOP_MS;
  const onsets: number[] = [];
  const offsets: number[] = [];
  let run = 0;
  for (let f = 0; f < silent.length; f++) {
    if (silent[f]) {
      run += 1;
      continue;
    }
    if (run >= minRun || run === f) onsets.push(f * HOP_MS);
    run = 0;
  }
  run = 0;
  for (let f = silent.length - 1; f >= 0; f--) {
    if (silent[f]) {
      run += 1;
      continue;
    }
    if (run >= minRun || run === silent.length - 1 - f) offsets.push((f + 1) * HOP_MS);
    run = 0;
  }
  return { onsets, offsets: offsets.reverse(), hf: envelope(pcm, true) };
}

/** Where the high-frequency energy falls into the dip nearest `aroundMs` (±120 ms); null without a dip. */
function closureAt(hf: Float32Array, aroundMs: number): number | null {
  const from = Math.max(0, Math.round((aroundMs - 120) / HOP_MS));
  const to = Math.min(hf.length - 1, Math.round((aroundMs + 120) / HOP_MS));
  let min = from;
  for (let f = from; f <= to; f++) if ((hf[f] ?? 0) < (hf[min] ?? 0)) min = f;
  let max = min;
  for (let f = min; f >= Math.max(0, min - 100 / HOP_MS); f--) if ((hf[f] ?? 0) > (hf[max] ?? 0)) max = f;
  const depth = (hf[max] ?? 0) - (hf[min] ?? 0);
  if (depth < 12) return null;
  const half = (hf[min] ?? 0) + depth / 2;
  for (let f = max; f <= min; f++) if ((hf[f] ?? 0) <= half) return f * HOP_MS;
  return null;
}

/** The mouth's events on the reply timeline: chunk visemes shifted by each chunk's start. */
function mouthEvents(chunks: readonly Chunk[], starts: readonly number[]): Event[] {
  const events: Event[] = [];
  chunks.forEach((chunk, i) => {
    const at = starts[i] ?? 0;
    let closed = true;
    for (const key of chunk.visemes) {
      const open = key.v !== 'sil';
      if (open && closed) events.push({ kind: 'onset', ms: at + key.t });
      if (!open && !closed) events.push({ kind: 'offset', ms: at + key.t });
      if (key.v === 'PP' && key.w >= 0.9) events.push({ kind: 'closure', ms: at + key.t });
      closed = !open;
    }
    if (!closed) events.push({ kind: 'offset', ms: at + chunk.durationMs });
  });
  return events;
}

function nearest(values: readonly number[], to: number, within: number): number | null {
  let best: number | null = null;
  for (const v of values)
    if (Math.abs(v - to) <= within && (best === null || Math.abs(v - to) < Math.abs(best - to))) best = v;
  return best;
}

/** Offsets (mouth − sound, ms) of every event; null where the sound had no match. */
function offsets(pcm: Float32Array, mouth: readonly Event[]): (number | null)[] {
  const sound = soundEvents(pcm);
  const out: (number | null)[] = [];
  for (const event of mouth) {
    if (event.kind === 'closure') {
      const at = closureAt(sound.hf, event.ms);
      out.push(at === null ? null : event.ms - at);
      continue;
    }
    const match = nearest(event.kind === 'onset' ? sound.onsets : sound.offsets, event.ms, 250);
    out.push(match === null ? null : event.ms - match);
  }
  return out;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

function summary(values: (number | null)[]) {
  const found = values.filter((v): v is number => v !== null);
  const within = found.filter((v) => v >= WINDOW.lead && v <= WINDOW.lag).length;
  return {
    events: values.length,
    matched: found.length,
    // Of every mouth event (one the sound analysis could not find counts as a miss), and of
    // those it found (how the mouth sits against the sound it could see).
    withinPct: Number(((within / values.length) * 100).toFixed(1)),
    withinMatchedPct: Number(((within / Math.max(1, found.length)) * 100).toFixed(1)),
    medianMs: Number(median(found).toFixed(1)),
    medianAbsMs: Number(median(found.map(Math.abs)).toFixed(1)),
  };
}

/** The reply as the client plays it now (S-8) and as it played before, with each chunk's start. */
async function played(chunks: readonly Chunk[]) {
  const now: Float32Array[] = [];
  const before: Float32Array[] = [];
  for (const chunk of chunks) {
    const tagged = await decodeWithFfmpeg(chunk.audio, RATE);
    const clip = Math.round((chunk.durationMs * RATE) / 1000);
    now.push(Float32Array.from(tagged.subarray(0, clip), (s) => s / 32_768));
    const untagged = chunk.audio.subarray(mp3Frames(chunk.audio)[0]?.offset ?? 0);
    before.push(Float32Array.from(await decodeWithFfmpeg(untagged, RATE), (s) => s / 32_768));
  }
  const lay = (parts: Float32Array[]) => {
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    const starts: number[] = [];
    let at = 0;
    for (const part of parts) {
      starts.push((at / RATE) * 1000);
      out.set(part, at);
      at += part.length;
    }
    return { pcm: out, starts };
  };
  return { now: lay(now), before: lay(before) };
}

const config = loadConfig({ DATA_DIR: '/tmp/alma-lipsync-bench-config', SPEECH_ENGINE: 'builtin' });
const synthesizer = createSpeechSynthesizer(config);
if (!synthesizer) throw new Error('the builtin synthesiser is not available');

const results: Record<string, unknown> = {};
const lines: string[] = [];
for (const language of ['es', 'en'] as const) {
  const { message, reply } = REPLIES[language];
  const server = await startTestServer({}, undefined, { engine: scripted(reply), speech: synthesizer });
  try {
    const user = await registerUser(server.url);
    const client = connectClient(server.url, user.token);
    await client.connected();
    const ack = await client.request(ClientEvent.chatSend, {
      clientMessageId: `lipsync-${language}`,
      message,
    });
    if (!ack.ok) throw new Error(JSON.stringify(ack.error));
    await client.waitForReplyEnd(ack.data.replyId, 120_000);
    const chunks = client
      .replyEvents(ack.data.replyId)
      .filter((e) => e.event === ServerEvent.speechChunk)
      .map((e) => {
        const p = e.payload as unknown as Chunk;
        return { audio: new Uint8Array(p.audio), durationMs: p.durationMs, visemes: p.visemes };
      });
    client.close();
    const { now, before } = await played(chunks);
    const nowOffsets = offsets(now.pcm, mouthEvents(chunks, now.starts));
    const beforeOffsets = offsets(before.pcm, mouthEvents(chunks, before.starts));
    const kinds = mouthEvents(chunks, now.starts).map((e) => e.kind);
    const byKind = (values: (number | null)[], kind: Event['kind']) =>
      summary(values.filter((_, i) => kinds[i] === kind));
    results[language] = {
      chunks: chunks.length,
      now: summary(nowOffsets),
      before: summary(beforeOffsets),
      nowByKind: {
        onset: byKind(nowOffsets, 'onset'),
        offset: byKind(nowOffsets, 'offset'),
        closure: byKind(nowOffsets, 'closure'),
      },
    };
    const n = summary(nowOffsets);
    const b = summary(beforeOffsets);
    lines.push(
      `  ${language}: ${chunks.length} chunks, ${n.events} events, ${n.matched} found in the sound — now ${n.withinPct} % ` +
        `within (${n.withinMatchedPct} % of those found), median ${n.medianMs} ms, median |offset| ${n.medianAbsMs} ms; ` +
        `before S-8 ${b.withinPct} % (${b.withinMatchedPct} %), median ${b.medianMs} ms, |${b.medianAbsMs}| ms`,
    );
  } finally {
    await server.dispose();
  }
}
console.info(
  `lip sync: mouth − sound, share within ${WINDOW.lead}/+${WINDOW.lag} ms (offset < 0: the mouth leads)\n${lines.join('\n')}`,
);
console.info(JSON.stringify(results, null, 2));
const dir = new URL('./results/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('lipsync-latest.json', dir), `${JSON.stringify(results, null, 2)}\n`);
