import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.ts';
import { manualClock } from '../../test-support/mail.ts';
import { createLoginGuard } from './login-guard.ts';

const MIN = 60_000;

function setup() {
  const time = manualClock();
  const guard = createLoginGuard({
    maxFailuresPerAccount: 3,
    maxFailuresPerAddress: 5,
    windowMs: 15 * MIN,
    clock: time.clock,
  });
  const retryAfter = (email: string, address: string): number | null => {
    try {
      guard.check(email, address);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('rate_limited');
      return (error as AppError).options.retryAfterMs ?? -1;
    }
  };
  return { ...time, guard, retryAfter };
}

describe('login guard (A-8)', () => {
  it('A-8 locks an account after its maximum of failures, from any address, until the oldest leaves the window', () => {
    const { guard, advance, retryAfter } = setup();
    guard.recordFailure('ana@example.com', '10.0.0.1');
    advance(MIN);
    guard.recordFailure('ANA@example.com', '10.0.0.2');
    advance(MIN);
    expect(retryAfter('ana@example.com', '10.0.0.3')).toBeNull();
    guard.recordFailure('ana@example.com', '10.0.0.3');
    expect(retryAfter('ana@example.com', '10.0.0.9')).toBe(13 * MIN);
    expect(retryAfter('other@example.com', '10.0.0.9')).toBeNull();
    advance(13 * MIN - 1);
    expect(retryAfter('ana@example.com', '10.0.0.9')).toBe(1);
    advance(1);
    expect(retryAfter('ana@example.com', '10.0.0.9')).toBeNull();
  });

  it('A-8 locks an address after its maximum of failures, whatever the emails', () => {
    const { guard, retryAfter } = setup();
    for (let i = 0; i < 5; i++) guard.recordFailure(`user${i}@example.com`, '10.0.0.1');
    expect(retryAfter('fresh@example.com', '10.0.0.1')).toBe(15 * MIN);
    expect(retryAfter('fresh@example.com', '10.0.0.2')).toBeNull();
  });

  it('A-8 a success clears the account count but not the address count', () => {
    const { guard, retryAfter } = setup();
    guard.recordFailure('ana@example.com', '10.0.0.1');
    guard.recordFailure('ana@example.com', '10.0.0.1');
    guard.recordSuccess('ana@example.com');
    guard.recordFailure('ana@example.com', '10.0.0.1');
    guard.recordFailure('ana@example.com', '10.0.0.1');
    expect(retryAfter('ana@example.com', '10.0.0.2')).toBeNull();
    guard.recordFailure('bob@example.com', '10.0.0.1');
    expect(retryAfter('carl@example.com', '10.0.0.1')).toBe(15 * MIN);
  });
});
