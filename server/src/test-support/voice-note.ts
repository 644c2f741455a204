import { createRequire } from 'node:module';
import {
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedPacket,
  OggOutputFormat,
  Output,
  WebMOutputFormat,
} from 'mediabunny';
import { fromInt16, resample } from '../audio/index.ts';
import { createBuiltinSynthesizer } from '../engines/speech/builtin.ts';

/**
 * Real voice notes for tests, made here rather than committed: espeak speech (the builtin
 * synthesiser), encoded to Opus by libopus (`opus-encdec`, wasm) and muxed by mediabunny into
 * WebM (what Chrome records) or Ogg (Firefox). 48 kHz like a browser recording.
 */
interface LibOpus {
  onRuntimeInitialized?: () => void;
  calledRun?: boolean;
  _malloc(size: number): number;
  _free(pointer: number): void;
  _opus_encoder_create(rate: number, channels: number, application: number, error: number): number;
  _opus_encode_float(encoder: number, pcm: number, frameSize: number, out: number, maxBytes: number): number;
  _opus_encoder_destroy(encoder: number): void;
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
}

const RATE = 48_000;
const FRAME = 960; // 20 ms
const OPUS_APPLICATION_VOIP = 2048;

let libopus: Promise<LibOpus> | null = null;
function loadLibOpus(): Promise<LibOpus> {
  libopus ??= new Promise((resolve) => {
    const lib = createRequire(import.meta.url)('opus-encdec/dist/libopus-encoder.js') as LibOpus;
    if (lib.calledRun) resolve(lib);
    else lib.onRuntimeInitialized = () => resolve(lib);
  });
  return libopus;
}

/** Raw Opus packets (20 ms each) of mono 48 kHz samples. */
export async function encodeOpusPackets(samples: Float32Array): Promise<Uint8Array[]> {
  const lib = await loadLibOpus();
  const error = lib._malloc(4);
  const encoder = lib._opus_encoder_create(RATE, 1, OPUS_APPLICATION_VOIP, error);
  const input = lib._malloc(FRAME * 4);
  const output = lib._malloc(4000);
  const packets: Uint8Array[] = [];
  try {
    for (let at = 0; at < samples.length; at += FRAME) {
      const frame = new Float32Array(FRAME);
      frame.set(samples.subarray(at, Math.min(at + FRAME, samples.length)));
      lib.HEAPF32.set(frame, input >> 2);
      const bytes = lib._opus_encode_float(encoder, input, FRAME, output, 4000);
      if (bytes < 0) throw new Error(`opus_encode_float failed: ${bytes}`);
      packets.push(lib.HEAPU8.slice(output, output + bytes));
    }
  } finally {
    lib._opus_encoder_destroy(encoder);
    lib._free(input);
    lib._free(output);
    lib._free(error);
  }
  return packets;
}

/** The OpusHead identification header (RFC 7845 §5.1). */
function opusHead(channels: number, preSkip: number): Uint8Array {
  const head = new Uint8Array(19);
  head.set(new TextEncoder().encode('OpusHead'));
  const view = new DataView(head.buffer);
  view.setUint8(8, 1);
  view.setUint8(9, channels);
  view.setUint16(10, preSkip, true);
  view.setUint32(12, RATE, true);
  return head;
}

/** A container of Opus packets: mediabunny writes the id and comment pages from the OpusHead. */
export async function muxOpus(packets: Uint8Array[], container: 'webm' | 'ogg'): Promise<Uint8Array> {
  const target = new BufferTarget();
  const output = new Output({
    format: container === 'webm' ? new WebMOutputFormat() : new OggOutputFormat(),
    target,
  });
  const source = new EncodedAudioPacketSource('opus');
  output.addAudioTrack(source);
  await output.start();
  const seconds = FRAME / RATE;
  for (const [index, data] of packets.entries()) {
    const packet = new EncodedPacket(data, 'key', index * seconds, seconds);
    await source.add(
      packet,
      index === 0
        ? {
            decoderConfig: {
              codec: 'opus',
              numberOfChannels: 1,
              sampleRate: RATE,
              description: opusHead(1, 0),
            },
          }
        : undefined,
    );
  }
  source.close();
  await output.finalize();
  if (!target.buffer) throw new Error('mux produced nothing');
  return new Uint8Array(target.buffer);
}

export interface VoiceNoteFixture {
  data: Uint8Array;
  /** Duration of the speech that was encoded. */
  durationMs: number;
  text: string;
}

/** `text` spoken by espeak, as a browser-like webm/opus or ogg/opus voice note. */
export async function makeVoiceNote(
  container: 'webm' | 'ogg',
  text = 'Hello, this is a voice note for the companion.',
): Promise<VoiceNoteFixture> {
  const speech = await createBuiltinSynthesizer().synthesize({
    text,
    language: 'en',
    voice: { voice: 'en-us' },
    signal: new AbortController().signal,
  });
  const samples = resample(fromInt16(speech.pcm), speech.sampleRate, RATE);
  const packets = await encodeOpusPackets(samples);
  return {
    data: await muxOpus(packets, container),
    durationMs: (samples.length / RATE) * 1000,
    text,
  };
}
