/**
 * Speech encoders side by side (issue 14, "encode once"; part of `npm run bench`; alone:
 * `tsx tests/bench/encoder-bench.ts`).
 *
 * The same espeak-ng clauses (a Spanish and an English reply cut by the server's chunker, spoken
 * by support/direct-speech.ts) are encoded as `speech:chunk`s would be — each clause a stream that
 * decodes alone and gaplessly (SPEC.md S-8) — by:
 *  - MP3 from `@breezystack/lamejs` (LAME ported to JavaScript; Alma's encoder before this bench)
 *    behind the server's LAME Info frame with delay and padding, 22 050 Hz mono — the baseline,
 *    at 48 kbps (Alma's default);
 *  - MP3 from the reference LAME compiled to WebAssembly (`wasm-media-encoders`) through the
 *    server's `encodeMp3`: what Alma sends now (SPEC.md S-4, S-8);
 *  - Opus in Ogg, libopus in WebAssembly (`opus-encdec`, support/ogg-opus.ts: resampled to 24 kHz,
 *    pre-skip and end trimming in the Ogg headers), speech mode.
 * Printed per encoder: CPU per second of audio (median over rounds, encoders interleaved in each
 * round so the machine's load falls on all alike) and its ratio to the baseline; bytes per second
 * of one continuous stream; what one chunk costs on top of that — its headers (the Info frame;
 * the OpusHead/OpusTags pages and the data pages' headers) and the extra bytes measured (all the
 * chunks' bytes less the reply as one stream, per extra chunk); the audio a decoder must drop per
 * chunk (encoder delay and padding); and, decoded by ffmpeg (Chromium's decoder) and, where a
 * Chromium is found, by Chromium's own `decodeAudioData`, whether each chunk decodes to its
 * duration with its first sample first; and what the lip-sync judge (lipsync-bench.ts) finds in
 * each encoder's sound on the viseme corpus, against the PCM itself. No thresholds.
 *
 * Environment: BENCH_QUICK=1 (3 rounds), BENCH_ROUNDS (default 15).
 */
import type { Language } from '@alma/protocol';
import { createBuiltinSynthesizer } from '@alma/server';
import { Mp3Encoder } from '@breezystack/lamejs';
import { spawnSync } from 'node:child_process';
import { createSpeechChunker } from '../../server/src/engines/speech/chunker.ts';
import { SPEECH_CORPUS } from '../../server/src/engines/speech/corpus.ts';
import {
  DEFAULT_MP3_KBPS,
  encodeMp3,
  withInfoFrame,
  type Mp3Kbps,
} from '../../server/src/engines/speech/mp3.ts';
import { concatBytes, mp3Frames } from '../../server/src/engines/speech/mp3-frames.ts';
import { MP3_DECODER_DELAY } from '../../server/src/engines/speech/mp3-info.ts';
import { decodeWithFfmpeg, FFMPEG_AVAILABLE } from '../../server/src/test-support/ffmpeg-audio.ts';
import { findChromium } from '../../scripts/system-packages.mjs';
import { directSpeech, SAMPLE_RATE } from './support/direct-speech.ts';
import { mouthEvents, offsets, summary, type MouthEvent } from './support/lipsync-analysis.ts';
import { encodeOggOpus, loadOpus, measureResamplerDelay } from './support/ogg-opus.ts';
import { fmt, machine, median, printTable, QUICK, ratio, writeResult } from './support/report.ts';
import { SPOKEN_REPLY } from './support/scripted-engine.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS) || (QUICK ? 3 : 15);

const REPLIES: Record<Language, { voice: string; text: string }> = {
  es: { voice: 'es+f3', text: SPOKEN_REPLY },
  en: {
    voice: 'en-us+f3',
    text:
      'That sounds like a lovely day, really. You walked a lot, you laughed with friends, and you still found ' +
      'time to read. What was the best part of it? I would love to hear more about the book.',
  },
};

interface Encoded {
  data: Uint8Array;
  /** Bytes that carry no audio: the Info frame; the Ogg header pages and page headers. */
  headerBytes: number;
  /** Decoded samples a decoder drops, at the PCM's rate: encoder delay and padding. */
  droppedSamples: number;
}

interface Encoder {
  name: string;
  mimeType: string;
  encode(pcm: Int16Array): Encoded;
}

const opus = await loadOpus();
const resamplerDelay = measureResamplerDelay(opus, SAMPLE_RATE);

/** An MP3 chunk's layout: the Info frame's bytes, and the decoded samples it trims. */
function mp3Chunk(data: Uint8Array, pcmSamples: number): Encoded {
  const frames = mp3Frames(data);
  const samples = frames.reduce((n, f) => n + f.samples, 0);
  // The decoded frames hold the decoder's delay too; the Info frame trims both ends.
  return {
    data,
    headerBytes: frames[0]?.offset ?? 0,
    droppedSamples: samples + MP3_DECODER_DELAY - pcmSamples,
  };
}

