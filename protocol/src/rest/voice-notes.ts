import { z } from 'zod';
import { ChatReplySchema, MessageSchema } from '../entities.ts';
import { defineRoute } from './define-route.ts';

/** The largest voice note, in bytes and in milliseconds of audio (SPEC.md V-2). */
export const VOICE_NOTE_MAX_BYTES = 10 * 1024 * 1024;
export const VOICE_NOTE_MAX_MS = 10 * 60 * 1000;

/**
 * `POST /message-audio` (spec §7; SPEC.md V-1): multipart/form-data with the file in `audio`
 * (webm/opus, ogg/opus; mp4/aac when the server has ffmpeg — recognised by content) and text
 * fields `sessionId`, `personality`, `voiceId`, `avatarId`, `clientMessageId`, `transcriptHint`,
 * `language` (all optional). Like `POST /message` it answers when the reply is stored: the reply, plus the stored
 * voice-note message (content = transcript, `audioUrl` = the note). Not in `allRoutes`: its body
 * is multipart, not JSON (the JSON fuzzer would only meet a 406 content-type refusal).
 */
export const voiceNoteRoutes = {
  messageAudio: defineRoute({
    method: 'POST',
    path: '/message-audio',
    auth: true,
    response: ChatReplySchema.extend({ userMessage: MessageSchema, transcription: z.string() }),
  }),
} as const;
