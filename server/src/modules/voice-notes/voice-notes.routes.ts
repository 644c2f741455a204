import multipart from '@fastify/multipart';
import { ChatSendSchema, LanguageSchema, routes, VOICE_NOTE_MAX_BYTES, type Language } from '@alma/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { fieldError, fieldErrors } from '../../lib/validation.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import { settledReply } from '../chat/submit.service.ts';
import type { VoiceNotesService } from './voice-notes.service.ts';

const FieldsSchema = ChatSendSchema.pick({
  clientMessageId: true,
  sessionId: true,
  personality: true,
  voiceId: true,
  avatarId: true,
})
  .partial()
  .extend({
    transcriptHint: z.string().max(4000, 'tooLong').optional(),
    language: LanguageSchema.optional(),
  });

const LIMITS = { fileSize: VOICE_NOTE_MAX_BYTES, files: 1, fields: 10, fieldSize: 8192, parts: 12 };

/**
 * The note's form (V-1): one `audio` file part and the text fields. Everything is read and checked
 * before anything is decoded or stored, so a refused form leaves nothing behind.
 */
async function readNoteForm(request: FastifyRequest, language: Language) {
  if (!request.isMultipart()) {
    throw new AppError('multipart_required', { detail: 'POST /message-audio takes multipart/form-data' });
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
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('audio_too_long', { detail: code });
    // A second file part: one note is one file — never "too long" for a short one (issue 11).
    if (code === 'FST_FILES_LIMIT') throw fieldError('audio', 'oneFile', language);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw fieldError('body', 'tooManyFields', language);
    throw new AppError('validation_failed', { detail: `multipart: ${String(error)}` });
  }
  if (truncated) throw new AppError('audio_too_long', { detail: 'over 10 MB' });
  if (!audio || audio.length === 0) throw fieldError('audio', 'required', language);
  const parsed = FieldsSchema.safeParse(fields);
  if (!parsed.success)
    throw new AppError('validation_failed', { fields: fieldErrors(parsed.error, language) });
  return { audio, fields: parsed.data };
}

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
    await scope.register(multipart, { limits: LIMITS });
    scope.post(
      route.path,
      { preHandler: app.authenticate, bodyLimit: VOICE_NOTE_MAX_BYTES + 65_536 },
      async (request) => {
        const userId = request.userId ?? '';
        const callerLanguage = languageFromHeader(request.headers['accept-language']);
        const { audio, fields } = await readNoteForm(request, callerLanguage);
        // The note's language: the `language` field, else the app's Accept-Language (V-3).
        const language = fields.language ?? callerLanguage;
        // No socket made this request: the user's open tabs see the progress.
        const sent = await deps.voiceNotes.submit(userId, { ...fields, audio, language }, (event) => {
          if (fields.clientMessageId)
            deps.publisher.toUser(userId, 'chat:transcription', {
              clientMessageId: fields.clientMessageId,
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
