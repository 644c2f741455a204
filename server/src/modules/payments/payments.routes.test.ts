import { ApiErrorSchema, routes, type HttpMethod } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp, registrationBody } from '../../test-support/app.ts';

let t: TestApp;
let now = new Date('2026-11-15T10:00:00.000Z');
let n = 0;

async function register(): Promise<{ id: string; token: string }> {
  n += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ name: `Cliente ${n}`, email: `pay${n}@example.com` }),
  });
  const body = json(res) as { token: string; user: { id: string } };
  return { id: body.user.id, token: body.token };
}
const call = (token: string, method: HttpMethod, url: string, payload?: unknown, language = 'es') =>
  t.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${token}`, 'accept-language': language },
  });

beforeAll(async () => {
  t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000' }, { clock: () => now });
});
afterAll(async () => t.close());

const r = routes.payment;
const actions: [string, HttpMethod, string, unknown][] = [
  ['checkout', r.createCheckoutSession.method, r.createCheckoutSession.path, { plan: 'pro' }],
  ['billing portal', r.createBillingPortalSession.method, r.createBillingPortalSession.path, undefined],
  ['cancel', r.cancelSubscription.method, r.cancelSubscription.path, undefined],
  ['reactivate', r.reactivateSubscription.method, r.reactivateSubscription.path, undefined],
  ['billing history', r.billingHistory.method, r.billingHistory.path, undefined],
];

describe('payment actions in maintenance', () => {
  it.each(actions)(
    'L-5 %s answers 503 payments_maintenance in Spanish and English',
    async (_name, method, url, body) => {
      const user = await register();
      const es = await call(user.token, method, url, body, 'es');
      expect(es.statusCode).toBe(503);
      expect(ApiErrorSchema.parse(json(es)).error).toEqual({
        code: 'payments_maintenance',
        message: expect.stringMatching(/^Los planes de pago están en mantenimiento/) as unknown,
      });
      const en = await call(user.token, method, url, body, 'en');
      expect(en.statusCode).toBe(503);
      expect(ApiErrorSchema.parse(json(en)).error.message).toMatch(/^Paid plans are in maintenance/);
    },
  );

  it('L-5 maintenance comes before no_active_subscription: a free user cancelling hears maintenance', async () => {
    const user = await register();
    for (const url of [r.cancelSubscription.path, r.reactivateSubscription.path]) {
      const res = await call(user.token, 'POST', url);
      expect(ApiErrorSchema.parse(json(res)).error.code).toBe('payments_maintenance');
    }
  });

  it('L-5 still refuses a paid user: nothing can be changed while payments are in maintenance', async () => {
    const user = await register();
    await t.storage.users.update(user.id, { plan: 'pro' });
    const res = await call(user.token, 'POST', r.cancelSubscription.path);
    expect(res.statusCode).toBe(503);
  });

  it('validates the checkout body first: only paid plans can be asked for', async () => {
    const user = await register();
    const res = await call(user.token, 'POST', r.createCheckoutSession.path, { plan: 'free' });
    expect(res.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(json(res)).error.code).toBe('validation_failed');
  });

  it.each(actions)('%s needs a signed-in user', async (_name, method, url) => {
    expect((await t.app.inject({ method, url })).statusCode).toBe(401);
  });
});

describe('GET /api/payment/subscription', () => {
  it('L-5 reports the free plan as active, without an end', async () => {
    const user = await register();
    const res = await call(user.token, 'GET', r.subscription.path);
    expect(res.statusCode).toBe(200);
    expect(r.subscription.response.parse(json(res))).toEqual({
      success: true,
      subscription: { plan: 'free', isActive: true, isCanceled: false, currentPeriodEnd: null },
    });
  });

  it('L-5 reports a paid plan set on the user as active until the end of the UTC month', async () => {
    now = new Date('2026-11-15T10:00:00.000Z');
    const user = await register();
    await t.storage.users.update(user.id, { plan: 'enterprise' });
    const { subscription } = r.subscription.response.parse(
      json(await call(user.token, 'GET', r.subscription.path)),
    );
    expect(subscription).toEqual({
      plan: 'enterprise',
      isActive: true,
      isCanceled: false,
      currentPeriodEnd: '2026-12-01T00:00:00.000Z',
    });
  });

  it("answers each user's own state only", async () => {
    const [free, paid] = [await register(), await register()];
    await t.storage.users.update(paid.id, { plan: 'pro' });
    const mine = r.subscription.response.parse(json(await call(free.token, 'GET', r.subscription.path)));
    expect(mine.subscription.plan).toBe('free');
  });
});
