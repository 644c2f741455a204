import { ApiErrorSchema, AuthSessionSchema, UserSchema, type AuthSession } from '@alma/protocol';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp, registrationBody } from '../../test-support/app.ts';
import { captureMailer, manualClock, tokenFrom } from '../../test-support/mail.ts';

const APP_URL = 'http://alma.test';
const MIN = 60_000;
const mailer = captureMailer();
const time = manualClock();
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp(
    {
      AUTH_RATE_LIMIT_MAX: '10000',
      APP_URL,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
    },
    { clock: time.clock, mailer },
  );
});
afterAll(async () => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function register(email: string, language = 'es', name = 'Ana López'): Promise<AuthSession> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    headers: { 'accept-language': language },
    payload: registrationBody({ name, email }),
  });
  expect(res.statusCode).toBe(201);
  return AuthSessionSchema.parse(json(res));
}

const login = (email: string, password: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });

const refresh = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/auth/refresh', payload: { refreshToken } });

const errorOf = (res: { body: string }) => ApiErrorSchema.parse(json(res)).error;

const mailsTo = async (email: string) => {
  await t.account.idle();
  return mailer.sent.filter((m) => m.to === email);
};

describe('PUT /auth/updatedetails', () => {
  let ana: AuthSession;
  let bob: AuthSession;
  beforeAll(async () => {
    ana = await register('details-ana@example.com');
    bob = await register('details-bob@example.com');
  });

  const update = (token: string, payload: unknown, language = 'en', url = '/auth/updatedetails') =>
    t.app.inject({
      method: 'PUT',
      url,
      headers: { ...bearer(token), 'accept-language': language },
      payload: payload as object,
    });

  it('changes name, bio, language, theme and notifications, and returns the user', async () => {
    const res = await update(ana.token, {
      name: '  Ana María ',
      bio: 'Me gusta leer',
      language: 'en',
      theme: 'light',
      emailNotifications: false,
      pushNotifications: false,
    });
    expect(res.statusCode).toBe(200);
    const { user } = json(res) as { user: unknown };
    expect(UserSchema.parse(user)).toMatchObject({
      name: 'Ana María',
      bio: 'Me gusta leer',
      language: 'en',
      theme: 'light',
      emailNotifications: false,
      pushNotifications: false,
      email: 'details-ana@example.com',
    });
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(ana.token) });
    expect((json(me) as { user: { name: string } }).user.name).toBe('Ana María');
    // One theme setting: the preferences follow.
    const prefs = await t.app.inject({
      method: 'GET',
      url: '/api/users/preferences',
      headers: bearer(ana.token),
    });
    expect((json(prefs) as { preferences: { theme: string } }).preferences.theme).toBe('light');
  });

  it('A-5 answers under /api/auth too; an empty body changes nothing', async () => {
    const res = await update(ana.token, {}, 'en', '/api/auth/updatedetails');
    expect(res.statusCode).toBe(200);
    expect((json(res) as { user: { name: string } }).user.name).toBe('Ana María');
  });

  it('never changes the email: an email field is refused and nothing changes', async () => {
    const res = await update(ana.token, { email: 'new@example.com', name: 'Other Name' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('validation_failed');
    const user = await t.storage.users.findById(ana.user.id);
    expect(user).toMatchObject({ email: 'details-ana@example.com', name: 'Ana María' });
  });

  it.each([
    ['en', { name: 'A' }, 'name', 'nameRequired', 'Name is required (at least 2 characters)'],
    ['es', { name: ' ' }, 'name', 'nameRequired', 'El nombre es obligatorio (al menos 2 caracteres)'],
    ['en', { bio: 'x'.repeat(5000) }, 'bio', 'tooLong', 'This is too long'],
    ['es', { bio: 'x'.repeat(5000) }, 'bio', 'tooLong', 'Es demasiado largo'],
    ['en', { language: 'fr' }, 'language', 'invalid', 'This value is not valid'],
    ['es', { theme: 'blue' }, 'theme', 'invalid', 'Este valor no es válido'],
    ['en', { emailNotifications: 'yes' }, 'emailNotifications', 'invalid', 'This value is not valid'],
    ['en', { pushNotifications: 1 }, 'pushNotifications', 'invalid', 'This value is not valid'],
  ])(
    'rejects bad input (%s %j) with the field code and text',
    async (language, body, field, code, message) => {
      const res = await update(bob.token, body, language);
      expect(res.statusCode).toBe(400);
      const error = errorOf(res);
      expect(error.code).toBe('validation_failed');
      expect(error.message).toBe(
        language === 'es'
          ? 'Revisa los datos e inténtalo de nuevo.'
          : 'Please check your input and try again.',
      );
      expect(error.errors).toContainEqual({ field, code, message });
    },
  );

  it('needs a bearer token', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/auth/updatedetails', payload: { name: 'Xx' } });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('unauthorized');
  });

  it('IDOR: a user changes only their own details, even naming another user', async () => {
    const before = await t.storage.users.findById(ana.user.id);
    const sneaky = await update(bob.token, { name: 'Hacked', userId: ana.user.id });
    expect(sneaky.statusCode).toBe(400);
    const own = await update(bob.token, { name: 'Bob Builder' });
    expect((json(own) as { user: { id: string } }).user.id).toBe(bob.user.id);
    expect(await t.storage.users.findById(ana.user.id)).toEqual(before);
  });
});

