import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { LANGUAGES } from '@alma/protocol';
import { createI18n, loadLanguage, type TextPart } from '../lib/i18n.ts';
import { stubFetch } from '../test/fetch.ts';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { RegisterPage } from '../features/auth/RegisterPage.tsx';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage.tsx';
import { LandingPage } from '../features/landing/LandingPage.tsx';

/**
 * The first screens render with only their parts of the texts (lib/i18n.ts, issue 12): the
 * shell's and their own. Each one, in each language, asks for no key outside them
 * (client/locale-parts.ts lists each part's sections).
 */
async function onlyParts(
  language: (typeof LANGUAGES)[number],
  own: TextPart,
): Promise<{ i18n: I18n; missing: string[] }> {
  const i18n = createI18n(i18next.createInstance());
  await loadLanguage(language, ['shell', own], i18n);
  await i18n.changeLanguage(language);
  const missing: string[] = [];
  i18n.options.saveMissing = true;
  i18n.options.missingKeyHandler = (_languages, _namespace, key) => missing.push(key);
  return { i18n, missing };
}

function at(i18n: I18n, path: string, route: string, element: ReactNode) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={element} />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

afterEach(cleanup);

describe.each(LANGUAGES)("the first screens need only the shell's texts and their own (%s)", (language) => {
  // The providers' question (GET /auth/providers) is answered: no provider configured.
  const answerProviders = () =>
    stubFetch(({ path }) =>
      path.endsWith('/providers') ? { body: { google: false, github: false } } : undefined,
    );

  it('landing', async () => {
    const { i18n, missing } = await onlyParts(language, 'landing');
    at(i18n, '/', '/', <LandingPage />);
    expect(await screen.findAllByRole('heading')).not.toHaveLength(0);
    expect(missing).toEqual([]);
  });

  it('login, forgot password, reset password', async () => {
    answerProviders();
    const { i18n, missing } = await onlyParts(language, 'auth');
    at(i18n, '/login?verified=0', '/login', <LoginPage />);
    fireEvent.click(screen.getByRole('button', { name: i18n.t('auth.login.submit') }));
    cleanup();
    at(i18n, '/forgot-password', '/forgot-password', <ForgotPasswordPage />);
    cleanup();
    at(i18n, '/reset-password/abc', '/reset-password/:token', <ResetPasswordPage />);
    fireEvent.click(screen.getByRole('button', { name: i18n.t('auth.reset.submit') }));
    expect(missing).toEqual([]);
  });

  it('register, through its three steps', async () => {
    answerProviders();
    const { i18n, missing } = await onlyParts(language, 'auth');
    at(i18n, '/register', '/register', <RegisterPage />);
    const next = () => fireEvent.click(screen.getByRole('button', { name: i18n.t('common.next') }));
    next(); // the rules' messages
    fireEvent.change(screen.getByLabelText(i18n.t('auth.register.name')), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByLabelText(i18n.t('auth.email')), { target: { value: 'ana@example.com' } });
    next();
    await screen.findByLabelText(i18n.t('auth.register.confirmPassword'));
    fireEvent.change(screen.getByLabelText(i18n.t('auth.password')), { target: { value: 'Secret123' } });
    fireEvent.change(screen.getByLabelText(i18n.t('auth.register.confirmPassword')), {
      target: { value: 'Secret123' },
    });
    next();
    await screen.findByText(i18n.t('auth.register.plan'));
    expect(missing).toEqual([]);
  });
});
