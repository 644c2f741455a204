import { routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { AppError } from '../../lib/app-error.ts';
import type { ChatService } from './chat.service.ts';

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
  registerRoute(app, r.deleteSession, async ({ params }, { userId }) => {
    await chat.deleteSession(userId, params.id);
    return { success: true as const };
  });
  registerRoute(app, r.listMessages, async ({ query }, { userId }) =>
    chat.listMessages(userId, query.sessionId, query.page, query.pageSize),
  );

  /** The whole reply in one response, for clients without the socket (events still go to other tabs). */
  registerRoute(app, r.sendMessage, async ({ body }, { userId }) => {
    const sent = await chat.send(userId, body);
    const handle = await chat.ensureReply(userId, sent.message, body.personality ?? sent.session.personality);
    const outcome = await handle.done;
    if (outcome.kind === 'failed') throw new AppError(outcome.code);
    return outcome.reply;
  });
}
