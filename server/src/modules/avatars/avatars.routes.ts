import {
  DEFAULT_AVATAR_MODEL_URL,
  SYSTEM_MODELS_URL_PREFIX,
  SYSTEM_PORTRAITS_URL_PREFIX,
  routes,
} from '@alma/protocol';
import { PORTRAIT_MIME } from '../../avatars/portrait/portrait.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import type { StoredModel } from '../../avatars/forge/model-store.ts';
import type { AvatarsService } from './avatars.service.ts';

/** Spec §7 system avatars (SPEC.md AV-1…AV-7). */
export function registerAvatarsRoutes(app: FastifyInstance, deps: { avatars: AvatarsService }): void {
  const { avatars } = deps;

  registerRoute(app, routes.avatars.list, async () => ({
    success: true as const,
    avatars: [...avatars.list()],
    defaultAvatar: avatars.defaultAvatar(),
  }));

  /**
   * The models (AV-2): public (a loader sends no token), the same bytes forever for one version,
   * so cached for a year; HEAD answers the same headers without the body (the client's
   * existence check).
   */
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    model: StoredModel,
    type = 'model/gltf-binary',
    cache = 'public, max-age=31536000, immutable',
  ) => {
    const etag = `"${model.version}"`;
    if (request.headers['if-none-match'] === etag) return reply.code(304).header('etag', etag).send();
    return reply
      .header('content-type', type)
      .header('etag', `"${model.version}"`)
      .header('content-length', model.data.byteLength)
      .header('cache-control', cache)
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(model.data.buffer, model.data.byteOffset, model.data.byteLength));
  };

  // Fastify answers HEAD for every GET route with the same headers and no body.
  app.get<{ Params: { file: string } }>(`${SYSTEM_MODELS_URL_PREFIX}:file`, async (request, reply) =>
    send(request, reply, await avatars.model(request.params.file)),
  );
  app.get(DEFAULT_AVATAR_MODEL_URL, async (request, reply) =>
    send(request, reply, await avatars.model(null)),
  );
  /**
   * The portraits (AV-7): public like the models; the URL the list gives carries the version, so
   * a request for the current one is cached for good and any other is revalidated by its etag.
   */
  app.get<{ Params: { file: string }; Querystring: { v?: string } }>(
    `${SYSTEM_PORTRAITS_URL_PREFIX}:file`,
    async (request, reply) => {
      const portrait = await avatars.portrait(request.params.file);
      const cache =
        request.query.v === portrait.version ? 'public, max-age=31536000, immutable' : 'public, no-cache';
      return send(request, reply, portrait, PORTRAIT_MIME, cache);
    },
  );
}
