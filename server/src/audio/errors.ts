/**
 * Why a file was refused, in the voice notes' codes (SPEC.md V-2); voice uploads map them to
 * theirs (VU-2): `unsupported_audio` → `voice_format_invalid`, `invalid_audio` → `voice_file_damaged`.
 * - `unsupported_audio`: not a container the caller takes, or a codec nothing here decodes;
 * - `invalid_audio`: a known container that is cut short, padded, corrupt (a bad Ogg CRC), or
 *   whose headers lie about its data;
 * - `payload_too_large`: more bytes than the caller takes;
 * - `audio_too_long`: more audio than the caller takes.
 */
export type AudioErrorCode = 'unsupported_audio' | 'invalid_audio' | 'payload_too_large' | 'audio_too_long';

export class AudioDecodeError extends Error {
  constructor(
    readonly code: AudioErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AudioDecodeError';
  }
}

/** A file whose structure is broken: the reason says where. */
export const damaged = (why: string): AudioDecodeError => new AudioDecodeError('invalid_audio', why);

/** A file that is not something we take. */
export const unsupported = (why: string): AudioDecodeError => new AudioDecodeError('unsupported_audio', why);
