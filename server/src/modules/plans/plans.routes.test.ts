import { ApiErrorSchema, PLAN_TABLE, routes } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp, registrationBody } from '../../test-support/app.ts';

/**
 * Usage, the monthly limit and subscription limits over REST, with an injected clock and a free
 * plan capped at three messages (FREE_MESSAGES_PER_MONTH).
 */
const LIMIT = 3;
let t: TestApp;
let now = new Date('2026-11-15T10:00:00.000Z');

interface Account {
  id: string;
  token: string;
}
let n = 0;
async function register(): Promise<Account> {
  n += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ name: `Usuario ${n}`, email: `plans${n}@example.com` }),
  });
  const body = json(res) as { token: string; user: { id: string } };
  return { id: body.user.id, token: body.token };
}
const call = (who: Account, method: 'GET' | 'POST', url: string, payload?: unknown, language = 'es') =>
  t.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${who.token}`, 'accept-language': language },
  });
const usageOf = async (who: Account, url = '/auth/me/usage') =>
  routes.account.usage.response.parse(json(await call(who, 'GET', url)));
const send = (who: Account, message: string, clientMessageId?: string, language = 'es') =>
  call(who, 'POST', '/message', { message, ...(clientMessageId ? { clientMessageId } : {}) }, language);
const storedUserMessages = async (who: Account) => {
  const sessions = await t.storage.sessions.list(who.id);
  let count = 0;
  for (const s of sessions) {
    const page = await t.storage.messages.page(who.id, s.sessionId, 1, 100);
    count += page.items.filter((m) => m.role === 'user').length;
  }
  return { sessions: sessions.length, messages: count };
};

beforeAll(async () => {
  t = await buildTestApp(
    { AUTH_RATE_LIMIT_MAX: '10000', FREE_MESSAGES_PER_MONTH: String(LIMIT) },
    { clock: () => now },
  );
});
afterAll(async () => t.close());

describe('GET /auth/me/usage', () => {
  it('L-2 answers the summary of the current UTC month, under /auth and /api/auth', async () => {
    now = new Date('2026-11-15T10:00:00.000Z');
    const ana = await register();
    const usage = await usageOf(ana);
    expect(usage).toEqual({
      success: true,
      plan: 'free',
      usage: {
        messagesThisMonth: 0,
        voiceMinutesThisMonth: 0,
        period: '2026-11',
        resetsAt: '2026-12-01T00:00:00.000Z',
      },
      limits: { messages: LIMIT, voiceMinutes: PLAN_TABLE.free.limits.voiceMinutes },
      messagesLimitLabel: String(LIMIT),
    });
    expect(await usageOf(ana, '/api/auth/me/usage')).toEqual(usage);
  });

  it('L-3 counts each new message; a duplicate clientMessageId does not count', async () => {
    now = new Date('2026-11-15T10:00:00.000Z');
    const ana = await register();
    expect((await send(ana, 'Hola', 'dup-1')).statusCode).toBe(200);
    expect((await send(ana, 'Hola', 'dup-1')).statusCode).toBe(200);
    expect((await usageOf(ana)).usage.messagesThisMonth).toBe(1);
    expect((await send(ana, '¿Qué tal?')).statusCode).toBe(200);
    expect((await usageOf(ana)).usage.messagesThisMonth).toBe(2);
  });

  it('shows "∞" and no cap for a plan without a monthly limit', async () => {
    const boss = await register();
    await t.storage.users.update(boss.id, { plan: 'enterprise' });
    const usage = await usageOf(boss);
    expect(usage.plan).toBe('enterprise');
    expect(usage.limits).toEqual({ messages: null, voiceMinutes: null });
    expect(usage.messagesLimitLabel).toBe('∞');
    expect((await send(boss, 'Hola')).statusCode).toBe(200);
    expect((await usageOf(boss)).usage.messagesThisMonth).toBe(1);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth/me/usage' });
    expect(res.statusCode).toBe(401);
  });
});

describe('monthly limit', () => {
  it(`L-3 refuses message ${LIMIT + 1} with 429 limit_reached in the caller's language, storing nothing`, async () => {
    now = new Date('2026-11-20T09:00:00.000Z');
    const ana = await register();
    for (let i = 1; i <= LIMIT; i += 1)
      expect((await send(ana, `Mensaje ${i}`, `m-${i}`)).statusCode).toBe(200);
    const before = await storedUserMessages(ana);
    expect(before.messages).toBe(LIMIT);

    const refused = await send(ana, 'Uno más', 'm-over');
    expect(refused.statusCode).toBe(429);
    expect(ApiErrorSchema.parse(json(refused)).error).toEqual({
      code: 'limit_reached',
      message: 'Has alcanzado el límite de mensajes de tu plan.',
    });
    const english = await send(ana, 'One more', 'm-over-en', 'en');
    expect(ApiErrorSchema.parse(json(english)).error.message).toBe(
      "You've reached your plan's message limit.",
    );
    // Nothing stored, no session created, the count stays at the cap.
    expect(await storedUserMessages(ana)).toEqual(before);
    expect(await t.storage.messages.findByClientMessageId(ana.id, 'm-over')).toBeNull();
    expect((await usageOf(ana)).usage.messagesThisMonth).toBe(LIMIT);
    // A retry of a message stored before the cap is still answered: it is not new.
    expect((await send(ana, 'Mensaje 1', 'm-1')).statusCode).toBe(200);
  });

  it('L-2 resets on the 1st at 00:00 UTC: Nov 30 23:59 still counts November, Dec 1 starts at zero', async () => {
    now = new Date('2026-11-10T12:00:00.000Z');
    const ana = await register();
    for (let i = 1; i <= LIMIT; i += 1) await send(ana, `Noviembre ${i}`);
    now = new Date('2026-11-30T23:59:00.000Z');
    expect((await usageOf(ana)).usage).toMatchObject({ messagesThisMonth: LIMIT, period: '2026-11' });
    expect((await send(ana, 'Todavía noviembre')).statusCode).toBe(429);

    now = new Date('2026-12-01T00:00:00.000Z');
    expect((await usageOf(ana)).usage).toEqual({
      messagesThisMonth: 0,
      voiceMinutesThisMonth: 0,
      period: '2026-12',
      resetsAt: '2027-01-01T00:00:00.000Z',
    });
    expect((await send(ana, 'Ya es diciembre')).statusCode).toBe(200);
    expect((await usageOf(ana)).usage.messagesThisMonth).toBe(1);
  });

  it("L-3 counts per user: one user's cap does not touch another's", async () => {
    now = new Date('2026-11-20T09:00:00.000Z');
    const [ana, bea] = [await register(), await register()];
    for (let i = 1; i <= LIMIT; i += 1) await send(ana, `Mensaje ${i}`);
    expect((await send(ana, 'Otro')).statusCode).toBe(429);
    expect((await send(bea, 'Hola')).statusCode).toBe(200);
    expect((await usageOf(bea)).usage.messagesThisMonth).toBe(1);
  });
});

