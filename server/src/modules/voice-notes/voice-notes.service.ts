import {
  AUDIO_URL_PREFIX,
  MESSAGE_MAX_LENGTH,
  type Language,
  type Personality,
  type ServerPayload,
} from '@alma/protocol';
import { AudioDecodeError, decodeVoiceNote, type DecodedVoiceNote } from '../../audio/index.ts';
import type { Transcriber } from '../../engines/transcription/types.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import type { MessageRepository } from '../../storage/types.ts';
import type { SubmitOptions, SubmitService, Submitted } from '../chat/submit.service.ts';
import type { VoiceQuota } from '../plans/plans.service.ts';

export interface VoiceNoteInput {
  clientMessageId?: string | undefined;
  sessionId?: string | undefined;
  audio: Uint8Array;
  mimeType?: string | undefined;
  transcriptHint?: string | undefined;
  /** The language spoken in the note: pocketsphinx transcribes English only (V-3). */
  language?: Language | undefined;
  personality?: Personality | undefined;
  voiceId?: string | undefined;
  avatarId?: string | undefined;
}

export type TranscriptionProgress = Omit<ServerPayload<'chat:transcription'>, 'clientMessageId'>;

export interface VoiceNotesDeps {
  chat: Pick<SubmitService, 'submit'>;
  messages: MessageRepository;
  transcriber: Transcriber | null;
  audioFiles: BlobStore;
  voice: VoiceQuota;
  publisher: Publisher;
  newId: IdGenerator;
  log: Log;
  /** The ffmpeg for MP4/AAC notes; null: none. Default: `ffmpeg` on PATH. */
  ffmpeg?: string | null;
}

/**
 * Voice notes (SPEC.md V-1…V-6): a transcription step in front of the chat's `submit`. Decode (by
 * content), check the voice minutes, transcribe, store the audio; then the transcript is
 * submitted like a typed message — its `audioUrl` the note, its reply the normal streamed one —
 * and once stored the note's seconds are counted. Any failure before the message is stored
 * leaves nothing behind.
 */
export function createVoiceNotesService(deps: VoiceNotesDeps) {
  async function decode(audio: Uint8Array): Promise<DecodedVoiceNote> {
    try {
      return await decodeVoiceNote(audio, { ffmpeg: deps.ffmpeg });
    } catch (error) {
      if (error instanceof AudioDecodeError) {
        const code = error.code === 'payload_too_large' ? 'audio_too_long' : error.code;
        throw new AppError(code, { detail: error.message });
      }
      throw new AppError('invalid_audio', { detail: String(error) });
    }
  }

  async function transcribe(
    transcriber: Transcriber,
    decoded: DecodedVoiceNote,
    input: VoiceNoteInput,
  ): Promise<{ text: string; engine: string }> {
    try {
      const result = await transcriber.transcribe({
        pcm: decoded.pcm,
        sampleRate: decoded.sampleRate,
        hint: input.transcriptHint,
        language: input.language,
        signal: AbortSignal.timeout(120_000),
      });
      return { text: result.text.slice(0, MESSAGE_MAX_LENGTH), engine: result.engine };
    } catch (error) {
      if (isAppError(error)) throw error;
      deps.log.error({ err: error }, 'transcription failed');
      throw new AppError('voice_note_failed', { detail: String(error) });
    }
  }

  return {
    /**
     * Transcribes the note and submits its transcript; `progress` reports each step (V-4).
     * `options` are the edge's, as for a typed message (the sender follows the session).
     */
    async submit(
      userId: string,
      input: VoiceNoteInput,
      progress: (event: TranscriptionProgress) => void,
      options: SubmitOptions = {},
    ): Promise<Submitted & { durationMs: number; engine: string }> {
      const { audio } = input;
      // What a typed message would carry besides its text.
      const carried = {
        clientMessageId: input.clientMessageId,
        sessionId: input.sessionId,
        personality: input.personality,
        voiceId: input.voiceId,
        avatarId: input.avatarId,
      };
      // A retried note (same clientMessageId) is answered with what was stored (C-2).
      if (input.clientMessageId) {
        const existing = await deps.messages.findByClientMessageId(userId, input.clientMessageId);
        if (existing) {
          const sent = await deps.chat.submit(userId, { ...carried, message: existing.content }, options);
          return { ...sent, durationMs: 0, engine: 'stored' };
        }
      }
      const decoded = await decode(audio);
      progress({ progress: 10 });
      const seconds = decoded.durationMs / 1000;
      const reached = await deps.voice.check(userId, seconds);
      if (reached) {
        deps.publisher.toUser(userId, 'limit:reached', reached);
        throw new AppError('limit_reached', { detail: `voice ${reached.used}/${reached.limit} min` });
      }
      if (!deps.transcriber) {
        throw new AppError('transcription_not_configured', { detail: 'TRANSCRIBE_ENGINE=none' });
      }
      progress({ progress: 50 });
      const { text, engine } = await transcribe(deps.transcriber, decoded, input);
      const name = `${deps.newId()}.${decoded.extension}`;
      await deps.audioFiles.put(name, audio);
      let keptAudio = false;
      try {
        const sent = await deps.chat.submit(
          userId,
          { ...carried, message: text, audioUrl: `${AUDIO_URL_PREFIX}${name}` },
          {
            originSocketId: options.originSocketId,
            acked: options.acked,
            onStored: async (stored) => {
              // A retry racing this one stored the note first: this copy of the audio is not needed.
              keptAudio = !stored.duplicate;
              if (keptAudio)
                deps.publisher.toUser(userId, 'usage:updated', await deps.voice.add(userId, seconds));
              progress({ progress: 100, text: stored.message.content });
              await options.onStored?.(stored);
            },
          },
        );
        return { ...sent, durationMs: decoded.durationMs, engine };
      } finally {
        if (!keptAudio) await deps.audioFiles.delete(name).catch(() => false);
      }
    },
  };
}

export type VoiceNotesService = ReturnType<typeof createVoiceNotesService>;
