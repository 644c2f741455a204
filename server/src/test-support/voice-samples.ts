import { BufferTarget, EncodedAudioPacketSource, EncodedPacket, Mp4OutputFormat, Output } from 'mediabunny';
import { encodeWav, resample, toInt16 } from '../audio/index.ts';
import { encodeMp3 } from '../engines/speech/mp3.ts';
import { encodeOpusPackets, muxOpus } from './voice-note.ts';

/**
 * Voice samples for the upload tests (SPEC.md VU-2, VU-3), made here rather than committed:
 * synthetic signals with a known pitch, level and clipping, written as WAV (our own writer), MP3
 * (LAME), Ogg/Opus (libopus + mediabunny) and M4A (mediabunny's MP4 muxer, Opus inside). Real
 * AAC, Safari's MP4 and LAME MP3 come from ffmpeg (`ffmpeg-audio.ts`).
 */
export interface ToneOptions {
  /** Fundamental, Hz. */
  f0: number;
  seconds: number;
  sampleRate?: number;
  /** Peak amplitude of the sum, 0–1 (above 1 clips). */
  amplitude?: number;
  /** Harmonic amplitudes after the fundamental (a voice-like spectrum). */
  harmonics?: number[];
  /** Amplitude modulation, Hz: syllable-like bursts (0: steady). */
  burstsPerSecond?: number;
}

/** A harmonic tone, clipped to ±1 like a recorder would. */
export function tone(options: ToneOptions): Float32Array {
  const rate = options.sampleRate ?? 44_100;
  const harmonics = [1, ...(options.harmonics ?? [0.5, 0.3, 0.2])];
  const norm = harmonics.reduce((a, b) => a + b, 0);
  const amplitude = options.amplitude ?? 0.5;
  const out = new Float32Array(Math.round(options.seconds * rate));
  for (let i = 0; i < out.length; i++) {
    const t = i / rate;
    let v = 0;
    for (const [k, a] of harmonics.entries()) v += a * Math.sin(2 * Math.PI * options.f0 * (k + 1) * t);
    let gain = amplitude / norm;
    if (options.burstsPerSecond) gain *= 0.5 - 0.5 * Math.cos(2 * Math.PI * options.burstsPerSecond * t);
    out[i] = Math.max(-1, Math.min(1, v * gain));
  }
  return out;
}

export const wavOf = (pcm: Float32Array, sampleRate = 44_100): Uint8Array => encodeWav(pcm, sampleRate);

export const mp3Of = (pcm: Float32Array, sampleRate = 44_100): Uint8Array =>
  encodeMp3(toInt16(pcm), sampleRate, 64);

export async function oggOpusOf(pcm: Float32Array, sampleRate = 44_100): Promise<Uint8Array> {
  return muxOpus(await encodeOpusPackets(resample(pcm, sampleRate, 48_000)), 'ogg');
}

function opusHead(): Uint8Array {
  const head = new Uint8Array(19);
  head.set(new TextEncoder().encode('OpusHead'));
  const view = new DataView(head.buffer);
  view.setUint8(8, 1);
  view.setUint8(9, 1);
  view.setUint32(12, 48_000, true);
  return head;
}

/** An M4A (ISO-BMFF, `ftyp` M4A-compatible) holding Opus: decodable with npm packages alone. */
export async function m4aOpusOf(pcm: Float32Array, sampleRate = 44_100): Promise<Uint8Array> {
  const packets = await encodeOpusPackets(resample(pcm, sampleRate, 48_000));
  return muxMp4(
    packets,
    { codec: 'opus', numberOfChannels: 1, sampleRate: 48_000, description: opusHead() },
    0.02,
  );
}

async function muxMp4(
  packets: Uint8Array[],
  decoderConfig: AudioDecoderConfig,
  seconds: number,
): Promise<Uint8Array> {
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat(), target });
  const source = new EncodedAudioPacketSource('opus');
  output.addAudioTrack(source);
  await output.start();
  for (const [index, data] of packets.entries()) {
    await source.add(
      new EncodedPacket(data, 'key', index * seconds, seconds),
      index === 0 ? { decoderConfig } : undefined,
    );
  }
  source.close();
  await output.finalize();
  if (!target.buffer) throw new Error('mux produced nothing');
  return new Uint8Array(target.buffer);
}
