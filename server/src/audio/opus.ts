import type { InputAudioTrack } from 'mediabunny';
import { OpusDecoder, type OpusDecoderSampleRate } from 'opus-decoder';
import { damaged, unsupported } from './errors.ts';
import { mixDown, PcmCollector, resample } from './pcm.ts';

/** Opus packets from a demuxed track to mono PCM with libopus (opus-decoder, wasm). */

/** Rates libopus decodes to directly; any other is decoded at 48 kHz and resampled. */
const OPUS_RATES = new Set<number>([8000, 12_000, 16_000, 24_000, 48_000]);

const toBytes = (source: ArrayBufferView | ArrayBufferLike): Uint8Array =>
  ArrayBuffer.isView(source)
    ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
    : new Uint8Array(source);

/**
 * The track's OpusHead (RFC 7845 §5.1): its channel count (byte 9) and pre-skip (LE u16 at 10).
 * Channel mapping family 0 only (mono or stereo: what a microphone records); family 0 with more
 * channels is a header that lies.
 */
export async function opusHeadOf(track: InputAudioTrack): Promise<{ channels: number; preSkip: number }> {
  const config = await track.getDecoderConfig();
  const description = config?.description as ArrayBufferView | ArrayBuffer | undefined;
  if (!description) return { channels: Math.min(2, Math.max(1, track.numberOfChannels)), preSkip: 0 };
  const head = toBytes(description);
  if (head.length < 19 || String.fromCharCode(...head.subarray(0, 8)) !== 'OpusHead')
    throw damaged('the Opus header is not an OpusHead');
  if ((head[8] ?? 0) >> 4 !== 0) throw unsupported(`OpusHead version ${head[8]}`);
  const channels = head[9] ?? 0;
  if (channels === 0) throw damaged('the OpusHead declares no channels');
  if ((head[18] ?? 0) !== 0) throw unsupported(`Opus channel mapping ${head[18]} (${channels} channels)`);
  if (channels > 2) throw damaged(`the OpusHead declares ${channels} channels without a channel mapping`);
  return { channels, preSkip: (head[10] ?? 0) | ((head[11] ?? 0) << 8) };
}

/**
 * Decodes up to `maxSamples` (at `sampleRate`) and answers them with whether that was all the
 * track holds. A packet libopus refuses makes the file `invalid_audio`.
 */
export async function decodeOpusTrack(
  track: InputAudioTrack,
  packets: AsyncIterable<{ data: Uint8Array }>,
  sampleRate: number,
  maxSamples: number,
): Promise<{ pcm: Float32Array; complete: boolean }> {
  const { channels, preSkip } = await opusHeadOf(track);
  const rate = (OPUS_RATES.has(sampleRate) ? sampleRate : 48_000) as OpusDecoderSampleRate;
  const decoder = new OpusDecoder({ sampleRate: rate, channels, preSkip });
  await decoder.ready;
  const out = new PcmCollector();
  const limit = Math.ceil((maxSamples * rate) / sampleRate);
  let complete = true;
  let index = 0;
  try {
    for await (const packet of packets) {
      const decoded = decoder.decodeFrame(packet.data);
      const [error] = decoded.errors;
      if (error) throw damaged(`Opus packet ${index} does not decode: ${error.message}`);
      out.push(mixDown(decoded.channelData, decoded.samplesDecoded));
      index++;
      if (out.length > limit) {
        complete = false;
        break;
      }
    }
  } finally {
    decoder.free();
  }
  return { pcm: resample(out.join(), rate, sampleRate), complete };
}
