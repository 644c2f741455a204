import { expect, test } from '@playwright/test';
import {
  linkFromOutbox,
  PASSWORD,
  registerViaApi,
  shot,
  signInBrowser,
  socketAccepted,
  uniqueEmail,
} from './support.ts';

/**
 * Signing up, signing in, the provider callback and password recovery (spec §2, §5), in English.
 * Accounts other tests need are made through the API, so each test walks only its own screens.
 */
test.use({ locale: 'en-US' });

test('register: three steps, each rule with its message, back allowed, free plan only', async ({ page }) => {
  await page.goto('/register');
  const next = page.getByRole('button', { name: 'Continue' });
  const name = page.getByLabel('Name', { exact: true });
  const email = page.getByLabel('Email', { exact: true });

  // Step 1: name and email.
  await next.click();
  await expect(page.getByText('Name is required (at least 2 characters)')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(name).toBeFocused();
  await shot(page, 'register-1-errors');
  await name.fill('R');
  await expect(page.getByText('Name is required (at least 2 characters)')).toHaveCount(0);
  await next.click();
  await expect(page.getByText('Name is required (at least 2 characters)')).toBeVisible();
  await name.fill('Robin');
  await email.fill('robin@nowhere');
  await next.click();
  await expect(page.getByText('Email is not valid')).toBeVisible();
  const address = uniqueEmail('register');
  await email.fill(address);
  await next.click();

  // Step 2: password and confirmation.
  const password = page.getByLabel('Password', { exact: true });
  const confirm = page.getByLabel('Confirm password', { exact: true });
  await next.click();
  await expect(page.getByText('Password is required')).toBeVisible();
  await expect(page.getByText('Please confirm your password')).toBeVisible();
  await password.fill('abc');
  await next.click();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await password.fill('abcdefg');
  await next.click();
  await expect(
    page.getByText(
      'Password must contain at least one lowercase letter, one uppercase letter and one number',
    ),
  ).toBeVisible();
  await password.fill(PASSWORD);
  await confirm.fill(`${PASSWORD}x`);
  await next.click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await shot(page, 'register-2-errors');
  await confirm.fill(PASSWORD);
  await next.click();

  // Step 3: plan and terms; paid plans are shown but cannot be chosen.
  await expect(page.getByRole('radio', { name: /Free/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /Pro/ })).toBeDisabled();
  await expect(page.getByRole('radio', { name: /Enterprise/ })).toBeDisabled();
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await expect(page.getByText('You must accept the terms and conditions')).toBeVisible();
  await shot(page, 'register-3-errors');

  // Back keeps what was typed.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue(PASSWORD);
  await next.click();
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await expect(page).toHaveURL(/\/onboarding/);
});

test('login: an alert and focus on the password on failure; success returns to where the user was going', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login/);
  const submit = page.getByRole('button', { name: 'Sign in', exact: true });
  await expect(submit).toBeDisabled();
  // Providers are not configured in this server: the buttons say so up front.
  await expect(page.getByText(/Signing in with Google \/ GitHub is not configured/)).toBeVisible();

  await page.getByLabel('Email', { exact: true }).fill(session.user.email);
  await page.getByLabel('Password', { exact: true }).fill('Wrong123');
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await shot(page, 'login-failed');

  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Remember me').check();
  await submit.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: `Hi, ${session.user.name}` })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('rememberedEmail'))).toBe(session.user.email);
});

