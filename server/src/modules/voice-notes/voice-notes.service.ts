import {
  AUDIO_URL_PREFIX,
  MESSAGE_MAX_LENGTH,
  type Language,
  type Personality,
  type ServerPayload,
} from '@alma/protocol';
import { AudioDecodeError, decodeVoiceNote, type DecodedAudio } from '../../engines/audio-decode/decode.ts';
import type { Transcriber } from '../../engines/transcription/types.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import type { MessageRepository } from '../../storage/types.ts';
import type { ChatService, SendResult } from '../chat/chat.service.ts';
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
  originSocketId?: string | undefined;
}

export type TranscriptionProgress = Omit<ServerPayload<'chat:transcription'>, 'clientMessageId'>;

export interface VoiceNotesDeps {
  chat: ChatService;
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
 * Voice notes (SPEC.md V-1…V-6): decode (by content), check the voice minutes, transcribe, store
 * the audio and the user message (its content the transcript, `audioUrl` the note), count the
 * seconds. Any failure before the message is stored leaves nothing behind.
 */
export function createVoiceNotesService(deps: VoiceNotesDeps) {
  async function decode(audio: Uint8Array): Promise<DecodedAudio> {
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

  return {
    async submit(
      userId: string,
      input: VoiceNoteInput,
      progress: (event: TranscriptionProgress) => void,
    ): Promise<SendResult & { durationMs: number; engine: string }> {
      // A retried note (same clientMessageId) is answered with what was stored (C-2).
      if (input.clientMessageId) {
        const existing = await deps.messages.findByClientMessageId(userId, input.clientMessageId);
        if (existing) {
          const sent = await deps.chat.send(userId, {
            clientMessageId: input.clientMessageId,
            message: existing.content,
          });
          return { ...sent, durationMs: 0, engine: 'stored' };
        }
      }
      const decoded = await decode(input.audio);
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
      let text: string;
      let engine: string;
      try {
        const result = await deps.transcriber.transcribe({
          pcm: decoded.pcm,
          sampleRate: decoded.sampleRate,
          hint: input.transcriptHint,
          language: input.language,
          signal: AbortSignal.timeout(120_000),
        });
        text = result.text.slice(0, MESSAGE_MAX_LENGTH);
        engine = result.engine;
      } catch (error) {
        if (isAppError(error)) throw error;
        deps.log.error({ err: error }, 'transcription failed');
        throw new AppError('voice_note_failed', { detail: String(error) });
      }
      const name = `${deps.newId()}.${decoded.extension}`;
      await deps.audioFiles.put(name, input.audio);
      let sent: SendResult;
      try {
        sent = await deps.chat.send(userId, {
          clientMessageId: input.clientMessageId,
          sessionId: input.sessionId,
          message: text,
          personality: input.personality,
          voiceId: input.voiceId,
          originSocketId: input.originSocketId,
          audioUrl: `${AUDIO_URL_PREFIX}${name}`,
        });
      } catch (error) {
        await deps.audioFiles.delete(name).catch(() => false);
        throw error;
      }
      if (sent.duplicate) {
        await deps.audioFiles.delete(name).catch(() => false);
      } else {
        deps.publisher.toUser(userId, 'usage:updated', await deps.voice.add(userId, seconds));
      }
      progress({ progress: 100, text: sent.message.content });
      return { ...sent, durationMs: decoded.durationMs, engine };
    },
  };
}

export type VoiceNotesService = ReturnType<typeof createVoiceNotesService>;
