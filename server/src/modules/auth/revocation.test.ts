import { AuthSessionSchema } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, json, registrationBody, type TestApp } from '../../test-support/app.ts';
import { captureMailer, manualClock } from '../../test-support/mail.ts';
import { createMemoryRevocation } from './revocation.ts';

/**
 * Issue 14 "no database read per authenticated request that a short-lived cache or the token
 * itself can answer (keep revocation correct)": the token carries the user, role, sign-in and
 * token version; revocation state is cached per process (SPEC.md A-12).
 */
describe('A-12 authenticated requests without a database read', () => {
  const time = manualClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000' }, { clock: time.clock, mailer: captureMailer() });
  });
  afterAll(async () => t.close());

  it('A-12 twenty authenticated requests read the user and the sign-in at most once each', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: registrationBody({ email: 'cached@example.com' }),
    });
    const session = AuthSessionSchema.parse(json(res));
    const reads = [
      vi.spyOn(t.storage.users, 'findById'),
      vi.spyOn(t.storage.users, 'tokenVersion'),
      vi.spyOn(t.storage.refreshTokens, 'familyActive'),
      vi.spyOn(t.storage.refreshTokens, 'findByHash'),
    ];
    for (let i = 0; i < 20; i++) {
      const list = await t.app.inject({
        method: 'GET',
        url: '/chat/sessions',
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(list.statusCode).toBe(200);
    }
    const total = reads.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    expect(total).toBeLessThanOrEqual(2);
    for (const spy of reads) spy.mockRestore();
  });
});

describe('A-12 the in-memory revocation cache', () => {
  /** One database (two repositories' worth of state) shared by two processes' caches. */
  function sharedDatabase() {
    const versions = new Map<string, number>([['u1', 0]]);
    const live = new Map<string, boolean>([['f1', true]]);
    const reads = { versions: 0, families: 0 };
    return {
      reads,
      users: {
        tokenVersion: async (id: string) => (reads.versions++, versions.get(id) ?? null),
        bumpTokenVersion: async (id: string) => {
          const next = (versions.get(id) ?? 0) + 1;
          versions.set(id, next);
          return next;
        },
      },
      refreshTokens: {
        familyActive: async (id: string) => (reads.families++, live.get(id) ?? false),
        revokeFamily: async (id: string) => void live.set(id, false),
        revokeAllForUser: async () => {
          for (const id of live.keys()) live.set(id, false);
        },
      },
    };
  }

  it('A-12 answers from memory within the recheck time, and a revocation here applies at once', async () => {
    const time = manualClock();
    const db = sharedDatabase();
    const revocation = createMemoryRevocation({ ...db, clock: time.clock, recheckMs: 5000 });
    const claims = { sub: 'u1', sid: 'f1', tv: 0 };
    for (let i = 0; i < 50; i++) expect(await revocation.ended(claims)).toBeNull();
    expect(db.reads).toEqual({ versions: 1, families: 1 });
    await revocation.revokeFamily('u1', 'f1', 'signed_out');
    expect(await revocation.ended(claims)).toBe('signed_out');
  });

  it('A-12 a revocation made by another process is seen once the recheck time has passed', async () => {
    const time = manualClock();
    const db = sharedDatabase();
    const here = createMemoryRevocation({ ...db, clock: time.clock, recheckMs: 5000 });
    const there = createMemoryRevocation({ ...db, clock: time.clock, recheckMs: 5000 });
    const claims = { sub: 'u1', sid: 'f1', tv: 0 };
    expect(await here.ended(claims)).toBeNull();
    await there.revokeUser('u1', 'password_changed');
    expect(await there.ended(claims)).toBe('password_changed');
    time.advance(4000);
    // Until then this process may still accept it: the bound SPEC.md A-12 states.
    expect(await here.ended(claims)).toBeNull();
    time.advance(1000);
    expect(await here.ended(claims)).toBe('session_revoked');
  });
});
