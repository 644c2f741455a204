import { describe, expect, it } from 'vitest';
import { FFMPEG_AVAILABLE, needsFfmpeg, recordWithFfmpeg } from '../test-support/ffmpeg-audio.ts';
import { mp3Of, oggOpusOf, tone, wavOf } from '../test-support/voice-samples.ts';
import { decodeAudio, type DecodeAudioOptions } from './decode.ts';

/** The pipeline's own promises (SPEC.md V-2, VU-3): rates, limits, decoders, durations. */
const ALL = ['wav', 'mp3', 'ogg', 'webm', 'mp4'] as const;
const options = (more: Partial<DecodeAudioOptions> = {}): DecodeAudioOptions => ({
  accept: ALL,
  undecodable: 'describe',
  ...more,
});
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'decoded',
    (error: unknown) => (error as { code?: string }).code ?? String(error),
  );

describe('decodeAudio', () => {
  const pcm = tone({ f0: 200, seconds: 3 });

  it('WAV: read in-process at its own rate, or resampled to the rate asked for', async () => {
    const own = await decodeAudio(wavOf(pcm, 44_100), options());
    expect(own).toMatchObject({
      container: 'wav',
      codec: 'pcm',
      decoder: 'pcm',
      sampleRate: 44_100,
      durationMs: 3000,
    });
    expect(own.pcm?.length).toBe(pcm.length);
    const at16k = await decodeAudio(wavOf(pcm, 44_100), options({ sampleRate: 16_000 }));
    expect(at16k).toMatchObject({ sampleRate: 16_000, durationMs: 3000 });
    expect(at16k.pcm?.length).toBe(48_000);
  });

  it('Opus: decoded by opus-decoder at 48 kHz, or straight at the rate asked for', async () => {
    const ogg = await oggOpusOf(pcm);
    const own = await decodeAudio(ogg, options());
    expect(own).toMatchObject({ container: 'ogg', codec: 'opus', decoder: 'opus', sampleRate: 48_000 });
    expect(Math.abs(own.durationMs - 3000)).toBeLessThan(30);
    const at16k = await decodeAudio(ogg, options({ sampleRate: 16_000 }));
    expect(at16k.sampleRate).toBe(16_000);
    expect(Math.abs((at16k.pcm?.length ?? 0) - 48_000)).toBeLessThan(400);
  });

  it('decodes only the beginning when asked, and still answers the whole duration', async () => {
    const long = wavOf(tone({ f0: 200, seconds: 5, sampleRate: 16_000 }), 16_000);
    const decoded = await decodeAudio(long, options({ decodeMs: 1000 }));
    expect(decoded.pcm?.length).toBe(16_000);
    expect(decoded.durationMs).toBe(5000);
  });

  it('refuses what is not accepted, too big, too long (measured) or empty, with its code', async () => {
    const wav = wavOf(pcm, 16_000);
    expect(await codeOf(decodeAudio(wav, options({ accept: ['ogg', 'webm'] })))).toBe('unsupported_audio');
    expect(await codeOf(decodeAudio(wav, options({ maxBytes: 1000 })))).toBe('payload_too_large');
    expect(await codeOf(decodeAudio(wav, options({ maxMs: 2000 })))).toBe('audio_too_long');
    expect(await codeOf(decodeAudio(await oggOpusOf(pcm), options({ maxMs: 2000 })))).toBe('audio_too_long');
    expect(await codeOf(decodeAudio(new Uint8Array(), options()))).toBe('invalid_audio');
  });

  it('without ffmpeg, MP3 is described (its frames give the duration) or refused, as the caller asks', async () => {
    const mp3 = mp3Of(pcm);
    const described = await decodeAudio(mp3, options({ ffmpeg: null }));
    expect(described).toMatchObject({ container: 'mp3', codec: 'mp3', pcm: null, decoder: null });
    expect(Math.abs(described.durationMs - 3000)).toBeLessThan(60);
    expect(await codeOf(decodeAudio(mp3, options({ ffmpeg: null, undecodable: 'refuse' })))).toBe(
      'unsupported_audio',
    );
    expect(
      await codeOf(decodeAudio(mp3, options({ ffmpeg: '/nonexistent/ffmpeg', undecodable: 'refuse' }))),
    ).toBe('unsupported_audio');
  });

  it.skipIf(!FFMPEG_AVAILABLE)(
    needsFfmpeg('MP3 and AAC: demuxed by mediabunny, decoded by ffmpeg, as long as they are'),
    async () => {
      for (const data of [
        mp3Of(pcm),
        await recordWithFfmpeg(pcm, 'm4a-aac'),
        await recordWithFfmpeg(pcm, 'mp3'),
      ]) {
        const decoded = await decodeAudio(data, options({ sampleRate: 16_000 }));
        expect(decoded.decoder).toBe('ffmpeg');
        expect(Math.abs(decoded.durationMs - 3000)).toBeLessThan(60);
        const samples = decoded.pcm ?? new Float32Array(1);
        const rms = Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / samples.length);
        expect(rms).toBeGreaterThan(0.05);
      }
    },
  );
});
