import {
  AudioSampleSink,
  BufferSource,
  EncodedPacketSink,
  Input,
  MATROSKA,
  MP3,
  MP4,
  OGG,
  QTFF,
  WEBM,
  type EncodedPacket,
  type InputAudioTrack,
  type InputFormat,
} from 'mediabunny';
import { AudioDecodeError, damaged, unsupported } from './errors.ts';
import { mixDown, PcmCollector } from './pcm.ts';
import type { AudioContainer } from './sniff.ts';

/**
 * Demuxing with mediabunny, once the container's structure has been checked: the audio track,
 * its codec and declared duration, its packets. mediabunny's own failures (a sample table pointing
 * outside the file, a missing codec header) make the file `invalid_audio`.
 */
const FORMATS: Record<Exclude<AudioContainer, 'wav'>, InputFormat[]> = {
  mp3: [MP3],
  ogg: [OGG],
  webm: [WEBM, MATROSKA],
  mp4: [MP4, QTFF],
};

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'unreadable';

export interface AudioTrack {
  track: InputAudioTrack;
  codec: string;
  /** What the container says, in seconds (sample tables, granule positions, the last packet). */
  declaredSeconds: number;
  /** The packets in order, ending at `untilSeconds` (exclusive) when given. */
  packets(untilSeconds?: number): AsyncIterable<EncodedPacket>;
}

/** Opens the primary audio track of `data` for `run`, then releases it. */
export async function withAudioTrack<T>(
  data: Uint8Array,
  container: Exclude<AudioContainer, 'wav'>,
  run: (track: AudioTrack) => Promise<T>,
): Promise<T> {
  const input = new Input({ source: new BufferSource(data), formats: FORMATS[container] });
  try {
    let opened: AudioTrack;
    try {
      const track = await input.getPrimaryAudioTrack();
      if (!track) throw unsupported(`no audio track in the ${container} file`);
      if (!track.codec) throw unsupported(`an audio codec mediabunny does not know in the ${container} file`);
      const declaredSeconds = await track.computeDuration();
      opened = {
        track,
        codec: track.codec,
        declaredSeconds,
        packets: (untilSeconds) =>
          guarded(new EncodedPacketSink(track).packets(undefined, undefined), untilSeconds),
      };
    } catch (error) {
      if (error instanceof AudioDecodeError) throw error;
      throw damaged(`unreadable ${container}: ${reason(error)}`);
    }
    return await run(opened);
  } finally {
    input.dispose();
  }
}

/** Packets up to a time, with mediabunny's read failures turned into `invalid_audio`. */
async function* guarded(
  packets: AsyncGenerator<EncodedPacket>,
  untilSeconds?: number,
): AsyncIterable<EncodedPacket> {
  try {
    for await (const packet of packets) {
      if (untilSeconds !== undefined && packet.timestamp >= untilSeconds) return;
      yield packet;
    }
  } catch (error) {
    if (error instanceof AudioDecodeError) throw error;
    throw damaged(`a packet cannot be read: ${reason(error)}`);
  }
}

/** PCM tracks (`pcm-s16`, `pcm-f32`…) through mediabunny's own PCM decoder, up to `maxSeconds`. */
export async function decodePcmTrack(
  track: InputAudioTrack,
  maxSeconds: number,
): Promise<{ pcm: Float32Array; sampleRate: number; complete: boolean }> {
  const out = new PcmCollector();
  const limit = Math.ceil(maxSeconds * track.sampleRate);
  let complete = true;
  try {
    for await (const sample of new AudioSampleSink(track).samples()) {
      try {
        const channels: Float32Array[] = [];
        for (let c = 0; c < sample.numberOfChannels; c++) {
          const plane = new Float32Array(sample.numberOfFrames);
          sample.copyTo(plane, { planeIndex: c, format: 'f32-planar' });
          channels.push(plane);
        }
        out.push(mixDown(channels, sample.numberOfFrames));
      } finally {
        sample.close();
      }
      if (out.length > limit) {
        complete = false;
        break;
      }
    }
  } catch (error) {
    throw damaged(`PCM samples cannot be read: ${reason(error)}`);
  }
  return { pcm: out.join(), sampleRate: track.sampleRate, complete };
}
