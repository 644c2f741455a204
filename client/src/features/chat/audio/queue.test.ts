import { describe, expect, it } from 'vitest';
import { SpeechQueue, type AudioBufferLike, type AudioContextLike, type AudioSourceLike } from './queue.ts';

/*
 * jsdom has no Web Audio, so the AudioContext is faked at that boundary: decodeAudioData
 * resolves when the test says so, with a buffer whose duration the test picks, and sources
 * record when they were started. Everything else (ordering, scheduling, timeline) is real.
 */

interface FakeSource extends AudioSourceLike {
  startedAt: number | null;
  /** The `offset` and `duration` start() was given. */
  played: [number | undefined, number | undefined];
  stopped: boolean;
  label: number;
}

class FakeContext implements AudioContextLike {
  currentTime = 0;
  state = 'running';
  destination = {};
  sources: FakeSource[] = [];
  private decodes: { label: number; resolve: (b: AudioBufferLike) => void }[] = [];

  resume() {
    this.state = 'running';
    return Promise.resolve();
  }
  decodeAudioData(data: ArrayBuffer): Promise<AudioBufferLike> {
    const label = new Uint8Array(data)[0] ?? -1;
    return new Promise((resolve) => this.decodes.push({ label, resolve }));
  }
  /** Finishes the decode of the chunk whose first byte is `label`, lasting `seconds`. */
  finishDecode(label: number, seconds: number) {
    const d = this.decodes.find((x) => x.label === label);
    if (!d) throw new Error(`no decode ${label}`);
    d.resolve({ duration: seconds, label } as AudioBufferLike);
  }
  createBufferSource(): AudioSourceLike {
    const source: FakeSource = {
      buffer: null,
      onended: null,
      startedAt: null,
      played: [undefined, undefined],
      stopped: false,
      label: -1,
      connect: () => undefined,
      start(when: number, offset?: number, duration?: number) {
        source.startedAt = when;
        source.played = [offset, duration];
        source.label = (source.buffer as unknown as { label: number }).label;
      },
      stop() {
        source.stopped = true;
      },
    };
    this.sources.push(source);
    return source;
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function chunk(seq: number, durationMs: number, visemes: { t: number; v: string; w: number }[] = []) {
  return { replyId: 'r1', seq, audio: new Uint8Array([seq]).buffer, durationMs, visemes };
}

function setup() {
  const ctx = new FakeContext();
  const queue = new SpeechQueue(() => ctx);
  return { ctx, queue };
}

describe('SpeechQueue (SPEC.md S-1, S-2, S-8)', () => {
  it('schedules chunks back to back, without gaps, in seq order', async () => {
    const { ctx, queue } = setup();
    ctx.currentTime = 10;
    queue.enqueue(chunk(2, 1000));
    queue.enqueue(chunk(5, 500));
    queue.enqueue(chunk(9, 250));
    ctx.finishDecode(2, 1);
    ctx.finishDecode(5, 0.5);
    ctx.finishDecode(9, 0.25);
    await flush();
    const starts = ctx.sources.map((s) => [s.label, s.startedAt]);
    expect(starts).toEqual([
      [2, 10.05],
      [5, 11.05],
      [9, 11.55],
    ]);
    expect(window.__almaAudio?.played.slice(-3)).toEqual([
      { replyId: 'r1', seq: 2, placedAt: 10, startAt: 10.05, length: 1, durationMs: 1000, decodedMs: 1000 },
      { replyId: 'r1', seq: 5, placedAt: 10, startAt: 11.05, length: 0.5, durationMs: 500, decodedMs: 500 },
      { replyId: 'r1', seq: 9, placedAt: 10, startAt: 11.55, length: 0.25, durationMs: 250, decodedMs: 250 },
    ]);
  });

  it('a chunk decoded early waits for its late predecessor', async () => {
    const { ctx, queue } = setup();
    queue.enqueue(chunk(1, 800));
    queue.enqueue(chunk(2, 400));
    ctx.finishDecode(2, 0.4);
    await flush();
    expect(ctx.sources).toHaveLength(0);
    ctx.finishDecode(1, 0.8);
    await flush();
    expect(ctx.sources.map((s) => s.label)).toEqual([1, 2]);
    expect(ctx.sources[1]?.startedAt).toBeCloseTo((ctx.sources[0]?.startedAt ?? 0) + 0.8);
  });

  it('stop() stops every source and returns how much of the reply was heard', async () => {
    const { ctx, queue } = setup();
    queue.enqueue(chunk(1, 1000));
    queue.enqueue(chunk(2, 1000));
    ctx.finishDecode(1, 1);
    ctx.finishDecode(2, 1);
    await flush();
    // 0.05 s lead, then 1.3 s into the reply: the whole first chunk and 300 ms of the second.
    ctx.currentTime = 1.35;
    expect(queue.currentTimeMs()).toBe(1300);
    expect(queue.stop()).toEqual({ replyId: 'r1', heardUntilMs: 1300 });
    expect(ctx.sources.every((s) => s.stopped)).toBe(true);
    // Later chunks of a stopped reply are dropped.
    queue.enqueue(chunk(3, 500));
    expect(queue.replyId).toBeNull();
    expect(queue.stop()).toBeNull();
  });

  it('getMouthState gives the viseme of the sounding chunk at that time', async () => {
    const { ctx, queue } = setup();
    queue.enqueue(
      chunk(1, 500, [
        { t: 0, v: 'sil', w: 0 },
        { t: 100, v: 'aa', w: 0.9 },
        { t: 300, v: 'PP', w: 1 },
      ]),
    );
    queue.enqueue(chunk(2, 500, [{ t: 50, v: 'O', w: 0.7 }]));
    ctx.finishDecode(1, 0.5);
    ctx.finishDecode(2, 0.5);
    await flush();
    expect(queue.getMouthState(0)).toEqual({ viseme: 'sil', weight: 0 });
    expect(queue.getMouthState(0.05 + 0.15)).toEqual({ viseme: 'aa', weight: 0.9 });
    expect(queue.getMouthState(0.05 + 0.35)).toEqual({ viseme: 'PP', weight: 1 });
    // 0.5 s in is the second chunk's start; its first viseme comes at 50 ms.
    expect(queue.getMouthState(0.05 + 0.52)).toEqual({ viseme: 'sil', weight: 0 });
    expect(queue.getMouthState(0.05 + 0.6)).toEqual({ viseme: 'O', weight: 0.7 });
    expect(queue.getMouthState(5)).toEqual({ viseme: 'sil', weight: 0 });
  });

  /** One 500 ms chunk playing from 0.05 s: silence, "aa" from 100 ms, PP from 300 ms. */
  async function playingAaThenPp() {
    const { ctx, queue } = setup();
    queue.enqueue(
      chunk(1, 500, [
        { t: 0, v: 'sil', w: 0 },
        { t: 100, v: 'aa', w: 0.9 },
        { t: 300, v: 'PP', w: 1 },
      ]),
    );
    ctx.finishDecode(1, 0.5);
    await flush();
    return { ctx, queue };
  }

  it('getMouthFrame anticipates the next viseme over the last 60 ms before its onset', async () => {
    const { queue } = await playingAaThenPp();
    expect(queue.getMouthFrame(0)).toEqual({ viseme: 'sil', weight: 0, next: null, nextWeight: 0, blend: 0 });
    // 150 ms in: "aa", PP is 150 ms away — too far to anticipate.
    expect(queue.getMouthFrame(0.05 + 0.15)).toEqual({
      viseme: 'aa',
      weight: 0.9,
      next: 'PP',
      nextWeight: 1,
      blend: 0,
    });
    // 270 ms in: PP starts in 30 ms, halfway through the anticipation window.
    const frame = queue.getMouthFrame(0.05 + 0.27);
    expect(frame).toMatchObject({ viseme: 'aa', next: 'PP' });
    expect(frame.blend).toBeCloseTo(0.5, 5);
    expect(queue.getMouthFrame(0.05 + 0.35)).toEqual({
      viseme: 'PP',
      weight: 1,
      next: null,
      nextWeight: 0,
      blend: 0,
    });
  });

  it('S-8: the mouth follows the sound being heard — the context time less its base and output latency', async () => {
    const { ctx, queue } = await playingAaThenPp();
    // The chunk starts at 0.05 s. 310 ms into it the context renders the PP, but the speaker
    // plays what was rendered 50 ms earlier (10 ms base + 40 ms output latency): still "aa".
    ctx.currentTime = 0.05 + 0.31;
    Object.assign(ctx, { baseLatency: 0.01, outputLatency: 0.04 });
    expect(queue.getMouthState()).toEqual({ viseme: 'aa', weight: 0.9 });
    expect(queue.getMouthFrame()).toMatchObject({ viseme: 'aa', next: 'PP' });
    ctx.currentTime = 0.05 + 0.36;
    expect(queue.getMouthState()).toEqual({ viseme: 'PP', weight: 1 });
    // A browser without the figures (Safari has no outputLatency) uses what it has.
    Object.assign(ctx, { baseLatency: 0.01, outputLatency: undefined });
    ctx.currentTime = 0.05 + 0.305;
    expect(queue.getMouthState()).toEqual({ viseme: 'aa', weight: 0.9 });
    ctx.currentTime = 0.05 + 0.315;
    expect(queue.getMouthState()).toEqual({ viseme: 'PP', weight: 1 });
  });

  it('S-8: each chunk sounds from its first sample for durationMs; a longer decode is cut, the next starts at once', async () => {
    const { ctx, queue } = setup();
    queue.enqueue(chunk(1, 400));
    queue.enqueue(chunk(2, 300));
    // A decoder that ignored the Info frame: 66 ms longer than the chunk.
    ctx.finishDecode(1, 0.466);
    ctx.finishDecode(2, 0.3);
    await flush();
    expect(ctx.sources.map((s) => s.played)).toEqual([
      [0, 0.4],
      [0, 0.3],
    ]);
    expect(ctx.sources[1]?.startedAt).toBeCloseTo((ctx.sources[0]?.startedAt ?? 0) + 0.4, 9);
  });

  it('a new reply replaces the one playing and the snapshot follows', async () => {
    const { ctx, queue } = setup();
    const seen: (string | null)[] = [];
    queue.subscribe(() => {
      const now = queue.getSnapshot().playing ? queue.getSnapshot().replyId : null;
      if (seen.at(-1) !== now) seen.push(now);
    });
    queue.enqueue(chunk(1, 100));
    ctx.finishDecode(1, 0.1);
    await flush();
    queue.enqueue({ ...chunk(1, 100), replyId: 'r2', audio: new Uint8Array([42]).buffer });
    expect(ctx.sources[0]?.stopped).toBe(true);
    ctx.finishDecode(42, 0.1);
    await flush();
    // Waiting for a decode is not playing yet.
    expect(seen).toEqual([null, 'r1', null, 'r2']);
    ctx.sources[1]?.onended?.();
    expect(queue.getSnapshot()).toEqual({ replyId: 'r2', playing: false });
  });
});