describe('POST /auth/me/usage/reset', () => {
  it('L-4 is refused with 403 for a user who is not an admin, for themselves and for others', async () => {
    now = new Date('2026-11-20T09:00:00.000Z');
    const [ana, bea] = [await register(), await register()];
    await send(bea, 'Hola');
    for (const payload of [undefined, {}, { userId: bea.id }, { userId: 'no-such-user' }]) {
      const res = await call(ana, 'POST', '/auth/me/usage/reset', payload);
      expect(res.statusCode).toBe(403);
      expect(ApiErrorSchema.parse(json(res)).error.code).toBe('forbidden');
    }
    expect((await usageOf(bea)).usage.messagesThisMonth).toBe(1);
  });

  it("L-4 lets an admin reset their own usage and another user's by id; an unknown id is not_found", async () => {
    now = new Date('2026-11-20T09:00:00.000Z');
    const [admin, bea] = [await register(), await register()];
    await t.storage.users.update(admin.id, { role: 'admin' });
    for (let i = 1; i <= LIMIT; i += 1) await send(bea, `Mensaje ${i}`);
    await send(admin, 'Hola');
    expect((await send(bea, 'Otro')).statusCode).toBe(429);

    const other = await call(admin, 'POST', '/api/auth/me/usage/reset', { userId: bea.id });
    expect(other.statusCode).toBe(200);
    const body = routes.account.resetUsage.response.parse(json(other));
    expect(body).toMatchObject({ success: true, userId: bea.id, plan: 'free' });
    expect(body.usage).toMatchObject({ messagesThisMonth: 0, period: '2026-11' });
    expect((await usageOf(bea)).usage.messagesThisMonth).toBe(0);
    expect((await send(bea, 'De nuevo')).statusCode).toBe(200);
    expect((await usageOf(admin)).usage.messagesThisMonth).toBe(1); // untouched

    const own = await call(admin, 'POST', '/auth/me/usage/reset');
    expect(routes.account.resetUsage.response.parse(json(own)).userId).toBe(admin.id);
    expect((await usageOf(admin)).usage.messagesThisMonth).toBe(0);

    const unknown = await call(admin, 'POST', '/auth/me/usage/reset', { userId: 'no-such-user' });
    expect(unknown.statusCode).toBe(404);
    expect(ApiErrorSchema.parse(json(unknown)).error.code).toBe('not_found');
  });

  it('validates the body: an extra field is a 400', async () => {
    const admin = await register();
    await t.storage.users.update(admin.id, { role: 'admin' });
    const res = await call(admin, 'POST', '/auth/me/usage/reset', { userId: admin.id, all: true });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /api/upload/subscription-limits', () => {
  it('answers the full shape of spec §3 for the free plan', async () => {
    now = new Date('2026-11-20T09:00:00.000Z');
    const ana = await register();
    await send(ana, 'Hola');
    const res = await call(ana, 'GET', '/api/upload/subscription-limits');
    expect(res.statusCode).toBe(200);
    const { subscription } = routes.account.subscriptionLimits.response.parse(json(res));
    expect(subscription).toEqual({
      plan: 'free',
      limits: {
        maxCustomAvatars: 2,
        maxCustomVoices: 2,
        maxAvatarFileSize: 52_428_800,
        maxVoiceFileSize: 10_485_760,
        maxTotalStorage: 104_857_600,
        maxConcurrentUploads: 1,
        maxProcessingTime: 300_000,
        messages: LIMIT,
        voiceMinutes: 30,
        features: ['basic_chat', 'text_to_speech', 'custom_avatars', 'custom_voices'],
      },
      usage: {
        customAvatars: 0,
        customVoices: 0,
        totalStorageBytes: 0,
        avatarStorageBytes: 0,
        voiceStorageBytes: 0,
        currentProcessingUploads: 0,
        messagesThisMonth: 1,
        voiceMinutesThisMonth: 0,
      },
      formatted: {
        totalStorage: '0 B',
        maxTotalStorage: '100 MB',
        avatarStorage: '0 B',
        voiceStorage: '0 B',
        storagePercentage: '0%',
        avatarSlotsUsed: '0/2',
        voiceSlotsUsed: '0/2',
        processingSlots: '0/1',
        maxAvatarFileSize: '50 MB',
        maxVoiceFileSize: '10 MB',
      },
      warnings: [],
      canUploadAvatar: true,
      canUploadVoice: true,
    });
  });

  it('follows the plan stored on the user', async () => {
    const ana = await register();
    await t.storage.users.update(ana.id, { plan: 'pro' });
    const { subscription } = routes.account.subscriptionLimits.response.parse(
      json(await call(ana, 'GET', '/api/upload/subscription-limits')),
    );
    expect(subscription.plan).toBe('pro');
    expect(subscription.limits).toMatchObject({
      maxCustomAvatars: 10,
      maxConcurrentUploads: 3,
      messages: 5000,
    });
    expect(subscription.formatted).toMatchObject({ maxTotalStorage: '500 MB', avatarSlotsUsed: '0/10' });
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/upload/subscription-limits' })).statusCode).toBe(
      401,
    );
  });
});
