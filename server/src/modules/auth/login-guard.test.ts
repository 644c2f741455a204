import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.ts';
import { openEmbeddedStorage } from '../../storage/embedded/index.ts';
import type { KnownDeviceRepository } from '../../storage/types.ts';
import { manualClock } from '../../test-support/mail.ts';
import { useTestRedis } from '../../test-support/redis-suite.ts';
import {
  createMemoryLoginAttempts,
  createRedisLoginAttempts,
  type LoginAttemptStore,
} from './login-attempts.ts';
import { createLoginGuard } from './login-guard.ts';

const MIN = 60_000;

/** The guard's rules, run over each store: the policy must not depend on where counts live. */
function guardRules(
  name: string,
  makeStore: () => LoginAttemptStore,
  makeDevices?: () => KnownDeviceRepository,
) {
  let run = 0;
  function setup() {
    const time = manualClock();
    const guard = createLoginGuard({
      maxFailuresPerAccount: 3,
      maxFailuresPerAddress: 5,
      windowMs: 15 * MIN,
      clock: time.clock,
      store: makeStore(),
      knownDevices: makeDevices?.(),
    });
    // Emails unique to this test: a Redis store outlives one test.
    const tag = `${name}${++run}`;
    const mail = (user: string) => `${user}.${tag}@example.com`;
    const ip = (last: number) => `10.${run % 250}.0.${last}`;
    const retryAfter = async (email: string, address: string): Promise<number | null> => {
      try {
        await guard.check(email, address);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('rate_limited');
        return (error as AppError).options.retryAfterMs ?? -1;
      }
    };
    return { ...time, guard, retryAfter, mail, ip };
  }

  describe(`login guard (A-8) over ${name}`, () => {
    it('A-8 locks an (account, address) pair at its maximum until the oldest failure leaves the window; the owner elsewhere is not locked', async () => {
      const { guard, advance, retryAfter, mail, ip } = setup();
      const ana = mail('ana');
      await guard.recordFailure(ana, ip(1));
      advance(MIN);
      await guard.recordFailure(ana.toUpperCase(), ip(1));
      advance(MIN);
      expect(await retryAfter(ana, ip(1))).toBeNull();
      await guard.recordFailure(ana, ip(1));
      expect(await retryAfter(ana, ip(1))).toBe(13 * MIN);
      expect(await retryAfter(ana, ip(2))).toBeNull();
      advance(13 * MIN - 1);
      expect(await retryAfter(ana, ip(1))).toBe(1);
      advance(1);
      expect(await retryAfter(ana, ip(1))).toBeNull();
    });

    it('A-8 locks an address at its maximum, whatever the emails', async () => {
      const { guard, retryAfter, mail, ip } = setup();
      for (let i = 0; i < 5; i++) await guard.recordFailure(mail(`user${i}`), ip(1));
      expect(await retryAfter(mail('fresh'), ip(1))).toBe(15 * MIN);
      expect(await retryAfter(mail('fresh'), ip(2))).toBeNull();
    });

    it('A-8 past the maximum from many addresses the account is slowed for unknown addresses, the spacing doubling', async () => {
      const { guard, advance, retryAfter, mail, ip } = setup();
      const ana = mail('ana');
      for (let i = 0; i < 3; i++) await guard.recordFailure(ana, ip(10 + i));
      const waits: number[] = [];
      for (let i = 0; i < 3; i++) {
        expect(await retryAfter(ana, ip(20 + i))).toBeNull(); // its turn
        await guard.recordFailure(ana, ip(20 + i));
        const wait = (await retryAfter(ana, ip(30 + i))) ?? 0;
        waits.push(wait);
        advance(wait);
      }
      expect(waits).toEqual([1000, 2000, 4000]);
    });

    it('A-8 a known device is never slowed by strangers, and a sign-in clears its pair', async () => {
      const { guard, advance, retryAfter, mail, ip } = setup();
      const ana = mail('ana');
      await guard.recordFailure(ana, ip(1));
      await guard.recordFailure(ana, ip(1));
      await guard.recordSuccess(ana, ip(1)); // the owner signs in: a known device now
      for (let i = 0; i < 20; i++) await guard.recordFailure(ana, ip(100 + i));
      for (let i = 0; i < 3; i++) expect(await retryAfter(ana, ip(1))).toBeNull();
      expect(await retryAfter(ana, ip(98))).toBeNull(); // a stranger takes the turn…
      expect(await retryAfter(ana, ip(99))).not.toBeNull(); // …and the next one waits
      // The pair's count was cleared: two more failures do not lock it.
      await guard.recordFailure(ana, ip(1));
      await guard.recordFailure(ana, ip(1));
      expect(await retryAfter(ana, ip(1))).toBeNull();
      // Known for 30 days from the last sign-in.
      advance(31 * 24 * 60 * MIN);
      for (let i = 0; i < 4; i++) await guard.recordFailure(ana, ip(200 + i));
      expect(await retryAfter(ana, ip(1))).toBeNull(); // its turn, taken
      expect(await retryAfter(ana, ip(1))).not.toBeNull(); // no longer known: it waits too
    });

    it('A-8 a password reset (success without an address) ends the account slowdown', async () => {
      const { guard, retryAfter, mail, ip } = setup();
      const ana = mail('ana');
      for (let i = 0; i < 6; i++) await guard.recordFailure(ana, ip(10 + i));
      expect(await retryAfter(ana, ip(50))).toBeNull();
      expect(await retryAfter(ana, ip(51))).not.toBeNull();
      await guard.recordSuccess(ana);
      expect(await retryAfter(ana, ip(51))).toBeNull();
      expect(await retryAfter(ana, ip(52))).toBeNull();
    });
  });
}

