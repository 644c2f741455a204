import { SYSTEM_VOICES_URL_PREFIX, routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { languageFromHeader } from '../../lib/language.ts';
import type { VoicesService } from './voices.service.ts';

const LIST_MESSAGE = {
  es: (n: number) => `${n} voces disponibles`,
  en: (n: number) => `${n} voices available`,
};

/** Spec §7 Voices (SPEC.md V-2…V-5). */
export function registerVoicesRoutes(app: FastifyInstance, deps: { voices: VoicesService }): void {
  const { voices } = deps;

  registerRoute(app, routes.voices.list, async (_input, { request, userId }) => {
    const list = await voices.listFor(userId);
    const language = languageFromHeader(request.headers['accept-language']);
    return { success: true as const, voices: list, message: LIST_MESSAGE[language](list.length) };
  });

  registerRoute(app, routes.voices.recommended, async ({ params }) => ({
    success: true as const,
    voices: voices.recommended(params.avatarId),
  }));

  registerRoute(app, routes.voices.get, async ({ params }, { userId }) => ({
    success: true as const,
    voice: await voices.getFor(userId, params.id),
  }));

  registerRoute(app, routes.voices.select, async ({ body }, { userId, request }) => ({
    success: true as const,
    voice: await voices.select(userId, body.voiceId, languageFromHeader(request.headers['accept-language'])),
  }));

  /**
   * A system voice's preview (V-5): public, like any `<audio src>`; generated on first request,
   * then the same bytes forever for that name, so it is cached for long. Spec §7 also names
   * `/api/voices/audio/{file}`; for system voices it answers the same.
   */
  for (const prefix of [SYSTEM_VOICES_URL_PREFIX, '/api/voices/audio/']) {
    app.get<{ Params: { file: string } }>(`${prefix}:file`, async (request, reply) => {
      const { data, version } = await voices.preview(request.params.file);
      return reply
        .header('content-type', 'audio/mpeg')
        .header('etag', `"${version}"`)
        .header('content-length', data.byteLength)
        .header('cache-control', 'public, max-age=604800')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    });
  }
}
