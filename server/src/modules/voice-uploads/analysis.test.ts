import { describe, expect, it } from 'vitest';
import { FFMPEG_AVAILABLE, needsFfmpeg } from '../../test-support/ffmpeg-audio.ts';
import { m4aOpusOf, mp3Of, oggOpusOf, tone, wavOf } from '../../test-support/voice-samples.ts';
import { analyseVoice, deriveVoice } from './analysis.ts';
import { decodeSample, sampleFormat } from './sample-audio.ts';

/** SPEC.md VU-3 (analysis) and VU-4 (derived builtin voice) on signals whose answers are known. */
describe('VU-3 analysis of synthetic voices', () => {
  it.each([110, 220, 330])('finds the pitch of a %i Hz harmonic tone within 3 %', (f0) => {
    const a = analyseVoice(tone({ f0, seconds: 3 }), 44_100, 3000);
    expect(Math.abs((a.pitchHz ?? 0) - f0) / f0).toBeLessThan(0.03);
    expect(a.pitchRangeHz?.[0]).toBeLessThanOrEqual(a.pitchHz ?? 0);
    expect(a.decoded).toBe(true);
  });

  it('measures level in dBFS and finds no clipping in a clean tone', () => {
    // A lone sine of amplitude 0.5: RMS 0.354 → −9.0 dBFS; peak −6.0 dBFS.
    const a = analyseVoice(tone({ f0: 200, seconds: 3, amplitude: 0.5, harmonics: [] }), 16_000, 3000);
    expect(a.rmsDb).toBeCloseTo(-9, 0);
    expect(a.peakDb).toBeCloseTo(-6, 0);
    expect(a.clippingRatio).toBe(0);
    expect(a.warnings).toEqual([]);
  });

  it('reports clipping and a quiet recording', () => {
    const clipped = analyseVoice(tone({ f0: 200, seconds: 3, amplitude: 1.6, harmonics: [] }), 16_000, 3000);
    expect(clipped.clippingRatio).toBeGreaterThan(0.1);
    expect(clipped.warnings).toContain('clipping');
    const quiet = analyseVoice(tone({ f0: 200, seconds: 3, amplitude: 0.01 }), 16_000, 3000);
    expect(quiet.rmsDb).toBeLessThan(-35);
    expect(quiet.warnings).toContain('too_quiet');
  });

  it('counts syllable-like bursts per second from the envelope', () => {
    for (const rate of [3, 5]) {
      const a = analyseVoice(tone({ f0: 150, seconds: 6, burstsPerSecond: rate }), 44_100, 6000);
      expect(a.syllablesPerSecond).toBeGreaterThan(rate * 0.8);
      expect(a.syllablesPerSecond).toBeLessThan(rate * 1.25);
    }
  });

  it('warns about short samples and reports undecodable ones honestly', () => {
    expect(analyseVoice(tone({ f0: 200, seconds: 1 }), 44_100, 1000).warnings).toContain('short');
    const none = analyseVoice(null, 0, 5000);
    expect(none).toMatchObject({ decoded: false, pitchHz: null, rmsDb: null, syllablesPerSecond: null });
    expect(none.warnings).toEqual(['not_decoded']);
  });
});

describe('VU-4 the builtin voice derived from the analysis', () => {
  const derive = (f0: number, bursts = 4.5) =>
    deriveVoice(analyseVoice(tone({ f0, seconds: 4, burstsPerSecond: bursts }), 44_100, 4000));

  it('picks the variant family by pitch: male, neutral, female', () => {
    expect(derive(95)).toMatchObject({ category: 'masculina', gender: 'male', speech: { variant: '+m2' } });
    expect(derive(125)).toMatchObject({ category: 'masculina', speech: { variant: '+m3' } });
    expect(derive(160)).toMatchObject({ category: 'neutral', speech: { variant: '+klatt', pitch: 50 } });
    expect(derive(215)).toMatchObject({ category: 'femenina', speech: { variant: '+f3' } });
    expect(derive(290)).toMatchObject({ category: 'femenina', speech: { variant: '+f4' } });
  });

  it('raises espeak pitch with the voice and the rate with the syllable rate, within bounds', () => {
    expect(derive(230).speech.pitch).toBeGreaterThan(derive(200).speech.pitch);
    expect(derive(160, 6).speech.rate).toBeGreaterThan(derive(160, 3).speech.rate);
    const extreme = derive(480, 12).speech;
    expect(extreme.pitch).toBeLessThanOrEqual(90);
    expect(extreme.rate).toBeLessThanOrEqual(230);
  });
});

