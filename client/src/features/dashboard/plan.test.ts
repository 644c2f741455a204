import { describe, expect, it } from 'vitest';
import { effectivePlan, usageLevel, usageRatio } from './plan.ts';

describe('usage bars (spec §2 Usage, §9: warning at 70 %, danger at 90 %)', () => {
  it.each([
    [0, 500, 'normal'],
    [349, 500, 'normal'],
    [350, 500, 'warning'],
    [449, 500, 'warning'],
    [450, 500, 'danger'],
    [500, 500, 'danger'],
    [900, 500, 'danger'],
    [20.9, 30, 'normal'],
    [21, 30, 'warning'],
    [27, 30, 'danger'],
  ] as const)('%d of %d is %s', (used, limit, level) => {
    expect(usageLevel(used, limit)).toBe(level);
  });

  it('an unlimited (null) or empty limit never warns', () => {
    expect(usageLevel(10_000, null)).toBe('normal');
    expect(usageLevel(3, 0)).toBe('normal');
  });

  it('the bar is capped at 100 %', () => {
    expect(usageRatio(900, 500)).toBe(1);
    expect(usageRatio(125, 500)).toBe(0.25);
  });
});

describe('stored plan wins (spec §3 Subscription)', () => {
  it('the server says free but the stored user plan is higher: the stored plan', () => {
    expect(effectivePlan('free', 'pro')).toBe('pro');
    expect(effectivePlan('free', 'enterprise')).toBe('enterprise');
  });

  it('otherwise the server', () => {
    expect(effectivePlan('free', 'free')).toBe('free');
    expect(effectivePlan('free', null)).toBe('free');
    expect(effectivePlan('pro', 'enterprise')).toBe('pro');
    expect(effectivePlan('enterprise', 'free')).toBe('enterprise');
  });
});
