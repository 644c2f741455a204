import { describe, expect, it } from 'vitest';
import { ServerEvent, type ChatReply, type ChatSession } from '@alma/protocol';
import type { AnyServerEvent } from '../../../lib/realtime.ts';
import { testChatReply, testMessage } from '../../../test/fixtures.ts';
import { countMessage, initialSessions, loaded, reduceSessions, type SessionsData } from './sessions.ts';

const session = (id: string, overrides: Partial<ChatSession> = {}): ChatSession => ({
  sessionId: id,
  title: null,
  personality: 'default',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  messageCount: 0,
  dominantEmotion: null,
  ...overrides,
});

const list = (...sessions: ChatSession[]): SessionsData => loaded(initialSessions, sessions);
const run = (data: SessionsData, ...events: AnyServerEvent[]) => events.reduce(reduceSessions, data);

function replyEvent(sessionId: string, messageId: string, dominantEmotion: ChatReply['emotion'] | null) {
  const message = testMessage({
    _id: messageId,
    sessionId,
    role: 'assistant',
    createdAt: '2025-02-02T10:00:00.000Z',
  });
  return {
    name: ServerEvent.chatReply,
    payload: {
      replyId: messageId,
      sessionId,
      seq: 3,
      clientMessageId: null,
      message,
      reply: testChatReply({
        sessionId,
        messageId,
        sessionContext: { ...testChatReply().sessionContext, sessionId, dominantEmotion },
      }),
    },
  } as const;
}

describe('session list', () => {
  it('session:updated adds, renames and deletes sessions', () => {
    const state = run(
      list(session('a'), session('b')),
      { name: ServerEvent.sessionUpdated, payload: { kind: 'created', session: session('c') } },
      {
        name: ServerEvent.sessionUpdated,
        payload: { kind: 'renamed', session: session('b', { title: 'Viajes' }) },
      },
      { name: ServerEvent.sessionUpdated, payload: { kind: 'deleted', sessionId: 'a' } },
    );
    expect(state.sessions.map((s) => [s.sessionId, s.title])).toEqual([
      ['c', null],
      ['b', 'Viajes'],
    ]);
  });

  it('chat:reply moves the session’s dominant emotion (SPEC.md C-11)', () => {
    const state = run(list(session('s1')), replyEvent('s1', 'm-bot', 'calm'));
    expect(state.sessions[0]?.dominantEmotion).toBe('calm');
  });
});

describe('live counts (issue 11: the sidebar follows the conversation)', () => {
  it('every stored message counts once, dates the session and brings it to the top', () => {
    let state = list(session('new'), session('old', { messageCount: 4 }));
    state = countMessage(state, 'old', 'm-user', '2025-02-02T09:59:00.000Z');
    state = run(
      state,
      replyEvent('old', 'm-bot', null),
      // Repeats (a reply sent again after a retried send, another tab's echo) count once.
      replyEvent('old', 'm-bot', null),
      {
        name: ServerEvent.chatMessage,
        payload: { message: testMessage({ _id: 'm-user', sessionId: 'old' }) },
      },
    );
    expect(state.sessions.map((s) => [s.sessionId, s.messageCount])).toEqual([
      ['old', 6],
      ['new', 0],
    ]);
    expect(state.sessions[0]?.updatedAt).toBe('2025-02-02T10:00:00.000Z');
  });

  it('another tab’s message counts too; a session not in the list changes nothing', () => {
    const state = run(
      list(session('s1', { messageCount: 2 })),
      { name: ServerEvent.chatMessage, payload: { message: testMessage({ _id: 'm-9', sessionId: 's1' }) } },
      {
        name: ServerEvent.chatMessage,
        payload: { message: testMessage({ _id: 'm-10', sessionId: 'gone' }) },
      },
    );
    expect(state.sessions.map((s) => s.messageCount)).toEqual([3]);
  });
});
