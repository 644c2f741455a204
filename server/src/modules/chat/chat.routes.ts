import { routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { frozenBodies, registerRoute } from '../../http/register-route.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { personalities } from './personalities.ts';
import type { SessionsService } from './sessions.service.ts';
import { settledReply, type SubmitService } from './submit.service.ts';

export function registerChatRoutes(
  app: FastifyInstance,
  deps: { chat: SubmitService; sessions: SessionsService },
): void {
  const { chat, sessions } = deps;
  const r = routes.chat;

  // A list the repository kept (frozen, its version unchanged) is answered as serialised last time.
  const listBody = frozenBodies((list: Awaited<ReturnType<SessionsService['list']>>) => ({ sessions: list }));
  registerRoute(app, r.listSessions, async (_input, { userId }) => listBody(await sessions.list(userId)));
  registerRoute(app, r.createSession, async ({ body }, { userId }) => ({
    session: await sessions.create(userId, body?.title ?? null, 'default'),
  }));
  registerRoute(app, r.renameSession, async ({ params, body }, { userId }) => ({
    session: await sessions.rename(userId, params.id, body.title),
  }));
  registerRoute(app, r.autoTitle, async ({ params }, { userId, request }) => ({
    title: await sessions.autoTitle(
      userId,
      params.id,
      languageFromHeader(request.headers['accept-language']),
    ),
  }));
  registerRoute(app, r.sessionContext, async ({ params }, { userId }) => sessions.context(userId, params.id));
  registerRoute(app, r.deleteSession, async ({ params }, { userId }) => {
    await sessions.delete(userId, params.id);
    return { success: true as const };
  });
  registerRoute(app, r.deleteSessionAlias, async ({ params }, { userId }) => {
    await sessions.delete(userId, params.sessionId);
    return { success: true as const };
  });
  registerRoute(app, r.listMessages, async ({ query }, { userId }) =>
    sessions.messages(userId, query.sessionId, query.page, query.pageSize),
  );
  registerRoute(app, r.exportSession, async ({ params }, { userId, reply }) => {
    const document = await sessions.export(userId, params.id);
    // The id is a UUID (IdSchema allows only short ids; quotes and separators cannot occur).
    const filename = `${params.id.replace(/[^\w-]/g, '_')}.json`;
    void reply.header('content-disposition', `attachment; filename="${filename}"`);
    return document;
  });

  /** The whole reply in one response, for clients without the socket (events still go to other tabs). */
  registerRoute(app, r.sendMessage, async ({ body }, { userId }) => {
    const sent = await chat.submit(userId, body);
    return (await settledReply(sent.reply)).reply;
  });

  registerRoute(app, r.changePersonality, async ({ body }, { userId, request }) => {
    const language = languageFromHeader(request.headers['accept-language']);
    const message = await sessions.changePersonality(userId, body.sessionId, body.personality, language);
    return { success: true as const, personality: body.personality, message };
  });
  registerRoute(app, r.listPersonalities, async (_input, { request }) => ({
    personalities: personalities(languageFromHeader(request.headers['accept-language'])),
  }));
}
