import { describe, expect, it } from 'vitest';
import { ReplySchedule, START_LEAD_S, type ScheduledChunk } from './scheduler.ts';

const chunk = (seq: number, durationMs: number, visemes: ScheduledChunk['visemes'] = []): ScheduledChunk => ({
  seq,
  durationMs,
  visemes,
  offsetMs: 0,
});

describe('ReplySchedule (SPEC.md S-1, S-8)', () => {
  it('keeps chunks in seq order and the timeline as the sum of the earlier durationMs', () => {
    const schedule = new ReplySchedule('r');
    for (const c of [chunk(5, 500), chunk(2, 1000), chunk(9, 250)]) expect(schedule.add(c)).toBe(true);
    expect(schedule.chunks.map((c) => [c.seq, c.offsetMs])).toEqual([
      [2, 0],
      [5, 1000],
      [9, 1500],
    ]);
    expect(schedule.totalMs).toBe(1750);
    expect(schedule.add(chunk(5, 500))).toBe(false);
  });

  it('places each chunk where the previous ends, the first just after now, and refuses a chunk older than one placed', () => {
    const schedule = new ReplySchedule('r');
    const [a, b] = [chunk(1, 400), chunk(2, 300)];
    schedule.add(a);
    schedule.add(b);
    expect(schedule.place(a, 0.4, 10)).toEqual({ startAt: 10 + START_LEAD_S, length: 0.4 });
    expect(schedule.place(b, 0.3, 10.2)).toEqual({ startAt: 10 + START_LEAD_S + 0.4, length: 0.3 });
    expect(schedule.accepts(0)).toBe(false);
    expect(schedule.accepts(3)).toBe(true);
    // After a silence (nothing sounding) the next chunk starts at once.
    schedule.ended();
    expect(schedule.ended()).toBe(true);
    const c = chunk(3, 200);
    schedule.add(c);
    expect(schedule.place(c, 0.2, 20)).toEqual({ startAt: 20 + START_LEAD_S, length: 0.2 });
  });

  it('a chunk sounds for durationMs at most, whatever the decoder gave (S-8)', () => {
    const schedule = new ReplySchedule('r');
    const a = chunk(1, 400);
    schedule.add(a);
    expect(schedule.place(a, 0.466, 0).length).toBe(0.4);
    expect(schedule.endAt).toBeCloseTo(START_LEAD_S + 0.4, 9);
  });

  it("maps a moment of the clock to the timeline and to the sounding chunk's viseme", () => {
    const schedule = new ReplySchedule('r');
    const a = chunk(1, 1000, [{ t: 100, v: 'aa', w: 0.9 }]);
    const b = chunk(2, 1000, [{ t: 50, v: 'O', w: 0.7 }]);
    schedule.add(a);
    schedule.add(b);
    schedule.place(a, 1, 0);
    schedule.place(b, 1, 0);
    expect(schedule.heardUntilMs(0)).toBe(0);
    expect(schedule.heardUntilMs(START_LEAD_S + 1.3)).toBe(1300);
    expect(schedule.heardUntilMs(99)).toBe(2000);
    expect(schedule.soundingAt(START_LEAD_S + 1.06)?.chunk.seq).toBe(2);
    expect(schedule.mouthState(START_LEAD_S + 1.06)).toEqual({ viseme: 'O', weight: 0.7 });
    expect(schedule.mouthState(START_LEAD_S + 2.5)).toEqual({ viseme: 'sil', weight: 0 });
  });
});
