import { beforeAll, describe, expect, it } from 'vitest';
import {
  FFMPEG_AVAILABLE,
  needsFfmpeg,
  recordWithFfmpeg,
  type FfmpegRecording,
} from '../test-support/ffmpeg-audio.ts';
import { makeVoiceNote, type VoiceNoteFixture } from '../test-support/voice-note.ts';
import { tone } from '../test-support/voice-samples.ts';
import { encodeWav } from './containers/riff.ts';
import { AudioDecodeError } from './errors.ts';
import { sniffAudio } from './sniff.ts';
import { DECODE_SAMPLE_RATE, decodeVoiceNote } from './voice-note.ts';

const notes: Partial<Record<'webm' | 'ogg', VoiceNoteFixture>> = {};

beforeAll(async () => {
  notes.webm = await makeVoiceNote('webm');
  notes.ogg = await makeVoiceNote('ogg');
}, 60_000);

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'decoded',
    (error: unknown) => (error instanceof AudioDecodeError ? error.code : String(error)),
  );

describe('decodeVoiceNote (SPEC.md V-2)', () => {
  it.each(['webm', 'ogg'] as const)(
    'V-2 decodes real %s/opus speech to 16 kHz mono of the same length',
    async (kind) => {
      const note = notes[kind];
      if (!note) throw new Error('fixture missing');
      expect(sniffAudio(note.data)).toBe(kind);
      const started = performance.now();
      const decoded = await decodeVoiceNote(note.data, { ffmpeg: null });
      const ms = performance.now() - started;
      console.log(
        `decode ${kind}/opus: ${note.data.length} B, ${decoded.durationMs} ms of audio in ${ms.toFixed(1)} ms`,
      );
      expect(decoded.container).toBe(kind);
      expect(decoded.sampleRate).toBe(DECODE_SAMPLE_RATE);
      expect(Math.abs(decoded.durationMs - note.durationMs)).toBeLessThan(60);
      expect(decoded.pcm.length).toBe(Math.round((decoded.durationMs / 1000) * DECODE_SAMPLE_RATE));
      // Speech, not silence.
      const rms = Math.sqrt(decoded.pcm.reduce((sum, x) => sum + x * x, 0) / decoded.pcm.length);
      expect(rms).toBeGreaterThan(0.01);
    },
  );

  it('V-2 recognises the container by content, not by name', () => {
    expect(sniffAudio(new TextEncoder().encode('hello, I am a text file'))).toBeNull();
    expect(sniffAudio(encodeWav(new Float32Array(100), 16_000))).toBe('wav');
    const mp4 = new Uint8Array([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x4d, 0x34, 0x41, 0x20]);
    expect(sniffAudio(mp4)).toBe('mp4');
  });

  it('V-2 refuses non-audio, a WAV renamed .webm, truncated and oversize files with clear codes', async () => {
    const webm = notes.webm?.data ?? new Uint8Array();
    const ogg = notes.ogg?.data ?? new Uint8Array();
    expect(await codeOf(decodeVoiceNote(new TextEncoder().encode('not audio at all')))).toBe(
      'unsupported_audio',
    );
    expect(await codeOf(decodeVoiceNote(encodeWav(new Float32Array(1600), 16_000)))).toBe(
      'unsupported_audio',
    );
    expect(await codeOf(decodeVoiceNote(webm.slice(0, 40)))).toBe('invalid_audio');
    expect(await codeOf(decodeVoiceNote(ogg.slice(0, 30)))).toBe('invalid_audio');
    expect(await codeOf(decodeVoiceNote(webm, { maxBytes: 1000 }))).toBe('payload_too_large');
    expect(await codeOf(decodeVoiceNote(ogg, { maxMs: 500 }))).toBe('audio_too_long');
  });
});

describe('V-2 what browsers record, made by ffmpeg', () => {
  const speechLike = tone({ f0: 180, seconds: 3, burstsPerSecond: 4 });
  const recordings: Partial<Record<FfmpegRecording, Uint8Array>> = {};
  beforeAll(async () => {
    if (!FFMPEG_AVAILABLE) return;
    for (const kind of ['chrome-webm', 'ogg-opus', 'safari-mp4', 'm4a-aac'] as const)
      recordings[kind] = await recordWithFfmpeg(speechLike, kind);
  }, 60_000);

  it.skipIf(!FFMPEG_AVAILABLE).each([
    ['chrome-webm', 'webm', 'in-process', null],
    ['ogg-opus', 'ogg', 'in-process', null],
    ['safari-mp4', 'mp4', 'through ffmpeg', 'ffmpeg'],
    ['m4a-aac', 'mp4', 'through ffmpeg', 'ffmpeg'],
  ] as const)(
    needsFfmpeg('decodes a %s note (%s, %s) to 16 kHz mono with its duration'),
    async (kind, container, _how, ffmpeg) => {
      const data = recordings[kind];
      if (!data) throw new Error('fixture missing');
      const decoded = await decodeVoiceNote(data, { ffmpeg });
      expect(decoded.container).toBe(container);
      expect(decoded.sampleRate).toBe(DECODE_SAMPLE_RATE);
      expect(Math.abs(decoded.durationMs - 3000)).toBeLessThan(60);
      const rms = Math.sqrt(decoded.pcm.reduce((sum, x) => sum + x * x, 0) / decoded.pcm.length);
      expect(rms).toBeGreaterThan(0.05);
    },
  );

  it.skipIf(!FFMPEG_AVAILABLE)(
    needsFfmpeg('V-2 a Safari MP4/AAC note without ffmpeg is unsupported_audio, and says why'),
    async () => {
      const data = recordings['safari-mp4'];
      if (!data) throw new Error('fixture missing');
      const error = await decodeVoiceNote(data, { ffmpeg: null }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AudioDecodeError);
      expect((error as AudioDecodeError).code).toBe('unsupported_audio');
      expect((error as AudioDecodeError).message).toMatch(/aac audio needs ffmpeg/);
    },
  );
});
