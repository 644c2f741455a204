import multipart from '@fastify/multipart';
import { ChatSendSchema, LanguageSchema, routes, VOICE_NOTE_MAX_BYTES } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { fieldErrors } from '../../lib/validation.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import { settledReply } from '../chat/submit.service.ts';
import type { VoiceNotesService } from './voice-notes.service.ts';

const FieldsSchema = ChatSendSchema.pick({
  clientMessageId: true,
  sessionId: true,
  personality: true,
  voiceId: true,
})
  .partial()
  .extend({
    transcriptHint: z.string().max(4000, 'tooLong').optional(),
    language: LanguageSchema.optional(),
  });

/**
 * `POST /message-audio` (SPEC.md V-1), multipart. Registered in its own scope, so the multipart
 * parser exists for this route only: every other route still refuses multipart with 415.
 */
export async function registerVoiceNoteRoutes(
  app: FastifyInstance,
  deps: { voiceNotes: VoiceNotesService; publisher: Publisher },
): Promise<void> {
  const route = routes.voiceNotes.messageAudio;
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: VOICE_NOTE_MAX_BYTES, files: 1, fields: 10, fieldSize: 8192, parts: 12 },
    });
    scope.post(
      route.path,
      { preHandler: app.authenticate, bodyLimit: VOICE_NOTE_MAX_BYTES + 65_536 },
      async (request) => {
        const userId = request.userId ?? '';
        if (!request.isMultipart()) {
          throw new AppError('unsupported_media_type', {
            detail: 'POST /message-audio takes multipart/form-data',
          });
        }
        const fields: Record<string, string> = {};
        let audio: Uint8Array | null = null;
        let truncated = false;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              const data = await part.toBuffer();
              if (part.fieldname === 'audio') {
                audio = data;
                truncated = part.file.truncated;
              }
            } else if (typeof part.value === 'string') {
              fields[part.fieldname] = part.value;
            }
          }
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
            throw new AppError('audio_too_long', { detail: code });
          throw new AppError('validation_failed', { detail: `multipart: ${String(error)}` });
        }
        if (truncated) throw new AppError('audio_too_long', { detail: 'over 10 MB' });
        if (!audio || audio.length === 0) {
          throw new AppError('validation_failed', {
            fields: [{ field: 'audio', code: 'required', message: 'audio is required' }],
          });
        }
        const parsed = FieldsSchema.safeParse(fields);
        if (!parsed.success) {
          throw new AppError('validation_failed', {
            fields: fieldErrors(parsed.error, languageFromHeader(request.headers['accept-language'])),
          });
        }
        const body = parsed.data;
        // No socket made this request: the user's open tabs see the progress.
        // The note's language: the `language` field, else the app's Accept-Language (V-3).
        const language = body.language ?? languageFromHeader(request.headers['accept-language']);
        const sent = await deps.voiceNotes.submit(userId, { ...body, audio, language }, (event) => {
          if (body.clientMessageId)
            deps.publisher.toUser(userId, 'chat:transcription', {
              clientMessageId: body.clientMessageId,
              ...event,
            });
        });
        const outcome = await settledReply(sent.reply);
        return route.response.parse({
          ...outcome.reply,
          userMessage: sent.message,
          transcription: sent.message.content,
        });
      },
    );
  });
}
