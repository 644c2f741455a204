import { AUDIO_URL_PREFIX, isAudioFileName, routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { AppError } from '../../lib/app-error.ts';
import { audioContentType, type AudioService } from './audio.service.ts';

/** A single byte range of a `Range` header over `size` bytes; null: none or unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null; // several ranges or another unit: answer the whole file
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

export function registerAudioRoutes(app: FastifyInstance, deps: { audio: AudioService }): void {
  const { audio } = deps;

  registerRoute(app, routes.audio.check, async ({ params }, { userId, reply }) => {
    void reply.header('cache-control', 'no-store');
    return { exists: await audio.exists(userId, params.filename) };
  });

  registerRoute(app, routes.audio.cleanup, async (_input, { userId }) => ({
    success: true as const,
    ...(await audio.cleanupAll(userId)),
  }));

  /**
   * The file itself (S-4): public by its unguessable name (an `<audio src>` sends no bearer
   * token), cached for long (a name is never reused for other bytes), with byte ranges for seeking.
   */
  app.get<{ Params: { filename: string } }>(`${AUDIO_URL_PREFIX}:filename`, async (request, reply) => {
    const { filename } = request.params;
    if (!isAudioFileName(filename)) throw new AppError('not_found');
    const info = await audio.files.stat(filename);
    if (!info) throw new AppError('not_found');
    void reply
      .header('content-type', audioContentType(filename))
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff');
    const range = parseRange(request.headers.range, info.size);
    if (range === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${info.size}`).send();
    }
    if (range) {
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(audio.files.read(filename, range));
    }
    return reply.header('content-length', info.size).send(audio.files.read(filename));
  });
}
