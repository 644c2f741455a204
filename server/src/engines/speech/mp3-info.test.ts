import type { Language } from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { decodeWithFfmpeg, FFMPEG_AVAILABLE, needsFfmpeg } from '../../test-support/ffmpeg-audio.ts';
import { createBuiltinSynthesizer, ESPEAK_SAMPLE_RATE } from './builtin.ts';
import { encodeMp3 } from './mp3.ts';
import { joinMp3, mp3Frames } from './mp3-frames.ts';
import { LAME_ENCODER_DELAY, readInfoTag } from './mp3-info.ts';

const RATE = ESPEAK_SAMPLE_RATE;

/** A tone with one loud click at `clickAt`: where the click decodes shows the start offset. */
function marked(samples: number, clickAt: number): Int16Array {
  const pcm = new Int16Array(samples);
  for (let i = clickAt + 40; i < samples; i++) pcm[i] = Math.round(3000 * Math.sin(i / 6));
  for (let i = clickAt; i < clickAt + 20; i++) pcm[i] = 24_000;
  return pcm;
}

const firstLoud = (pcm: Int16Array) => pcm.findIndex((s) => Math.abs(s) > 12_000);

/** The shift of `decoded` against `pcm` (samples, within ±maxLag) where the two correlate best. */
function bestLag(pcm: Int16Array, decoded: Int16Array, maxLag = 1200): number {
  const span = Math.min(pcm.length, decoded.length) - 2 * maxLag;
  let best = { lag: 0, score: -Infinity };
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let score = 0;
    for (let i = maxLag; i < maxLag + span; i += 2) score += (pcm[i] ?? 0) * (decoded[i + lag] ?? 0);
    if (score > best.score) best = { lag, score };
  }
  return best.lag;
}

const CHUNKS: Record<Language, string[]> = {
  es: ['Hola, qué alegría verte.', 'Hoy hace un día precioso para pasear por el parque.', '¿Vienes?'],
  en: ['Hi, so good to see you.', 'It is a lovely day for a walk in the park.', 'Coming?'],
};

describe.skipIf(!FFMPEG_AVAILABLE)('MP3 chunks decode to exactly their PCM (SPEC.md S-8)', () => {
  it(needsFfmpeg('a chunk carries a LAME Info frame with encoder delay and padding'), () => {
    const pcm = marked(RATE, 1000);
    const mp3 = encodeMp3(pcm, RATE);
    const tag = readInfoTag(mp3);
    const frames = mp3Frames(mp3);
    expect(tag).toEqual({
      frameCount: frames.length,
      delay: LAME_ENCODER_DELAY,
      padding: frames.length * 576 - LAME_ENCODER_DELAY - pcm.length,
    });
  });

  for (const ms of [37, 400, 1000, 2345]) {
    it(needsFfmpeg(`a ${ms} ms chunk decodes to its own sample count, its first sample first`), async () => {
      const pcm = marked(Math.round((ms * RATE) / 1000), 200);
      const decoded = await decodeWithFfmpeg(encodeMp3(pcm, RATE), RATE);
      expect(decoded.length).toBe(pcm.length);
      expect(firstLoud(decoded)).toBe(200);
    });
  }

  const synth = createBuiltinSynthesizer();
  for (const language of ['es', 'en'] as const) {
    it(
      needsFfmpeg(`espeak's ${language} chunks decode to their durationMs, back to back`),
      async () => {
        let timelineMs = 0;
        let decodedSamples = 0;
        for (const text of CHUNKS[language]) {
          const chunk = await synth.synthesize({
            text,
            language,
            voice: { voice: language === 'es' ? 'es+f3' : 'en-us+f3' },
            signal: new AbortController().signal,
          });
          const decoded = await decodeWithFfmpeg(chunk.audio, RATE);
          expect(decoded.length).toBe(chunk.pcm.length);
          expect(Math.abs((decoded.length / RATE) * 1000 - chunk.durationMs)).toBeLessThanOrEqual(0.5);
          // The decoded chunk is its PCM in time (lossy, so compared by correlation, not bit for bit).
          expect(bestLag(chunk.pcm, decoded)).toBe(0);
          timelineMs += chunk.durationMs;
          decodedSamples += decoded.length;
        }
        // Played one after another, the chunks end where the timeline (sum of durationMs) ends,
        // give or take each durationMs's rounding to the millisecond.
        const decodedMs = (decodedSamples / RATE) * 1000;
        expect(Math.abs(decodedMs - timelineMs)).toBeLessThanOrEqual(0.5 * CHUNKS[language].length);
      },
      60_000,
    );
  }

  it(
    needsFfmpeg("the reply's file starts at its first chunk's first sample and ends at the cut"),
    async () => {
      const a = marked(Math.round(0.4 * RATE), 100);
      const b = marked(Math.round(0.6 * RATE), 100);
      const chunks = [
        { audio: encodeMp3(a, RATE), startMs: 0, durationMs: 400 },
        { audio: encodeMp3(b, RATE), startMs: 400, durationMs: 600 },
      ];
      const whole = await decodeWithFfmpeg(joinMp3(chunks), RATE);
      const framesOfA = mp3Frames(chunks[0]!.audio).length * 576;
      expect(firstLoud(whole)).toBe(100);
      // Inside the file each chunk keeps its codec delay (joined without re-encoding, S-4).
      expect(whole.length).toBe(framesOfA + b.length);
      const cut = await decodeWithFfmpeg(joinMp3(chunks, 700), RATE);
      expect(cut.length).toBe(framesOfA + Math.ceil(0.3 * RATE));
    },
  );
});