test('login shows whether the emailed verification link worked', async ({ page }) => {
  await page.goto('/login?verified=1');
  await expect(page.getByText('Your email is verified. You can sign in now.')).toBeVisible();
  await page.goto('/login?verified=0');
  await expect(page.getByText(/We couldn't verify your email/)).toBeVisible();
});

test('auth callback with a token: stored, user fetched, then /chat replacing history', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  const query = new URLSearchParams({
    token: session.token,
    refreshToken: session.refreshToken,
    provider: 'google',
    isNewUser: 'false',
  });
  await page.goto(`/auth/callback?${query.toString()}`);
  await expect(page.getByText(/Done! Taking you to your space|Verifying your account/)).toBeVisible();
  await shot(page, 'callback-working');
  await expect(page).toHaveURL(/\/chat$/, { timeout: 15_000 });
  const stored = await page.evaluate(() => ({
    token: localStorage.getItem('token'),
    refreshToken: localStorage.getItem('refreshToken'),
  }));
  expect(stored.refreshToken).toBe(session.refreshToken);
  expect(stored.token).toBeTruthy();
});

test('auth callback with an error: the error, back to sign in, and retry through the provider', async ({
  page,
}) => {
  await page.goto('/auth/callback?error=oauth_failed&error_description=Access%20denied&provider=google');
  await expect(page.getByRole('alert')).toHaveText('Authentication error: Access denied');
  await shot(page, 'callback-error');
  // Retry starts the provider's flow again; this server has no Google configured, so it comes back.
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page).toHaveURL(/error=oauth_not_configured/);
  await expect(page.getByRole('alert')).toContainText('not configured');
  await page.getByRole('button', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/auth/callback?provider=github');
  await expect(page.getByRole('alert')).toHaveText('No access token was received.');
});

test('forgot password → emailed link → new password → signed in; the link works once', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request, { onboarded: false });
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The URL changes before the lazy screen shows: the sign-in form (its own Email field) stays
  // on screen until then, and a fill now would land there.
  await expect(page.getByRole('heading', { name: 'Recover your password' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(session.user.email);
  await page.getByRole('button', { name: 'Send instructions' }).click();
  await expect(page.getByText(`If an account exists for ${session.user.email}`)).toBeVisible();
  await shot(page, 'forgot-sent');

  const link = await linkFromOutbox(session.user.email, /https?:\/\/[^\s"<>]+\/reset-password\/[\w-]+/);
  await page.goto(link);
  const save = page.getByRole('button', { name: 'Save and sign in' });
  await save.click();
  await expect(page.getByText('Password is required')).toBeVisible();
  await expect(page.getByText('Please confirm your password')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('NewSecret9');
  await page.getByLabel('Confirm password', { exact: true }).fill('NewSecret8');
  await save.click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await shot(page, 'reset-errors');
  await page.getByLabel('Confirm password', { exact: true }).fill('NewSecret9');
  await save.click();
  // Signed in; this account has not picked an avatar yet, so the onboarding comes first.
  await expect(page).toHaveURL(/\/onboarding$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

  const login = await request.post('/auth/login', {
    data: { email: session.user.email, password: 'NewSecret9' },
  });
  expect(login.ok()).toBe(true);

  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Another9x');
  await page.getByLabel('Confirm password', { exact: true }).fill('Another9x');
  await save.click();
  await expect(page.getByRole('alert')).toContainText('This link is invalid or has expired');
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  await shot(page, 'reset-link-invalid');
});

test('A-12 a password change on another device signs this one out, and the sign-in page says why', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000); // the chat screen loads the 3D stage
  const session = await registerViaApi(request);
  await signInBrowser(page, session);
  const accepted = socketAccepted(page);
  await page.goto('/chat');
  await accepted;
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 60_000 });

  // Another device signs in and changes the password.
  const other = await request.post('/auth/login', {
    data: { email: session.user.email, password: PASSWORD },
  });
  const changed = await request.put('/auth/updatepassword', {
    headers: { authorization: `Bearer ${((await other.json()) as { token: string }).token}` },
    data: { currentPassword: PASSWORD, newPassword: 'Changed123' },
  });
  expect(changed.ok()).toBe(true);

  await expect(page).toHaveURL(/\/login$/, { timeout: 30_000 });
  await expect(page.getByRole('status')).toHaveText(
    'Your password was changed. Sign in again with the new password.',
  );
  await shot(page, 'signed-out-password-changed');
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBeNull();
});

test('logout returns to the landing page, signed out (spec §2)', async ({ page, request }) => {
  test.setTimeout(180_000); // the chat screen loads the 3D stage
  const session = await registerViaApi(request);
  await signInBrowser(page, session);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  const again = await request.post('/auth/login', {
    data: { email: session.user.email, password: PASSWORD },
  });
  await signInBrowser(page, (await again.json()) as typeof session);
  await page.goto('/chat');
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await shot(page, 'logged-out-landing');
  // The refresh token of that sign-in was revoked on the server.
  const refreshed = await request.post('/auth/refresh', {
    data: { refreshToken: ((await again.json()) as { refreshToken: string }).refreshToken },
  });
  expect(refreshed.status()).toBe(401);
});
