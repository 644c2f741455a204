import fastifyStatic from '@fastify/static';
import { errorMessage } from '@alma/protocol';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { languageFromHeader } from '../lib/language.ts';

/**
 * Serves the built client with an SPA fallback: any other GET that accepts HTML gets index.html,
 * and the client router takes over (unknown paths → / there, spec §2). Assets go out precompressed
 * (brotli or gzip) and fingerprinted ones are immutable for a year.
 */
export async function registerClient(app: FastifyInstance, clientDist: string): Promise<void> {
  const hasClient = existsSync(join(clientDist, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (client/vite.config.ts): sent by the
      // caller's Accept-Encoding, brotli first, with `Vary: Accept-Encoding`; no CPU per request.
      preCompressed: true,
      setHeaders: (reply, path) => {
        // Vite fingerprints assets: cache them for a year; index.html must always revalidate.
        void reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // A page load (the browser asks for HTML) gets the app, even under an API prefix such as
    // /auth/callback or /chat; API calls ask for JSON and get a JSON 404.
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (hasClient && request.method === 'GET' && wantsHtml && !request.url.startsWith('/socket.io')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const language = languageFromHeader(request.headers['accept-language']);
    return reply
      .code(404)
      .send({ error: { code: 'not_found', message: errorMessage(language, 'not_found') } });
  });
}
