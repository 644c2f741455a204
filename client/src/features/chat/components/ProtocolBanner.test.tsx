import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { ERROR_MESSAGES } from '@alma/protocol';
import { i18n } from '../../../lib/i18n.ts';
import { classifyConnectError } from '../../../lib/socket.ts';
import { initialConnection, useConnection } from '../../../lib/realtime.ts';
import { ProtocolBanner } from './LimitBanner.tsx';

function renderBanner() {
  render(
    <I18nextProvider i18n={i18n}>
      <ProtocolBanner />
    </I18nextProvider>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  useConnection.setState(initialConnection);
});
afterEach(cleanup);

/** A refused handshake as socket.io-client hands it over: message = code, data = the body. */
const refusal = (code: string) =>
  Object.assign(new Error(code), { data: { code, message: ERROR_MESSAGES.en[code as 'client_too_old'] } });

describe('P-1 the version banner says which side is old', () => {
  it('P-1 client_too_old: this page is old, with a reload button', () => {
    const { kind, error } = classifyConnectError(refusal('client_too_old'));
    expect(kind).toBe('protocol');
    useConnection.setState({
      protocolMismatch: error?.code === 'server_too_old' ? 'server_too_old' : 'client_too_old',
    });
    renderBanner();
    expect(screen.getByRole('alert').textContent).toContain(ERROR_MESSAGES.en.client_too_old);
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
  });

  it('P-1 server_too_old: the server is behind, try later; reloading would not help', async () => {
    expect(classifyConnectError(refusal('server_too_old')).kind).toBe('protocol');
    await i18n.changeLanguage('es');
    useConnection.setState({ protocolMismatch: 'server_too_old' });
    renderBanner();
    expect(screen.getByRole('alert').textContent).toBe(ERROR_MESSAGES.es.server_too_old);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
