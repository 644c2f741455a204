import multipart from '@fastify/multipart';
import {
  AVATAR_UPLOAD_MAX_BYTES,
  AvatarUploadFieldsSchema,
  AvatarUploadResponseSchema,
  CompatibilityCheckResponseSchema,
  routes,
  fieldMessage,
  type CustomAvatar,
  type Language,
} from '@alma/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AvatarUploadFields, AvatarUploadsService } from './avatar-uploads.service.ts';
import type { IncomingFile } from './receive.ts';
import { PORTRAIT_MIME } from '../../avatars/portrait/portrait.ts';
import { registerRoute } from '../../http/register-route.ts';
import { AppError } from '../../lib/app-error.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { fieldErrors } from '../../lib/validation.ts';

const DELETED = { es: 'Avatar eliminado', en: 'Avatar deleted' };
const UPLOAD_PATH = '/api/upload/avatar';
const CHECK_PATH = '/api/upload/avatar/compatibility-check';
const MODEL_PATH = '/api/upload/avatar/:id/model';
const PORTRAIT_PATH = '/api/upload/avatar/:id/portrait';

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
 * Spec §7 Uploads for avatars (SPEC.md AU-1…AU-11). The two multipart routes live in their own
 * scope with the multipart parser (every other route still refuses multipart with 415). The file is
 * streamed to disk, never held in memory, and checked as it arrives; the upload is recorded only
 * once the whole request has been read and found well-formed — two files, too many fields or a
 * field that breaks the rules refuse it with nothing stored (no record, no file, no slot).
 */
export async function registerAvatarUploadRoutes(
  app: FastifyInstance,
  deps: { avatarUploads: AvatarUploadsService },
): Promise<void> {
  const { avatarUploads } = deps;

  const fieldsOf = (fields: Record<string, string>, language: Language) => {
    const parsed = AvatarUploadFieldsSchema.safeParse(fields);
    if (!parsed.success)
      throw new AppError('validation_failed', { fields: fieldErrors(parsed.error, language) });
    return parsed.data;
  };

  /**
   * Reads the whole multipart body: text fields, and exactly one file part `fileField` whose
   * stream goes to `take` (which receives and checks it). `finish` runs only when the body was
   * read to its end without a problem; otherwise `abandon` undoes what `take` did.
   */
  async function readMultipart<S, T>(
    request: FastifyRequest,
    fileField: string,
    step: {
      take: (input: IncomingFile, fields: AvatarUploadFields) => Promise<S>;
      finish: (staged: S, fields: AvatarUploadFields) => Promise<T>;
      abandon: (staged: S) => Promise<void>;
    },
  ): Promise<T> {
    const language = languageFromHeader(request.headers['accept-language']);
    if (!request.isMultipart())
      throw new AppError('multipart_required', { detail: `${request.url} takes multipart/form-data` });
    const fields: Record<string, string> = {};
    let staged: { value: S } | null = null;
    try {
      try {
        for await (const part of request.parts({ limits: { fileSize: AVATAR_UPLOAD_MAX_BYTES } })) {
          if (part.type === 'field') {
            if (typeof part.value === 'string') fields[part.fieldname] = part.value;
            continue;
          }
          if (part.fieldname !== fileField || staged) {
            part.file.resume();
            throw new AppError('validation_failed', {
              fields: [
                { field: part.fieldname, code: 'invalid', message: fieldMessage(language, 'invalid') },
              ],
              detail: `unexpected file part ${part.fieldname}`,
            });
          }
          // Fields sent before the file are checked before its bytes are read.
          const early = fieldsOf(fields, language);
          const file = part.file;
          staged = {
            value: await step.take(
              { file, fileName: part.filename || '', truncated: () => file.truncated, field: fileField },
              early,
            ),
          };
        }
      } catch (error) {
        if (error instanceof AppError) throw error;
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('avatar_file_too_large', { detail: code });
        throw new AppError('validation_failed', { detail: `multipart: ${String(error)}` });
      }
      if (!staged)
        throw new AppError('validation_failed', {
          fields: [{ field: fileField, code: 'required', message: fieldMessage(language, 'required') }],
        });
      const result = await step.finish(staged.value, fieldsOf(fields, language));
      staged = null;
      return result;
    } finally {
      if (staged) await step.abandon(staged.value);
    }
  }

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: AVATAR_UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
    });
    const options = { preHandler: app.authenticate, bodyLimit: AVATAR_UPLOAD_MAX_BYTES + 65_536 };

    // AU-1: checked and recorded as pending, answered at once (202); processing follows.
    scope.post(UPLOAD_PATH, options, async (request, reply) => {
      const language = languageFromHeader(request.headers['accept-language']);
      const avatar = await readMultipart(request, 'avatar', {
        take: (input) => avatarUploads.stage(request.userId ?? '', input, language),
        finish: (staged, fields) => staged.commit(fields),
        abandon: (staged) => staged.discard(),
      });
      return reply.status(202).send(AvatarUploadResponseSchema.parse({ success: true, avatar }));
    });

    // The check holds its slot while it runs, so its answer waits for the body's end like an upload.
    scope.post(CHECK_PATH, options, async (request) => {
      const language = languageFromHeader(request.headers['accept-language']);
      const analysis = await readMultipart(request, 'model', {
        take: async (input) => avatarUploads.check(request.userId ?? '', input, language),
        finish: async (result) => result,
        abandon: async () => undefined,
      });
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
  // AV-7: its portrait the same way (an upload never changes: cached for a year, privately).
  const ownFile = (
    url: string,
    find: typeof avatarUploads.model,
    headers: { type: string; cache: string },
    missing: (id: string) => AppError,
  ) =>
    app.route<{ Params: { id: string } }>({
      method: ['GET', 'HEAD'],
      url,
      exposeHeadRoute: false,
      preHandler: app.authenticate,
      handler: async (request, reply) => {
        const file = await find(request.userId ?? '', request.params.id);
        if (!file) throw missing(request.params.id);
        reply
          .header('content-type', headers.type)
          .header('content-length', file.size)
          .header('cache-control', headers.cache)
          .header('x-content-type-options', 'nosniff');
        return request.method === 'HEAD' ? reply.send() : reply.send(file.read());
      },
    });
  ownFile(
    MODEL_PATH,
    avatarUploads.model,
    { type: 'model/gltf-binary', cache: 'private, max-age=3600' },
    (id) => new AppError('avatar_not_ready', { detail: `avatar ${id}` }),
  );
  ownFile(
    PORTRAIT_PATH,
    avatarUploads.portrait,
    { type: PORTRAIT_MIME, cache: 'private, max-age=31536000, immutable' },
    (id) => new AppError('not_found', { detail: `portrait of ${id}` }),
  );
}
