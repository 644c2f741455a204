import multipart from '@fastify/multipart';
import { CUSTOM_VOICES_URL_PREFIX, VOICE_UPLOAD_MAX_BYTES, fieldMessage, routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { AppError } from '../../lib/app-error.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { fieldError } from '../../lib/validation.ts';
import type { VoiceUploadsService } from './voice-uploads.service.ts';

const DELETED = { es: 'Voz eliminada', en: 'Voice deleted' };

/**
 * Spec §7 voice uploads (SPEC.md VU-1…VU-9). The upload is multipart and registered in its own
 * scope, so the multipart parser exists for it alone (every other route still refuses multipart
 * with 415); the list and delete are ordinary protocol routes.
 */
export async function registerVoiceUploadRoutes(
  app: FastifyInstance,
  deps: { voiceUploads: VoiceUploadsService },
): Promise<void> {
  const { voiceUploads } = deps;
  const route = routes.voiceUploads.upload;

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: VOICE_UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
    });
    scope.post(
      route.path,
      { preHandler: app.authenticate, bodyLimit: VOICE_UPLOAD_MAX_BYTES + 65_536 },
      async (request, reply) => {
        const userId = request.userId ?? '';
        const language = languageFromHeader(request.headers['accept-language']);
        if (!request.isMultipart())
          throw new AppError('multipart_required', { detail: `${route.path} takes multipart/form-data` });
        const result = await voiceUploads.withSlot(userId, async (limits) => {
          const maxBytes = Math.min(VOICE_UPLOAD_MAX_BYTES, limits.maxVoiceFileSize);
          const fields: Record<string, string> = {};
          let file: { data: Uint8Array; name: string } | null = null;
          let truncated = false;
          try {
            for await (const part of request.parts({ limits: { fileSize: maxBytes } })) {
              if (part.type === 'file') {
                const data = await part.toBuffer();
                if (part.fieldname === 'voice') {
                  file = { data, name: part.filename || '' };
                  truncated = part.file.truncated;
                }
              } else if (typeof part.value === 'string') {
                fields[part.fieldname] = part.value;
              }
            }
          } catch (error) {
            const code = (error as { code?: string }).code;
            if (code === 'FST_REQ_FILE_TOO_LARGE')
              throw new AppError('voice_file_too_large', { detail: code });
            if (code === 'FST_FILES_LIMIT') throw fieldError('voice', 'oneFile', language, code);
            if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
              throw fieldError('body', 'tooManyFields', language, code);
            throw new AppError('validation_failed', { detail: `multipart: ${String(error)}` });
          }
          if (truncated) throw new AppError('voice_file_too_large', { detail: `over ${maxBytes} bytes` });
          // VU-1: the consent checkbox's answer travels with the file.
          if (fields['consent'] !== 'true') {
            throw new AppError('validation_failed', {
              fields: [
                {
                  field: 'consent',
                  code: 'voiceConsentRequired',
                  message: fieldMessage(language, 'voiceConsentRequired'),
                },
              ],
            });
          }
          if (!file || file.data.length === 0) {
            throw new AppError('validation_failed', {
              fields: [{ field: 'voice', code: 'required', message: fieldMessage(language, 'required') }],
            });
          }
          const voiceLanguage =
            fields['language'] === 'en' || fields['language'] === 'es' ? fields['language'] : language;
          return voiceUploads.upload(userId, limits, {
            data: file.data,
            fileName: file.name,
            name: fields['name']?.slice(0, 200),
            description: fields['description']?.slice(0, 500),
            language: voiceLanguage,
          });
        });
        return reply.status(201).send(route.response.parse({ success: true, ...result }));
      },
    );
  });

  registerRoute(app, routes.voiceUploads.list, async ({ params }, { userId }) => {
    // VU-6: the list is the caller's own; naming anyone else is refused whether or not they exist.
    if (params.userId !== userId) throw new AppError('forbidden', { detail: `list of ${params.userId}` });
    return { success: true as const, voices: await voiceUploads.list(userId) };
  });

  registerRoute(app, routes.voiceUploads.remove, async ({ params }, { userId, request }) => {
    await voiceUploads.remove(userId, params.id);
    return {
      success: true as const,
      message: DELETED[languageFromHeader(request.headers['accept-language'])],
    };
  });

  /**
   * A custom voice's sample (VU-9): like reply audio (S-4), public by its unguessable name — an
   * `<audio src>` sends no token — and found only under its owner's id.
   */
  app.get<{ Params: { userId: string; file: string } }>(
    `${CUSTOM_VOICES_URL_PREFIX}:userId/:file`,
    async (request, reply) => {
      const sample = await voiceUploads.sample(request.params.userId, request.params.file);
      if (!sample) throw new AppError('not_found', { detail: `sample ${request.params.file}` });
      return reply
        .header('content-type', sample.mimeType)
        .header('content-length', sample.size)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(sample.stream);
    },
  );
}