/** Alma's encoder: the reference LAME in WebAssembly, through the server's `encodeMp3`. */
const lameWasm = (kbps: Mp3Kbps): Encoder => ({
  name: `MP3 ${kbps} kbps (LAME wasm${kbps === DEFAULT_MP3_KBPS ? ', Alma' : ''})`,
  mimeType: 'audio/mpeg',
  encode: (pcm) => mp3Chunk(encodeMp3(pcm, SAMPLE_RATE, kbps), pcm.length),
});

/** Alma's encoder before: `@breezystack/lamejs`, LAME ported to JavaScript, behind the same Info frame. */
const lamejs = (kbps: number): Encoder => ({
  name: `MP3 ${kbps} kbps (lamejs${kbps === DEFAULT_MP3_KBPS ? ', before' : ''})`,
  mimeType: 'audio/mpeg',
  encode(pcm) {
    const encoder = new Mp3Encoder(1, SAMPLE_RATE, kbps);
    const parts: Uint8Array[] = [];
    // In blocks of 8 of its 1152-sample frames, as the server did.
    for (let at = 0; at < pcm.length; at += 1152 * 8)
      parts.push(encoder.encodeBuffer(pcm.subarray(at, at + 1152 * 8)));
    const frames = concatBytes([...parts, encoder.flush()]);
    return mp3Chunk(withInfoFrame(frames, pcm.length), pcm.length);
  },
});

const oggOpus = (kbps: number, complexity = 10): Encoder => ({
  name: `Opus ${kbps} kbps${complexity === 10 ? '' : ` c${complexity}`} (Ogg, wasm)`,
  mimeType: 'audio/ogg; codecs=opus',
  encode(pcm) {
    const { data, headerBytes, preSkip, endTrim } = encodeOggOpus(opus, pcm, SAMPLE_RATE, {
      kbps,
      complexity,
    });
    return { data, headerBytes, droppedSamples: ((preSkip + endTrim) * SAMPLE_RATE) / 48_000 };
  },
});

const ENCODERS: Encoder[] = [
  lamejs(48),
  lamejs(64),
  lameWasm(48),
  lameWasm(64),
  lameWasm(32),
  oggOpus(16),
  oggOpus(24),
  oggOpus(32),
  oggOpus(24, 5),
];
const BASELINE = ENCODERS[0]!;

/** The clauses a reply is spoken in (SPEC.md S-1), as the server's chunker cuts them. */
function clausesOf(text: string): string[] {
  const chunker = createSpeechChunker();
  return [...chunker.push(text), ...chunker.flush()].map((c) => c.trim());
}

interface Clause {
  language: Language;
  text: string;
  pcm: Int16Array;
  /** Speaks the clause again (espeak warm): answers espeak's CPU (µs). */
  speak: () => number;
}

const clauses: Clause[] = [];
for (const [language, { voice, text }] of Object.entries(REPLIES) as [
  Language,
  (typeof REPLIES)[Language],
][]) {
  const direct = await directSpeech(voice);
  for (const clause of clausesOf(text)) {
    const { pcm } = direct.speak(clause);
    clauses.push({ language, text: clause, pcm, speak: () => direct.speak(clause).espeakUs });
  }
}
const audioSeconds = clauses.reduce((s, c) => s + c.pcm.length, 0) / SAMPLE_RATE;

// Warm-up: espeak's and every encoder's code paths compiled before anything is timed.
for (const c of clauses) c.speak();
for (const encoder of ENCODERS) for (const c of clauses.slice(0, 3)) encoder.encode(c.pcm);

/** CPU per second of audio, one value per round; espeak's own for scale. */
const cpu = new Map<Encoder, number[]>(ENCODERS.map((e) => [e, []]));
const espeak: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  espeak.push(clauses.reduce((us, c) => us + c.speak(), 0) / 1000 / audioSeconds);
  // Interleaved, in a different order each round: drift in the machine's load hits all alike.
  const order = ENCODERS.map((_, i) => ENCODERS[(i + round) % ENCODERS.length]!);
  for (const encoder of order) {
    const started = process.cpuUsage();
    for (const c of clauses) encoder.encode(c.pcm);
    const { user, system } = process.cpuUsage(started);
    cpu.get(encoder)!.push((user + system) / 1000 / audioSeconds);
  }
}

/**
 * The lag (in samples) at which `decoded` best matches `pcm` (normalised cross-correlation over
 * the first 8 000 samples, ±400): 0 when the first sample decoded is the PCM's first.
 */
