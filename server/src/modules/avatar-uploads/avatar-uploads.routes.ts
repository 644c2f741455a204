import { createReadStream } from 'node:fs';
import multipart from '@fastify/multipart';
import {
  AVATAR_UPLOAD_MAX_BYTES,
  AvatarUploadFieldsSchema,
  AvatarUploadResponseSchema,
  CompatibilityCheckResponseSchema,
  routes,
  type CustomAvatar,
} from '@alma/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AvatarUploadsService, AvatarUploadInput } from './avatar-uploads.service.ts';
import { registerRoute } from '../../http/register-route.ts';
import { AppError } from '../../lib/app-error.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { fieldErrors } from '../../lib/validation.ts';

const DELETED = { es: 'Avatar eliminado', en: 'Avatar deleted' };
const UPLOAD_PATH = '/api/upload/avatar';
const CHECK_PATH = '/api/upload/avatar/compatibility-check';
const MODEL_PATH = '/api/upload/avatar/:id/model';

const statusOf = (a: CustomAvatar) => ({
  id: a.id,
  status: a.status,
  step: a.step,
  progress: a.progress,
  name: a.name,
  description: a.description,
  category: a.category,
  estimatedTime: a.estimatedTime,
  startTime: a.startTime,
  isReady: a.isReady,
  hasError: a.hasError,
  error: a.error,
});

/**
 * Spec §7 Uploads for avatars (SPEC.md AU-1…AU-9). The two multipart routes live in their own
 * scope with the multipart parser (every other route still refuses multipart with 415). Text
 * fields must come before the file part, as browsers' FormData sends them when appended first;
 * the file is streamed to disk, never held in memory.
 */
export async function registerAvatarUploadRoutes(
  app: FastifyInstance,
  deps: { avatarUploads: AvatarUploadsService },
): Promise<void> {
  const { avatarUploads } = deps;

  /** Reads the multipart body up to the file part `fileField`, and hands its stream to `use`. */
  async function withFile<T>(
    request: FastifyRequest,
    fileField: string,
    use: (input: AvatarUploadInput) => Promise<T>,
  ): Promise<T> {
    const language = languageFromHeader(request.headers['accept-language']);
    if (!request.isMultipart())
      throw new AppError('unsupported_media_type', { detail: `${request.url} takes multipart/form-data` });
    const fields: Record<string, string> = {};
    let result: { value: T } | null = null;
    try {
      for await (const part of request.parts({ limits: { fileSize: AVATAR_UPLOAD_MAX_BYTES } })) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== fileField || result) {
          part.file.resume(); // an unexpected file part is drained and ignored
          continue;
        }
        const parsed = AvatarUploadFieldsSchema.safeParse(fields);
        if (!parsed.success) {
          part.file.resume();
          throw new AppError('validation_failed', { fields: fieldErrors(parsed.error, language) });
        }
        const file = part.file;
        result = {
          value: await use({
            file,
            fileName: part.filename || '',
            truncated: () => file.truncated,
            fields: parsed.data,
          }),
        };
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('avatar_file_too_large', { detail: code });
      throw new AppError('validation_failed', { detail: `multipart: ${String(error)}` });
    }
    if (!result)
      throw new AppError('validation_failed', {
        fields: [
          {
            field: fileField,
            code: 'required',
            message: language === 'es' ? 'Este campo es obligatorio' : 'This field is required',
          },
        ],
      });
    return result.value;
  }

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: AVATAR_UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
    });
    const options = { preHandler: app.authenticate, bodyLimit: AVATAR_UPLOAD_MAX_BYTES + 65_536 };

    // AU-1: checked and recorded as pending, answered at once (202); processing follows.
    scope.post(UPLOAD_PATH, options, async (request, reply) => {
      const language = languageFromHeader(request.headers['accept-language']);
      const avatar = await withFile(request, 'avatar', (input) =>
        avatarUploads.upload(request.userId ?? '', input, language),
      );
      return reply.status(202).send(AvatarUploadResponseSchema.parse({ success: true, avatar }));
    });

    scope.post(CHECK_PATH, options, async (request) => {
      const analysis = await withFile(request, 'model', (input) =>
        avatarUploads.check(request.userId ?? '', input),
      );
      return CompatibilityCheckResponseSchema.parse({
        success: true,
        compatibility: analysis.report,
        rigMetadata: analysis.rig,
        animationConfig: analysis.animationConfig,
      });
    });
  });

  const lang = (ctx: { request: FastifyRequest }) =>
    languageFromHeader(ctx.request.headers['accept-language']);

  registerRoute(app, routes.avatarUploads.status, async ({ params }, ctx) => ({
    success: true as const,
    avatar: statusOf(await avatarUploads.get(ctx.userId, params.id, lang(ctx))),
  }));
  registerRoute(app, routes.avatarUploads.cancel, async ({ params }, ctx) => ({
    success: true as const,
    avatar: statusOf(await avatarUploads.cancel(ctx.userId, params.id, lang(ctx))),
  }));
  registerRoute(app, routes.avatarUploads.stats, async (_, ctx) => ({
    success: true as const,
    stats: await avatarUploads.stats(ctx.userId),
  }));
  registerRoute(app, routes.avatarUploads.get, async ({ params }, ctx) => ({
    success: true as const,
    avatar: await avatarUploads.get(ctx.userId, params.id, lang(ctx)),
  }));
  registerRoute(app, routes.avatarUploads.list, async ({ params }, ctx) => {
    // AU-6: the list is the caller's own; naming anyone else is refused whether or not they exist.
    if (params.userId !== ctx.userId) throw new AppError('forbidden', { detail: `list of ${params.userId}` });
    return { success: true as const, avatars: await avatarUploads.list(ctx.userId, lang(ctx)) };
  });
  registerRoute(app, routes.avatarUploads.remove, async ({ params, body }, ctx) => {
    if (body?.userId !== undefined && body.userId !== ctx.userId)
      throw new AppError('forbidden', { detail: `delete for ${body.userId}` });
    await avatarUploads.remove(ctx.userId, params.id);
    return { success: true as const, message: DELETED[lang(ctx)] };
  });

  // AU-7: the model binary for its owner, with the bearer token; HEAD says whether it exists.
  app.route<{ Params: { id: string } }>({
    method: ['GET', 'HEAD'],
    url: MODEL_PATH,
    exposeHeadRoute: false,
    preHandler: app.authenticate,
    handler: async (request, reply) => {
      const model = await avatarUploads.model(request.userId ?? '', request.params.id);
      if (!model) throw new AppError('avatar_not_ready', { detail: `avatar ${request.params.id}` });
      reply
        .header('content-type', 'model/gltf-binary')
        .header('content-length', model.size)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff');
      return request.method === 'HEAD' ? reply.send() : reply.send(createReadStream(model.path));
    },
  });
}
