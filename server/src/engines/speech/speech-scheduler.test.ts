import { describe, expect, it } from 'vitest';
import { createSpeechScheduler, type ScheduledJob } from './speech-scheduler.ts';

let clock = 0;
const refused: string[] = [];
const job = (name: string, first: boolean, aborted = false): ScheduledJob & { name: string } => ({
  name,
  first,
  queuedAt: clock,
  aborted: () => aborted,
  refuse: (reason) => refused.push(`${name}:${reason}`),
});
const drain = (s: ReturnType<typeof createSpeechScheduler<ReturnType<typeof job>>>) => {
  const out: string[] = [];
  for (let j = s.next(); j; j = s.next()) out.push(j.name);
  return out;
};

describe('S-10 the speech scheduler', () => {
  it("serves every reply's first clause before anyone's later clauses, each kind in arrival order", () => {
    refused.length = 0;
    const s = createSpeechScheduler<ReturnType<typeof job>>({
      maxQueued: 10,
      maxWaitMs: 1000,
      now: () => clock,
    });
    for (const j of [
      job('a1', true),
      job('a2', false),
      job('a3', false),
      job('b1', true),
      job('b2', false),
      job('c1', true),
    ])
      s.add(j);
    expect(drain(s)).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'b2']);
    expect(refused).toEqual([]);
  });

  it('when full, refuses a later clause, and a first clause takes the place of the newest later one', () => {
    refused.length = 0;
    const s = createSpeechScheduler<ReturnType<typeof job>>({
      maxQueued: 2,
      maxWaitMs: 1000,
      now: () => clock,
    });
    expect(s.add(job('a2', false))).toBe(true);
    expect(s.add(job('a3', false))).toBe(true);
    expect(s.add(job('a4', false))).toBe(false);
    expect(s.add(job('b1', true))).toBe(true);
    expect(s.add(job('c1', true))).toBe(true);
    expect(s.add(job('d1', true))).toBe(false);
    expect(refused).toEqual(['a4:busy', 'a3:busy', 'a2:busy', 'd1:busy']);
    expect(drain(s)).toEqual(['b1', 'c1']);
  });

  it('refuses, when its turn comes, a job that waited too long or whose reply was stopped', () => {
    refused.length = 0;
    clock = 0;
    const s = createSpeechScheduler<ReturnType<typeof job>>({
      maxQueued: 10,
      maxWaitMs: 100,
      now: () => clock,
    });
    s.add(job('old', false));
    s.add(job('stopped', true, true));
    clock = 50;
    s.add(job('fresh', false));
    clock = 120;
    expect(drain(s)).toEqual(['fresh']);
    expect(refused).toEqual(['stopped:aborted', 'old:busy']);
  });
});
