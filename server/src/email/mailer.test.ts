import { ApiErrorSchema, AuthSessionSchema } from '@alma/protocol';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp, registrationBody } from '../test-support/app.ts';
import { decodeQuotedPrintable, manualClock, startSmtpServer, tokenFrom } from '../test-support/mail.ts';
import { createOutboxMailer } from './mailer.ts';

const APP_URL = 'https://alma.example.org';
const register = (t: TestApp, email: string, language = 'en') =>
  t.app.inject({
    method: 'POST',
    url: '/auth/register',
    headers: { 'accept-language': language },
    payload: registrationBody({ name: 'Ana López', email }),
  });
const forgot = (t: TestApp, email: string) =>
  t.app.inject({ method: 'POST', url: '/auth/forgotpassword', payload: { email } });

describe('email through a real SMTP server (SMTP_URL)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({
      AUTH_RATE_LIMIT_MAX: '10000',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Alma Test <alma@example.org>',
      APP_URL,
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('A-7 A-9 forgot → emailed link → reset, end to end; the link then answers link_invalid', async () => {
    expect((await register(t, 'smtp-ana@example.com', 'es')).statusCode).toBe(201);
    await smtp.waitFor(1); // the verification email
    const unknown = await forgot(t, 'nobody@example.com');
    const known = await forgot(t, 'smtp-ana@example.com');
    expect(known.body).toBe(unknown.body);

    const received = await smtp.waitFor(2);
    await t.account.idle();
    expect(received).toHaveLength(2); // nothing for the unknown address
    const mail = received[1];
    expect(mail?.from).toBe('alma@example.org');
    expect(mail?.to).toEqual(['smtp-ana@example.com']);
    const body = decodeQuotedPrintable(mail?.raw ?? '');
    expect(body).toContain('Content-Type: text/plain');
    expect(body).toContain('Content-Type: text/html');
    expect(body).toContain('Restablecer contraseña');
    const token = tokenFrom(body, `${APP_URL}/reset-password/`);

    const reset = await t.app.inject({
      method: 'PUT',
      url: `/auth/resetpassword/${token}`,
      payload: { password: 'Fresh789' },
    });
    expect(reset.statusCode).toBe(200);
    expect(AuthSessionSchema.parse(json(reset)).user.email).toBe('smtp-ana@example.com');
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'smtp-ana@example.com', password: 'Fresh789' },
    });
    expect(login.statusCode).toBe(200);

    const reuse = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/resetpassword/${token}`,
      payload: { password: 'Other1234' },
    });
    expect(reuse.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(json(reuse)).error.code).toBe('link_invalid');
  });

  it('A-9 the verification link received by SMTP verifies the email', async () => {
    const before = smtp.received.length;
    const res = await register(t, 'smtp-bob@example.com');
    const userId = AuthSessionSchema.parse(json(res)).user.id;
    const received = await smtp.waitFor(before + 1);
    const body = decodeQuotedPrintable(received[before]?.raw ?? '');
    expect(body).toContain('Confirm your email for Alma');
    const token = tokenFrom(body, `${APP_URL}/auth/verifyemail/`);
    const verify = await t.app.inject({ method: 'GET', url: `/auth/verifyemail/${token}` });
    expect(verify.statusCode).toBe(200);
    expect((await t.storage.users.findById(userId))?.emailVerified).toBe(true);
  });
});

describe('without a reachable SMTP server', () => {
  it('A-7 forgot still answers the same; the failure stays in the log', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000', SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      await register(t, 'down@example.com');
      const res = await forgot(t, 'down@example.com');
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe((await forgot(t, 'nobody@example.com')).body);
      await t.account.idle();
    } finally {
      await t.close();
    }
  });
});

describe('the outbox (SMTP_URL unset)', () => {
  let dataDir: string;
  let t: TestApp;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'alma-outbox-'));
    t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000', DATA_DIR: dataDir, APP_URL });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const outbox = () => {
    try {
      return readdirSync(join(dataDir, 'outbox'));
    } catch {
      return [];
    }
  };

  it('A-9 writes each message to DATA_DIR/outbox/<time>-<to>.eml, with a usable link', async () => {
    await register(t, 'outbox@example.com');
    await t.account.idle();
    const before = outbox();
    expect(before).toHaveLength(1);
    expect(before[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-outbox@example\.com\.eml$/);

    await forgot(t, 'nobody@example.com');
    await t.account.idle();
    expect(outbox()).toHaveLength(1); // no message for an unknown email

    await forgot(t, 'outbox@example.com');
    await t.account.idle();
    const files = outbox();
    expect(files).toHaveLength(2);
    const raw = files.map((f) => decodeQuotedPrintable(readFileSync(join(dataDir, 'outbox', f), 'utf8')));
    const resetMail = raw.find((m) => m.includes('/reset-password/')) ?? '';
    expect(resetMail).toContain('To: outbox@example.com');
    expect(resetMail).toContain('From: Alma <no-reply@localhost>');
    expect(resetMail).toContain('Subject: Reset your Alma password');
    const token = tokenFrom(resetMail, `${APP_URL}/reset-password/`);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/auth/resetpassword/${token}`,
      payload: { password: 'Fresh789' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('logs each message at info level with its link, and never overwrites a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'alma-outbox-unit-'));
    const logged: object[] = [];
    const log = { info: (obj: object) => logged.push(obj), warn: () => {}, error: () => {} };
    const mailer = createOutboxMailer(dir, 'Alma <no-reply@localhost>', { log, clock: manualClock().clock });
    const message = {
      to: 'x@example.com',
      subject: 'Hi',
      text: 'link: http://l/1',
      html: '<p>http://l/1</p>',
      link: 'http://l/1',
    };
    await mailer.send(message);
    await mailer.send(message);
    expect(readdirSync(dir).sort()).toEqual([
      '2025-03-01T10-00-00-000Z-x@example.com-1.eml',
      '2025-03-01T10-00-00-000Z-x@example.com.eml',
    ]);
    expect(logged[0]).toMatchObject({ to: 'x@example.com', link: 'http://l/1' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('W-4 in production logs the message without its link: the link is in the .eml only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'alma-outbox-prod-'));
    const logged: object[] = [];
    const log = { info: (obj: object) => logged.push(obj), warn: () => {}, error: () => {} };
    const mailer = createOutboxMailer(dir, 'Alma <no-reply@localhost>', {
      log,
      clock: manualClock().clock,
      logLinks: false,
    });
    const link = 'http://l/reset-password/c2VjcmV0';
    await mailer.send({ to: 'x@example.com', subject: 'Hi', text: link, html: `<p>${link}</p>`, link });
    expect(JSON.stringify(logged)).not.toContain('c2VjcmV0');
    expect(logged[0]).toMatchObject({ to: 'x@example.com' });
    const [file] = readdirSync(dir);
    expect(readFileSync(join(dir, file ?? ''), 'utf8')).toContain('c2VjcmV0');
    rmSync(dir, { recursive: true, force: true });
  });
});