function lagOf(decoded: ArrayLike<number>, pcm: Int16Array): number {
  let best = 0;
  let bestScore = -Infinity;
  const span = Math.min(8000, pcm.length, decoded.length) - 400;
  for (let lag = -400; lag <= 400; lag++) {
    let dot = 0;
    let energy = 0;
    for (let i = 400; i < span; i++) {
      const d = decoded[i + lag] ?? 0;
      dot += d * (pcm[i] ?? 0);
      energy += d * d;
    }
    const score = energy > 0 ? dot / Math.sqrt(energy) : -Infinity;
    if (score > bestScore) [best, bestScore] = [lag, score];
  }
  return best;
}

interface DecodeCheck {
  /** Largest |decoded length − PCM length| over the chunks, in samples at 22 050 Hz. */
  maxLengthError: number;
  /** Largest |lag| of the decoded chunk against its PCM, in samples. */
  maxLag: number;
  failed: number;
}

function summarise(results: { length: number; lag: number; pcm: Int16Array }[], failed: number): DecodeCheck {
  return {
    maxLengthError: Math.max(0, ...results.map((r) => Math.abs(r.length - r.pcm.length))),
    maxLag: Math.max(0, ...results.map((r) => Math.abs(r.lag))),
    failed,
  };
}

async function ffmpegCheck(encoder: Encoder): Promise<DecodeCheck | null> {
  if (!FFMPEG_AVAILABLE) return null;
  const results = [];
  for (const c of clauses) {
    const decoded = await decodeWithFfmpeg(encoder.encode(c.pcm).data, SAMPLE_RATE);
    results.push({ length: decoded.length, lag: lagOf(decoded, c.pcm), pcm: c.pcm });
  }
  return summarise(results, 0);
}

/** Chromium's own decodeAudioData, in a page, at 22 050 Hz (it resamples what it decodes). */
async function chromiumCheck(): Promise<Map<Encoder, DecodeCheck> | null> {
  const executablePath = findChromium();
  if (!executablePath || spawnSync(executablePath, ['--version'], { stdio: 'ignore' }).status !== 0)
    return null;
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage();
    const checks = new Map<Encoder, DecodeCheck>();
    for (const encoder of ENCODERS) {
      const results = [];
      let failed = 0;
      for (const c of clauses) {
        const base64 = Buffer.from(encoder.encode(c.pcm).data).toString('base64');
        const decoded = await page.evaluate(
          async ({ data, rate }) => {
            const bytes = Uint8Array.from(atob(data), (ch) => ch.charCodeAt(0));
            const context = new OfflineAudioContext(1, 1, rate);
            try {
              const buffer = await context.decodeAudioData(bytes.buffer);
              return Array.from(buffer.getChannelData(0), (s) => Math.round(s * 32_767));
            } catch {
              return null;
            }
          },
          { data: base64, rate: SAMPLE_RATE },
        );
        if (!decoded) failed++;
        else results.push({ length: decoded.length, lag: lagOf(decoded, c.pcm), pcm: c.pcm });
      }
      checks.set(encoder, summarise(results, failed));
    }
    return checks;
  } finally {
    await browser.close();
  }
}

/**
 * The lip-sync judge (support/lipsync-analysis.ts, as lipsync-bench.ts uses it) on the viseme
 * corpus, es and en (each sentence spoken by Alma's synthesiser with its visemes), against the
 * sound decoded by ffmpeg: what a codec's noise and smearing do to the pauses and lip closures
 * the judge finds. "pcm" is the same judge on the PCM itself, before any encoder.
 */
const corpus: { pcm: Int16Array; events: MouthEvent[] }[] = [];
const synthesizer = createBuiltinSynthesizer();
for (const [language, { voice }] of Object.entries(REPLIES) as [Language, (typeof REPLIES)[Language]][]) {
  for (const text of SPEECH_CORPUS[language]) {
    const spoken = await synthesizer.synthesizeDetailed({
      text,
      language,
      voice: { voice },
      signal: new AbortController().signal,
    });
    corpus.push({ pcm: spoken.pcm, events: mouthEvents(spoken.visemes, spoken.durationMs) });
  }
}
const asFloat = (pcm: Int16Array, length: number) =>
  Float32Array.from(pcm.subarray(0, length), (v) => v / 32_768);
async function lipSync(encoder: Encoder | null) {
  const values: (number | null)[] = [];
  for (const { pcm, events } of corpus) {
    const sound = encoder ? await decodeWithFfmpeg(encoder.encode(pcm).data, SAMPLE_RATE) : pcm;
    values.push(...offsets(asFloat(sound, pcm.length), events));
  }
  return summary(values);
}
const pcmLipSync = FFMPEG_AVAILABLE ? await lipSync(null) : null;