describe('PUT /auth/updatepassword', () => {
  const put = (token: string, payload: unknown, language = 'en') =>
    t.app.inject({
      method: 'PUT',
      url: '/auth/updatepassword',
      headers: { ...bearer(token), 'accept-language': language },
      payload: payload as object,
    });

  it('A-6 stores the new password, returns new tokens and revokes every other refresh token', async () => {
    const first = await register('pw-ana@example.com');
    const other = AuthSessionSchema.parse(json(await login('pw-ana@example.com', 'Secret123')));
    const res = await put(other.token, { currentPassword: 'Secret123', newPassword: 'Newpass456' });
    expect(res.statusCode).toBe(200);
    const session = AuthSessionSchema.parse(json(res));
    expect(session.user.id).toBe(first.user.id);
    // The other devices (and the caller's old token) are signed out…
    expect(errorOf(await refresh(first.refreshToken)).code).toBe('refresh_invalid');
    expect(errorOf(await refresh(other.refreshToken)).code).toBe('refresh_invalid');
    // …the new session is not.
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
    expect((await login('pw-ana@example.com', 'Secret123')).statusCode).toBe(401);
    expect((await login('pw-ana@example.com', 'Newpass456')).statusCode).toBe(200);
    const stored = await t.storage.users.findById(first.user.id);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it.each([
    ['en', 'Invalid email or password.'],
    ['es', 'Email o contraseña incorrectos.'],
  ])(
    'A-6 a wrong current password answers invalid_credentials (%s) and changes nothing',
    async (language, message) => {
      const s = await register(`pw-wrong-${language}@example.com`);
      const res = await put(s.token, { currentPassword: 'Wrong1234', newPassword: 'Newpass456' }, language);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toMatchObject({ code: 'invalid_credentials', message });
      expect((await refresh(s.refreshToken)).statusCode).toBe(200);
      expect((await login(`pw-wrong-${language}@example.com`, 'Secret123')).statusCode).toBe(200);
    },
  );

  it.each([
    ['en', {}, 'currentPassword', 'passwordRequired', 'Password is required'],
    [
      'es',
      { currentPassword: 'Secret123' },
      'newPassword',
      'passwordRequired',
      'La contraseña es obligatoria',
    ],
    [
      'en',
      { currentPassword: 'Secret123', newPassword: 'Ab1' },
      'newPassword',
      'passwordLength',
      'Password must be at least 6 characters',
    ],
    [
      'es',
      { currentPassword: 'Secret123', newPassword: 'alllower1' },
      'newPassword',
      'passwordComplexity',
      'La contraseña debe tener al menos una minúscula, una mayúscula y un número',
    ],
    [
      'en',
      { currentPassword: 'Secret123', newPassword: 'Newpass456', userId: 'x' },
      'body',
      'invalid',
      'This value is not valid',
    ],
  ])('rejects bad input (%s %j)', async (language, body, field, code, message) => {
    const s = await register(`pw-val-${Math.random()}@example.com`.replace('0.', ''));
    const res = await put(s.token, body, language);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('validation_failed');
    expect(errorOf(res).errors).toContainEqual({ field, code, message });
  });

  it('IDOR: a user changes only their own password', async () => {
    const ana = await register('pw-idor-ana@example.com');
    const bob = await register('pw-idor-bob@example.com');
    const res = await put(bob.token, { currentPassword: 'Secret123', newPassword: 'Bobnew123' });
    expect(AuthSessionSchema.parse(json(res)).user.id).toBe(bob.user.id);
    expect((await login('pw-idor-ana@example.com', 'Secret123')).statusCode).toBe(200);
    expect((await refresh(ana.refreshToken)).statusCode).toBe(200);
  });

  it('needs a bearer token', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/auth/updatepassword',
      payload: { currentPassword: 'Secret123', newPassword: 'Newpass456' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /auth/forgotpassword and PUT /auth/resetpassword/:resetToken', () => {
  const forgot = (email: string, language = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/auth/forgotpassword',
      headers: { 'accept-language': language },
      payload: { email },
    });
  const reset = (token: string, password: string, language = 'en') =>
    t.app.inject({
      method: 'PUT',
      url: `/auth/resetpassword/${token}`,
      headers: { 'accept-language': language },
      payload: { password },
    });
  const resetLinks = async (email: string) =>
    (await mailsTo(email)).filter((m) => m.text.includes('/reset-password/'));

  it.each(['en', 'es'])(
    'A-7 answers the same (%s) whether or not the email has an account; only an account gets mail',
    async (language) => {
      await register(`forgot-same-${language}@example.com`, language);
      const known = await forgot(`forgot-same-${language}@example.com`, language);
      const unknown = await forgot(`nobody-${language}@example.com`, language);
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(known.body).toBe(unknown.body);
      expect(json(known)).toEqual({
        success: true,
        message:
          language === 'es'
            ? 'Si existe una cuenta con este email, le hemos enviado un enlace para restablecer la contraseña.'
            : 'If an account exists for this email, we have sent it a link to reset the password.',
      });
      expect(await resetLinks(`forgot-same-${language}@example.com`)).toHaveLength(1);
      expect(await mailsTo(`nobody-${language}@example.com`)).toHaveLength(0);
    },
  );

  it.each([
    ['en', {}, 'emailRequired', 'Email is required'],
    ['es', { email: '' }, 'emailRequired', 'El email es obligatorio'],
    ['en', { email: 'not-an-email' }, 'emailInvalid', 'Please enter a valid email address'],
    ['es', { email: 'not-an-email' }, 'emailInvalid', 'Introduce un email válido'],
  ])('forgotpassword validates the email (%s %j)', async (language, payload, code, message) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgotpassword',
      headers: { 'accept-language': language },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors).toContainEqual({ field: 'email', code, message });
  });

  it('A-9 the emailed link (user language, APP_URL) resets the password once, signs out every device and signs in', async () => {
    const first = await register('reset-ana@example.com', 'es', 'Ana');
    await forgot('Reset-Ana@Example.com');
    const [mail] = await resetLinks('reset-ana@example.com');
    expect(mail?.subject).toBe('Restablece tu contraseña de Alma');
    expect(mail?.text).toContain('Hola, Ana:');
    expect(mail?.text).toContain('caduca en 60 minutos');
    expect(mail?.text).toMatch(new RegExp(`${APP_URL}/reset-password/[\\w-]{43}\\b`));
    expect(mail?.html).toContain(`href="${APP_URL}/reset-password/`);
    const token = tokenFrom(mail?.text ?? '', '/reset-password/');

    const res = await reset(token, 'Fresh789');
    expect(res.statusCode).toBe(200);
    const session = AuthSessionSchema.parse(json(res));
    expect(session.user).toMatchObject({ id: first.user.id, emailVerified: true });
    expect(errorOf(await refresh(first.refreshToken)).code).toBe('refresh_invalid');
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
    expect((await login('reset-ana@example.com', 'Secret123')).statusCode).toBe(401);
    expect((await login('reset-ana@example.com', 'Fresh789')).statusCode).toBe(200);

    // A-9 single use.
    for (const [language, message] of [
      ['en', 'This link is invalid or has expired. Please request a new one.'],
      ['es', 'Este enlace no es válido o ha caducado. Solicita uno nuevo.'],
    ] as const) {
      const again = await reset(token, 'Another123', language);
      expect(again.statusCode).toBe(400);
      expect(errorOf(again)).toEqual({ code: 'link_invalid', message });
    }
    expect((await login('reset-ana@example.com', 'Fresh789')).statusCode).toBe(200);
  });

  it('A-9 only the hash of the token is stored', async () => {
    const s = await register('reset-hash@example.com');
    await forgot('reset-hash@example.com');
    const [mail] = await resetLinks('reset-hash@example.com');
    const token = tokenFrom(mail?.text ?? '', '/reset-password/');
    const now = time.clock().toISOString();
    expect(await t.storage.oneTimeTokens.consume(token, 'reset', now)).toBeNull();
    const hash = createHash('sha256').update(token).digest('hex');
    expect(await t.storage.oneTimeTokens.consume(hash, 'reset', now)).toBe(s.user.id);
  });

  it('A-9 a link expires after RESET_TOKEN_TTL_MIN (60 by default)', async () => {
    await register('reset-expiry@example.com');
    await forgot('reset-expiry@example.com');
    const [mail] = await resetLinks('reset-expiry@example.com');
    const token = tokenFrom(mail?.text ?? '', '/reset-password/');
    time.advance(60 * MIN + 1);
    const res = await reset(token, 'Fresh789');
    expect(errorOf(res).code).toBe('link_invalid');
    expect((await login('reset-expiry@example.com', 'Secret123')).statusCode).toBe(200);
  });

  it('A-9 a link still works just before it expires', async () => {
    await register('reset-in-time@example.com');
    await forgot('reset-in-time@example.com');
    const [mail] = await resetLinks('reset-in-time@example.com');
    time.advance(59 * MIN);
    expect((await reset(tokenFrom(mail?.text ?? '', '/reset-password/'), 'Fresh789')).statusCode).toBe(200);
  });

  it('A-9 a newer link replaces the older one', async () => {
    await register('reset-newer@example.com');
    await forgot('reset-newer@example.com');
    await forgot('reset-newer@example.com');
    const [older, newer] = await resetLinks('reset-newer@example.com');
    expect(errorOf(await reset(tokenFrom(older?.text ?? '', '/reset-password/'), 'Fresh789')).code).toBe(
      'link_invalid',
    );
    expect((await reset(tokenFrom(newer?.text ?? '', '/reset-password/'), 'Fresh789')).statusCode).toBe(200);
  });

  it.each([
    ['en', 'short', { password: 'Fresh789' }, 'params.resetToken', 'invalid'],
    ['en', 'a'.repeat(43), {}, 'password', 'passwordRequired'],
    ['es', 'a'.repeat(43), { password: 'abcdef' }, 'password', 'passwordComplexity'],
    ['en', 'a'.repeat(43), { password: 'Ab1' }, 'password', 'passwordLength'],
  ])('resetpassword validates (%s %s %j)', async (language, token, payload, field, code) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/auth/resetpassword/${token}`,
      headers: { 'accept-language': language },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors?.map((e) => `${e.field}:${e.code}`)).toContain(`${field}:${code}`);
  });

  it('A-9 an unknown well-formed token answers link_invalid', async () => {
    const res = await reset('x'.repeat(43), 'Fresh789');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('link_invalid');
  });

  it('A-6 changing the password also retires an unused reset link', async () => {
    const s = await register('reset-then-change@example.com');
    await forgot('reset-then-change@example.com');
    const [mail] = await resetLinks('reset-then-change@example.com');
    await t.app.inject({
      method: 'PUT',
      url: '/auth/updatepassword',
      headers: bearer(s.token),
      payload: { currentPassword: 'Secret123', newPassword: 'Changed123' },
    });
    expect(errorOf(await reset(tokenFrom(mail?.text ?? '', '/reset-password/'), 'Fresh789')).code).toBe(
      'link_invalid',
    );
  });
});

describe('GET /auth/verifyemail/:verifyToken', () => {
  const verifyLink = async (email: string) => {
    const mail = (await mailsTo(email)).find((m) => m.text.includes('/auth/verifyemail/'));
    if (!mail) throw new Error(`no verification email for ${email}`);
    return mail;
  };
  const verify = (token: string, accept = 'application/json', language = 'en') =>
    t.app.inject({
      method: 'GET',
      url: `/auth/verifyemail/${token}`,
      headers: { accept, 'accept-language': language },
    });

  it('A-9 registration sends a verification link in the user language; it verifies once (JSON)', async () => {
    const s = await register('verify-en@example.com', 'en', 'Bob');
    expect(s.user.emailVerified).toBe(false);
    const mail = await verifyLink('verify-en@example.com');
    expect(mail.subject).toBe('Confirm your email for Alma');
    expect(mail.text).toContain('Hi Bob,');
    expect(mail.text).toContain('expires in 48 hours');
    expect(mail.text).toContain(`${APP_URL}/auth/verifyemail/`);
    const token = tokenFrom(mail.text, '/auth/verifyemail/');

    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true, message: 'Your email has been verified.' });
    expect((await t.storage.users.findById(s.user.id))?.emailVerified).toBe(true);
    const again = await verify(token, 'application/json', 'es');
    expect(again.statusCode).toBe(400);
    expect(errorOf(again)).toEqual({
      code: 'link_invalid',
      message: 'Este enlace no es válido o ha caducado. Solicita uno nuevo.',
    });
  });

  it('A-9 a browser is redirected to /login?verified=1, or ?verified=0 when the link is bad', async () => {
    await register('verify-html@example.com', 'es');
    const mail = await verifyLink('verify-html@example.com');
    expect(mail.subject).toBe('Confirma tu email en Alma');
    const token = tokenFrom(mail.text, '/auth/verifyemail/');
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const ok = await verify(token, html);
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toBe('/login?verified=1');
    const reused = await verify(token, html);
    expect(reused.statusCode).toBe(302);
    expect(reused.headers.location).toBe('/login?verified=0');
    const malformed = await verify('bad', html);
    expect(malformed.statusCode).toBe(302);
    expect(malformed.headers.location).toBe('/login?verified=0');
    // A-5 alias.
    const api = await t.app.inject({ method: 'GET', url: '/api/auth/verifyemail/bad' });
    expect(api.statusCode).toBe(400);
    expect(errorOf(api).code).toBe('validation_failed');
  });

  it('A-9 a verification link expires after VERIFY_TOKEN_TTL_H (48 by default)', async () => {
    const s = await register('verify-late@example.com');
    const token = tokenFrom((await verifyLink('verify-late@example.com')).text, '/auth/verifyemail/');
    time.advance(48 * 60 * MIN + 1);
    expect(errorOf(await verify(token)).code).toBe('link_invalid');
    expect((await t.storage.users.findById(s.user.id))?.emailVerified).toBe(false);
  });
});
