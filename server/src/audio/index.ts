/**
 * Audio: sniff → check the structure → demux (mediabunny) → decode (PCM, opus-decoder, ffmpeg as
 * the fallback) → resample. See decode.ts for the pipeline, voice-note.ts for voice notes' policy.
 */
export { decodeAudio, type DecodeAudioOptions, type DecodedAudio } from './decode.ts';
export { AudioDecodeError, type AudioErrorCode } from './errors.ts';
export { hasFfmpeg } from './ffmpeg.ts';
export { encodeWav, readWav } from './containers/riff.ts';
export { fromInt16, fromS16le, resample, toInt16 } from './pcm.ts';
export { sniffAudio, type AudioContainer } from './sniff.ts';
export {
  DECODE_SAMPLE_RATE,
  VOICE_NOTE_MAX_BYTES,
  VOICE_NOTE_MAX_MS,
  decodeVoiceNote,
  type DecodedVoiceNote,
  type DecodeVoiceNoteOptions,
} from './voice-note.ts';