const chromiumChecks = await chromiumCheck();
const rows = [];
for (const encoder of ENCODERS) {
  const chunks = clauses.map((c) => encoder.encode(c.pcm));
  const chunkBytes = chunks.reduce((n, c) => n + c.data.length, 0);
  // The reply as one stream per language: what a byte of audio costs without chunking.
  let wholeBytes = 0;
  for (const language of Object.keys(REPLIES) as Language[]) {
    const parts = clauses.filter((c) => c.language === language).map((c) => c.pcm);
    const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (pcm.set(p, at), at + p.length), 0);
    wholeBytes += encoder.encode(pcm).data.length;
  }
  const extraChunks = clauses.length - Object.keys(REPLIES).length;
  rows.push({
    encoder: encoder.name,
    mimeType: encoder.mimeType,
    cpuMsPerAudioSecond: median(cpu.get(encoder)!),
    bytesPerSecond: wholeBytes / audioSeconds,
    chunkBytesPerSecond: chunkBytes / audioSeconds,
    headerBytesPerChunk: chunks.reduce((n, c) => n + c.headerBytes, 0) / chunks.length,
    extraBytesPerChunk: (chunkBytes - wholeBytes) / extraChunks,
    droppedMsPerChunk:
      (chunks.reduce((n, c) => n + c.droppedSamples, 0) / chunks.length / SAMPLE_RATE) * 1000,
    ffmpeg: await ffmpegCheck(encoder),
    chromium: chromiumChecks?.get(encoder) ?? null,
    lipSync: FFMPEG_AVAILABLE ? await lipSync(encoder) : null,
  });
}

const baselineCpu = median(cpu.get(BASELINE)!);
const espeakMsPerSecond = median(espeak);
const check = (c: DecodeCheck | null) =>
  c ? (c.failed ? `${c.failed} failed` : `±${c.maxLengthError} / ${c.maxLag}`) : 'n/a';
console.info(
  `encoders: ${clauses.length} clauses (es ${clauses.filter((c) => c.language === 'es').length}, en ${
    clauses.filter((c) => c.language === 'en').length
  }), ${fmt(audioSeconds, 2)} s of audio at ${SAMPLE_RATE} Hz; ${ROUNDS} rounds; espeak itself ${fmt(
    espeakMsPerSecond,
    2,
  )} ms CPU per s of audio; speex resampler delay ${resamplerDelay} samples at 24 kHz`,
);
printTable(
  [
    'encoder',
    'CPU ms/s audio',
    '×base',
    'bytes/s',
    'as chunks',
    'header B/chunk',
    'extra B/chunk',
    'dropped ms/chunk',
    'ffmpeg len/lag',
    'Chromium len/lag',
    'lip sync within (found)',
  ],
  rows.map((r) => [
    r.encoder,
    fmt(r.cpuMsPerAudioSecond, 2),
    `×${fmt(ratio(r.cpuMsPerAudioSecond, baselineCpu), 2)}`,
    fmt(r.bytesPerSecond, 0),
    fmt(r.chunkBytesPerSecond, 0),
    fmt(r.headerBytesPerChunk, 0),
    fmt(r.extraBytesPerChunk, 0),
    fmt(r.droppedMsPerChunk, 1),
    check(r.ffmpeg),
    check(r.chromium),
    r.lipSync ? `${fmt(r.lipSync.withinPct)} % (${fmt(r.lipSync.withinFoundPct)} %)` : 'n/a',
  ]),
);
console.info(
  `×base: CPU against ${BASELINE.name} in the same run. bytes/s: the reply as one stream; as chunks:\n` +
    'all chunks per second of audio. header: bytes that carry no audio; extra: measured bytes per chunk beyond one\n' +
    'stream. dropped: decoded audio the decoder trims (delay + padding). len/lag: largest |decoded − PCM| length and\n' +
    '|lag| in samples at 22 050 Hz over all chunks (0 / 0: gapless, first sample first). lip sync: the lipsync\n' +
    `judge's events within -125/+45 ms on the viseme corpus (${corpus.length} sentences, es and en), of all (of those found); on the\n` +
    `PCM itself, before any encoder: ${pcmLipSync ? `${fmt(pcmLipSync.withinPct)} % (${fmt(pcmLipSync.withinFoundPct)} %) of ${pcmLipSync.events}` : 'n/a'}.`,
);
writeResult('encoder-latest', {
  ...machine(),
  rounds: ROUNDS,
  clauses: clauses.map((c) => ({ language: c.language, text: c.text, samples: c.pcm.length })),
  audioSeconds,
  espeakMsPerAudioSecond: espeakMsPerSecond,
  resamplerDelay,
  lipSyncOnPcm: pcmLipSync,
  baseline: BASELINE.name,
  encoders: rows,
});
