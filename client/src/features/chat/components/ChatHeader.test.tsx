import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { PROTOCOL_VERSION, ServerEvent } from '@alma/protocol';
import { i18n } from '../../../lib/i18n.ts';
import { initialConnection, publishServerEvent, useConnection } from '../../../lib/realtime.ts';
import { ChatHeader } from './ChatHeader.tsx';

/** The header's server status follows `server:status` as the server pushes it (issue 11). */

const status = (value: 'online' | 'degraded' | 'maintenance') =>
  publishServerEvent(ServerEvent.serverStatus, {
    status: value,
    version: '1.0.0',
    protocolVersion: PROTOCOL_VERSION,
    engines: { reply: 'builtin', speech: 'builtin', transcription: 'pocketsphinx' },
  });

beforeEach(async () => {
  await i18n.changeLanguage('en');
  useConnection.setState({ ...initialConnection, health: 'online', socketState: 'connected' });
});
afterEach(() => {
  cleanup();
  useConnection.setState(initialConnection);
});

describe('ChatHeader server status', () => {
  it('moves with every server:status pushed while the socket is up', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <ChatHeader
            sidebarOpen={false}
            onToggleSidebar={() => {}}
            onLogout={() => {}}
            onOption={() => {}}
            onOpenChat={() => {}}
          />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const pill = screen.getByRole('status', { name: /Server status/ });
    act(() => status('online'));
    expect(pill.dataset.status).toBe('online');
    act(() => status('degraded'));
    expect(pill.dataset.status).toBe('degraded');
    expect(pill.getAttribute('aria-label')).toBe('Server status: Having trouble');
    act(() => status('maintenance'));
    expect(pill.dataset.status).toBe('offline');
    act(() => status('online'));
    expect(pill.dataset.status).toBe('online');
  });
});