describe('VU-2 formats by content', () => {
  const pcm = tone({ f0: 200, seconds: 2 });

  it('sniffs WAV, MP3 (with and without ID3), Ogg and ISO-BMFF; nothing else', async () => {
    const mp3 = mp3Of(pcm);
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, ...mp3]);
    expect(sampleFormat(wavOf(pcm))).toBe('wav');
    expect(sampleFormat(mp3)).toBe('mp3');
    expect(sampleFormat(id3)).toBe('mp3');
    const withTag = await decodeSample(id3, null);
    expect(withTag.durationMs).toBe((await decodeSample(mp3, null)).durationMs);
    expect(sampleFormat(await oggOpusOf(pcm))).toBe('ogg');
    expect(sampleFormat(await m4aOpusOf(pcm))).toBe('m4a');
    expect(sampleFormat(new TextEncoder().encode('RIFF....AVI LIST'))).toBeNull();
    expect(sampleFormat(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]))).toBeNull(); // WebM
    expect(sampleFormat(new Uint8Array(16))).toBeNull();
  });

  it('reads an M4A by its ftyp box and refuses one cut before its moov', async () => {
    const m4a = await m4aOpusOf(pcm);
    const decoded = await decodeSample(m4a, null);
    expect(decoded.codec).toBe('opus');
    expect(Math.abs(decoded.durationMs - 2000)).toBeLessThan(50);
    await expect(decodeSample(m4a.subarray(0, m4a.length - 10), null)).rejects.toMatchObject({
      code: 'voice_file_damaged',
    });
  });

  it('refuses an MP3 with garbage after its frames and an Ogg stream that never ends', async () => {
    const mp3 = mp3Of(pcm);
    const junk = new Uint8Array([...mp3, ...new Uint8Array(500).fill(0x41)]);
    await expect(decodeSample(junk, null)).rejects.toMatchObject({
      code: 'voice_file_damaged',
    });
    const ogg = await oggOpusOf(pcm);
    // Clear the end-of-stream flag of the last page (its header_type byte).
    let at = -1;
    for (let i = ogg.length - 4; i >= 0; i--)
      if (ogg[i] === 0x4f && ogg[i + 1] === 0x67 && ogg[i + 2] === 0x67 && ogg[i + 3] === 0x53) {
        at = i;
        break;
      }
    expect(at).toBeGreaterThan(0);
    const open = ogg.slice();
    open[at + 5] = (open[at + 5] ?? 0) & ~0x04;
    await expect(decodeSample(open, null)).rejects.toMatchObject({
      code: 'voice_file_damaged',
    });
  });
});

describe.skipIf(!FFMPEG_AVAILABLE)(
  needsFfmpeg('VU-3 MP3 analysed through ffmpeg when it is installed'),
  () => {
    it('finds the pitch of a 220 Hz tone in an MP3', async () => {
      const decoded = await decodeSample(mp3Of(tone({ f0: 220, seconds: 3 })), undefined);
      const a = analyseVoice(decoded.pcm, decoded.sampleRate, decoded.durationMs);
      expect(a.decoded).toBe(true);
      expect(Math.abs((a.pitchHz ?? 0) - 220) / 220).toBeLessThan(0.03);
    });
  },
);