guardRules('memory', createMemoryLoginAttempts);
// As the app runs it: counts in memory, known devices in the database.
guardRules(
  'memory with known devices in the database',
  createMemoryLoginAttempts,
  () => openEmbeddedStorage({ file: ':memory:' }).knownDevices,
);

it('A-8 a restart in the middle of an attack forgets the failures but not the owner’s known device', async () => {
  const time = manualClock();
  const storage = openEmbeddedStorage({ file: ':memory:' });
  const options = {
    maxFailuresPerAccount: 3,
    maxFailuresPerAddress: 5,
    windowMs: 15 * MIN,
    clock: time.clock,
    knownDevices: storage.knownDevices,
  };
  const before = createLoginGuard({ ...options, store: createMemoryLoginAttempts() });
  await before.recordSuccess('ana@example.com', '10.9.0.1');
  // The process restarts: a new guard and an empty memory, the same database.
  const after = createLoginGuard({ ...options, store: createMemoryLoginAttempts() });
  for (let i = 0; i < 10; i++) await after.recordFailure('ana@example.com', `10.9.1.${i}`);
  await expect(after.check('ana@example.com', '10.9.2.1')).resolves.toBeUndefined(); // a stranger's turn
  await expect(after.check('ana@example.com', '10.9.2.2')).rejects.toThrow(AppError); // the next waits
  for (let i = 0; i < 3; i++)
    await expect(after.check('ana@example.com', '10.9.0.1')).resolves.toBeUndefined();
  await storage.close();
});

describe('with Redis', () => {
  const suite = useTestRedis();
  guardRules('redis', () => createRedisLoginAttempts(suite.redis));

  it('M-2 A-8 a store that fails lets the attempt through and says so, rather than refusing everyone', async () => {
    const broken = new Redis(`redis://127.0.0.1:${suite.server.port + 1}`, {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    broken.on('error', () => {}); // the refusals are what this test is about
    const errors: unknown[] = [];
    const guard = createLoginGuard({
      maxFailuresPerAccount: 1,
      maxFailuresPerAddress: 1,
      windowMs: MIN,
      clock: manualClock().clock,
      store: createRedisLoginAttempts(broken),
      onStoreError: (error) => errors.push(error),
    });
    await guard.recordFailure('x@example.com', '10.0.0.1');
    await expect(guard.check('x@example.com', '10.0.0.1')).resolves.toBeUndefined();
    expect(errors.length).toBeGreaterThanOrEqual(2);
    broken.disconnect();
  });
});
