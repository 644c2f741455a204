import { routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { AppError } from '../../lib/app-error.ts';
import { languageFromHeader } from '../../lib/language.ts';
import type { ChatService } from './chat.service.ts';
import { personalities } from './personalities.ts';

export function registerChatRoutes(app: FastifyInstance, deps: { chat: ChatService }): void {
  const { chat } = deps;
  const r = routes.chat;

  registerRoute(app, r.listSessions, async (_input, { userId }) => ({
    sessions: await chat.listSessions(userId),
  }));
  registerRoute(app, r.createSession, async ({ body }, { userId }) => ({
    session: await chat.createSession(userId, body?.title),
  }));
  registerRoute(app, r.renameSession, async ({ params, body }, { userId }) => ({
    session: await chat.renameSession(userId, params.id, body.title),
  }));
  registerRoute(app, r.autoTitle, async ({ params }, { userId, request }) => ({
    title: await chat.autoTitle(userId, params.id, languageFromHeader(request.headers['accept-language'])),
  }));
  registerRoute(app, r.sessionContext, async ({ params }, { userId }) =>
    chat.sessionContext(userId, params.id),
  );
  registerRoute(app, r.deleteSession, async ({ params }, { userId }) => {
    await chat.deleteSession(userId, params.id);
    return { success: true as const };
  });
  registerRoute(app, r.deleteSessionAlias, async ({ params }, { userId }) => {
    await chat.deleteSession(userId, params.sessionId);
    return { success: true as const };
  });
  registerRoute(app, r.listMessages, async ({ query }, { userId }) =>
    chat.listMessages(userId, query.sessionId, query.page, query.pageSize),
  );
  registerRoute(app, r.exportSession, async ({ params }, { userId, reply }) => {
    const document = await chat.exportSession(userId, params.id);
    // The id is a UUID (IdSchema allows only short ids; quotes and separators cannot occur).
    const filename = `${params.id.replace(/[^\w-]/g, '_')}.json`;
    void reply.header('content-disposition', `attachment; filename="${filename}"`);
    return document;
  });

  /** The whole reply in one response, for clients without the socket (events still go to other tabs). */
  registerRoute(app, r.sendMessage, async ({ body }, { userId }) => {
    const sent = await chat.send(userId, body);
    const handle = await chat.ensureReply(userId, sent.message, {
      personality: body.personality ?? sent.session.personality,
      voiceId: body.voiceId,
      avatarId: body.avatarId,
    });
    const outcome = await handle.done;
    if (outcome.kind === 'failed') throw new AppError(outcome.code);
    return outcome.reply;
  });

  registerRoute(app, r.changePersonality, async ({ body }, { userId, request }) => {
    const language = languageFromHeader(request.headers['accept-language']);
    const message = await chat.changePersonality(userId, body.sessionId, body.personality, language);
    return { success: true as const, personality: body.personality, message };
  });
  registerRoute(app, r.listPersonalities, async (_input, { request }) => ({
    personalities: personalities(languageFromHeader(request.headers['accept-language'])),
  }));
}
