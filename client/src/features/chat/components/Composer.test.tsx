import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../lib/i18n.ts';
import { useConnection } from '../../../lib/realtime.ts';
import { useConversation as useChat } from '../store/conversation.ts';
import { Composer } from './Composer.tsx';

// `send` is replaced by a spy: this tests the input's keyboard and disabled rules (spec §2, §5).
const send = vi.fn((_text: string) => Promise.resolve(true));

function renderComposer() {
  render(
    <I18nextProvider i18n={i18n}>
      <Composer />
    </I18nextProvider>,
  );
  return screen.getByLabelText('Escribe tu mensaje');
}

beforeEach(async () => {
  await i18n.changeLanguage('es');
  send.mockClear();
  useChat.getState().reset();
  useChat.setState({ send });
  useConnection.setState({ health: 'online', socketState: 'connected' });
});

afterEach(cleanup);

describe('Composer', () => {
  it('Enter sends the text and clears the box', () => {
    const box = renderComposer();
    fireEvent.change(box, { target: { value: 'Hola Alma' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(send).toHaveBeenCalledWith('Hola Alma');
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it('Shift+Enter does not send (it adds a line)', () => {
    const box = renderComposer();
    fireEvent.change(box, { target: { value: 'línea 1' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(send).not.toHaveBeenCalled();
  });

  it('the send button is disabled for empty or whitespace-only text', () => {
    const box = renderComposer();
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Enviar' });
    expect(button.disabled).toBe(true);
    fireEvent.change(box, { target: { value: '   ' } });
    expect(button.disabled).toBe(true);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(send).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: ' hola ' } });
    expect(button.disabled).toBe(false);
  });

  it('a reply being written can be interrupted: sending is open again (barge-in)', () => {
    useChat.setState({ pending: { clientMessageId: 'c', text: 'x', sessionId: 's', replyId: 'r1' } });
    const box = renderComposer();
    fireEvent.change(box, { target: { value: 'otra' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Enviar' }).disabled).toBe(false);
  });

  it('the send button is disabled while a send awaits its acknowledgement', () => {
    useChat.setState({ pending: { clientMessageId: 'c', text: 'x', sessionId: null, replyId: null } });
    const box = renderComposer();
    fireEvent.change(box, { target: { value: 'otra' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Enviar' }).disabled).toBe(true);
  });

  it('offline disables the input and shows the offline placeholder', () => {
    useConnection.setState({ health: 'offline', socketState: 'disconnected' });
    const box = renderComposer();
    if (!(box instanceof HTMLTextAreaElement)) throw new Error('not a textarea');
    expect(box.disabled).toBe(true);
    expect(box.placeholder).toBe('El servidor no está disponible. Espera a que vuelva la conexión.');
  });
});
