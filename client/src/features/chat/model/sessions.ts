import { ServerEvent, type ChatSession } from '@alma/protocol';
import type { AnyServerEvent } from '../../../lib/realtime.ts';

/**
 * The session list as data, kept live by events: `session:updated` adds, renames and removes
 * sessions; every message stored in a session (the user's acknowledged send, another tab's
 * `chat:message`, a `chat:reply`) counts once, dates the session now and moves it to the top —
 * the order GET /chat/sessions answers in (newest activity first) — so the sidebar's counts
 * follow the conversation without asking the server again.
 */
export interface SessionsData {
  sessions: ChatSession[];
  /** Ids of messages already counted since the list was loaded: a repeated event counts once. */
  counted: Record<string, true>;
}

export const initialSessions: SessionsData = { sessions: [], counted: {} };

/** One more stored message in `sessionId` (no change for one already counted). */
export function countMessage(
  data: SessionsData,
  sessionId: string,
  messageId: string,
  at: string = new Date().toISOString(),
): SessionsData {
  if (data.counted[messageId]) return data;
  const session = data.sessions.find((s) => s.sessionId === sessionId);
  if (!session) return data;
  const updated = { ...session, messageCount: session.messageCount + 1, updatedAt: at };
  return {
    sessions: [updated, ...data.sessions.filter((s) => s.sessionId !== sessionId)],
    counted: { ...data.counted, [messageId]: true },
  };
}

/** The list after a fresh GET /chat/sessions: the server's counts stand. */
export function loaded(data: SessionsData, sessions: ChatSession[]): SessionsData {
  return { sessions, counted: data.counted };
}

export function reduceSessions(data: SessionsData, event: AnyServerEvent): SessionsData {
  switch (event.name) {
    case ServerEvent.sessionUpdated: {
      const ev = event.payload;
      if (ev.kind === 'deleted') {
        return { ...data, sessions: data.sessions.filter((s) => s.sessionId !== ev.sessionId) };
      }
      const exists = data.sessions.some((s) => s.sessionId === ev.session.sessionId);
      const sessions = exists
        ? data.sessions.map((s) => (s.sessionId === ev.session.sessionId ? ev.session : s))
        : [ev.session, ...data.sessions];
      return { ...data, sessions };
    }
    case ServerEvent.chatMessage: {
      const { message } = event.payload;
      return countMessage(data, message.sessionId, message._id, message.createdAt);
    }
    case ServerEvent.chatReply: {
      const ev = event.payload;
      const counted = countMessage(data, ev.sessionId, ev.message._id, ev.message.createdAt);
      // The session's dominant emotion moves with every reply (SPEC.md C-11).
      const dominantEmotion = ev.reply.sessionContext.dominantEmotion;
      return {
        ...counted,
        sessions: counted.sessions.map((s) => (s.sessionId === ev.sessionId ? { ...s, dominantEmotion } : s)),
      };
    }
    default:
      return data;
  }
}
