import { describe, expect, it } from 'vitest';
import { encodeMp3 } from './mp3.ts';
import { joinMp3, MP3_CODEC_DELAY_SAMPLES, mp3Frames, mp3Prefix } from './mp3-frames.ts';
import { readInfoTag } from './mp3-info.ts';

const RATE = 22_050;
const tone = (ms: number) => {
  const pcm = new Int16Array(Math.round((ms * RATE) / 1000));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(3000 * Math.sin(i / 5));
  return pcm;
};

describe('MP3 chunks joined without re-encoding (SPEC.md S-4)', () => {
  it('reads every frame of a LAME stream, 576 samples each at 22 050 Hz, covering the whole PCM', () => {
    const audio = encodeMp3(tone(1000), RATE);
    const frames = mp3Frames(audio);
    const last = frames.at(-1);
    // The Info frame (S-8) comes first and is not audio.
    expect(frames[0]?.offset).toBeGreaterThan(0);
    expect(readInfoTag(audio)?.frameCount).toBe(frames.length);
    expect(last && last.offset + last.length).toBe(audio.length);
    expect(frames.every((f) => f.samples === 576 && f.sampleRate === RATE)).toBe(true);
    expect(frames.length * 576).toBeGreaterThanOrEqual(RATE + MP3_CODEC_DELAY_SAMPLES);
  });

  it('a cut keeps the whole frames that play the first untilMs, and no more', () => {
    const audio = encodeMp3(tone(1000), RATE);
    const prefix = mp3Prefix(audio, 500);
    const kept = mp3Frames(prefix).length;
    expect(kept).toBe(Math.ceil((MP3_CODEC_DELAY_SAMPLES + RATE / 2) / 576));
    const start = mp3Frames(audio)[0]?.offset ?? 0;
    expect(Buffer.from(prefix).equals(Buffer.from(audio.subarray(start, start + prefix.length)))).toBe(true);
  });

  it("joins the chunks' audio frames as they are, under one Info frame, up to the chunk playing at the cut", () => {
    const a = encodeMp3(tone(400), RATE);
    const b = encodeMp3(tone(600), RATE);
    const c = encodeMp3(tone(300), RATE);
    const chunks = [
      { audio: a, startMs: 0, durationMs: 400 },
      { audio: b, startMs: 400, durationMs: 600 },
      { audio: c, startMs: 1000, durationMs: 300 },
    ];
    const body = (mp3: Uint8Array) => mp3.subarray(mp3Frames(mp3)[0]?.offset);
    const joined = joinMp3(chunks);
    const tag = readInfoTag(joined);
    expect(tag?.frameCount).toBe(mp3Frames(joined).length);
    const audio = joined.subarray(mp3Frames(joined)[0]?.offset);
    expect(Buffer.from(audio).equals(Buffer.concat([body(a), body(b), body(c)]))).toBe(true);
    const cut = joinMp3(chunks, 700);
    const cutAudio = cut.subarray(mp3Frames(cut)[0]?.offset);
    expect(Buffer.from(cutAudio).equals(Buffer.concat([body(a), mp3Prefix(b, 300)]))).toBe(true);
  });
});
