import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { ServerEvent } from '@alma/protocol';
import { i18n } from '../../../lib/i18n.ts';
import { useConversation } from '../store/conversation.ts';
import { MessageList } from './MessageList.tsx';

/** The typing indicator follows `chat:typing` both ways (issue 11: `false` was never handled). */

function renderList() {
  render(
    <I18nextProvider i18n={i18n}>
      <MessageList />
    </I18nextProvider>,
  );
}

const typing = (value: boolean, seq: number) =>
  useConversation.getState().handleEvent({
    name: ServerEvent.chatTyping,
    payload: { replyId: 'r1', sessionId: 's1', seq, typing: value },
  });

beforeEach(async () => {
  await i18n.changeLanguage('en');
  useConversation.getState().reset();
  useConversation.setState({
    activeSessionId: 's1',
    // An acknowledged send whose reply is being prepared.
    pending: { clientMessageId: 'c1', text: 'Hola', sessionId: 's1', replyId: 'r1' },
    messages: [{ id: 'm-user', type: 'user', content: 'Hola', timestamp: '2025-01-01T10:00:00.000Z' }],
  });
});
afterEach(cleanup);

describe('typing dots', () => {
  it('show while the companion writes and go when chat:typing says it stopped', () => {
    renderList();
    act(() => typing(true, 0));
    expect(screen.getByText('Alma is typing…')).toBeTruthy();
    act(() => typing(false, 1));
    expect(screen.queryByText('Alma is typing…')).toBeNull();
    // The reply is still on its way: the send is not settled by the typing event.
    expect(useConversation.getState().pending?.replyId).toBe('r1');
  });
});
