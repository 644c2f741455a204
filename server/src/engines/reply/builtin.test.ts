import { describe, expect, it, vi } from 'vitest';
import { composeReply, createBuiltinReplyEngine, splitIntoPieces } from './builtin.ts';
import type { ReplyChunk, ReplyRequest } from './types.ts';

async function collect(stream: AsyncIterable<ReplyChunk>, onChunk?: (chunk: ReplyChunk) => void) {
  const chunks: ReplyChunk[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk);
    onChunk?.(chunk);
  }
  return chunks;
}

const base = { language: 'es', personality: 'default', history: [] } as const;
const request = (text: string, signal = new AbortController().signal): ReplyRequest => ({
  ...base,
  text,
  signal,
});
const texts = (chunks: ReplyChunk[]) => chunks.flatMap((c) => (c.type === 'text' ? [c.text] : []));

describe('splitIntoPieces', () => {
  it('gives words with their trailing spaces and punctuation, losslessly', () => {
    const text = '¡Hola, Ana! ¿Qué tal   estás?';
    expect(splitIntoPieces(text)).toEqual(['¡Hola, ', 'Ana! ', '¿Qué ', 'tal   ', 'estás?']);
    expect(splitIntoPieces(text).join('')).toBe(text);
  });
});

describe('builtin reply engine', () => {
  const engine = createBuiltinReplyEngine({ tokenDelayMs: 0 });

  it('is called builtin', () => {
    expect(engine.name).toBe('builtin');
  });

  it('streams the emotion first, then the gesture, then the text of composeReply word by word', async () => {
    const chunks = await collect(engine.stream(request('Hola, me llamo Ana')));
    const composed = composeReply({ ...base, text: 'Hola, me llamo Ana' });
    expect(chunks[0]).toEqual({
      type: 'emotion',
      emotion: composed.emotion,
      intensity: composed.intensity,
      confidence: composed.confidence,
    });
    expect(chunks[1]).toEqual({ type: 'gesture', gesture: 'greeting' });
    expect(texts(chunks).join('')).toBe(composed.text);
    expect(texts(chunks).length).toBe(composed.text.split(/\s+/).length);
  });

  it('sends no gesture chunk when none fits', async () => {
    const chunks = await collect(engine.stream(request('ok')));
    expect(composeReply({ ...base, text: 'ok' }).gesture).toBeNull();
    expect(chunks.some((c) => c.type === 'gesture')).toBe(false);
  });

  it('stops early and quietly when the signal aborts', async () => {
    const slow = createBuiltinReplyEngine({ tokenDelayMs: 20 });
    const controller = new AbortController();
    const text = '¿Qué puedes hacer?';
    const words = composeReply({ ...base, text }).text.split(/\s+/).length;
    let pieces = 0;
    const chunks = await collect(slow.stream(request(text, controller.signal)), (chunk) => {
      if (chunk.type === 'text' && ++pieces === 3) controller.abort();
    });
    expect(words).toBeGreaterThan(15);
    expect(texts(chunks).length).toBe(3);
  });

  it('yields nothing for an already aborted request', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await collect(engine.stream(request('Hola', controller.signal)))).toEqual([]);
  });

  it('waits between pieces when asked to', async () => {
    const slow = createBuiltinReplyEngine({ tokenDelayMs: 5 });
    const started = performance.now();
    const chunks = await collect(slow.stream(request('Hola')));
    // Lower bound only: timers never fire early, but a busy machine may be slower.
    expect(performance.now() - started).toBeGreaterThanOrEqual((texts(chunks).length - 1) * 4);
  });

  it('writes from when it is asked: words that fell due before they were read come at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const paced = createBuiltinReplyEngine({ tokenDelayMs: 100 });
      const iterator = paced.stream(request('¿Qué puedes hacer?'))[Symbol.asyncIterator]();
      const askedAt = performance.now();
      // Asked, as a send asks before its message is stored; the words are read 250 ms later
      // (the message stored and acknowledged meanwhile): the first three are due by then.
      const first = await iterator.next();
      expect(first.value).toMatchObject({ type: 'emotion' });
      vi.advanceTimersByTime(250);
      const times: number[] = [];
      const run = collect({ [Symbol.asyncIterator]: () => iterator }, (chunk) => {
        if (chunk.type === 'text') times.push(performance.now() - askedAt);
      });
      await vi.runAllTimersAsync();
      await run;
      expect(times.slice(0, 5)).toEqual([250, 250, 250, 300, 400]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps its words on one timeline: a slow consumer does not push every later word back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const paced = createBuiltinReplyEngine({ tokenDelayMs: 100 });
      const times: number[] = [];
      const run = collect(paced.stream(request('¿Qué puedes hacer?')), (chunk) => {
        if (chunk.type !== 'text') return;
        times.push(performance.now());
        // The second word is held 250 ms (a busy event loop): the third and fourth are due by
        // then and follow at once; the fifth keeps its place, 400 ms after the first.
        if (times.length === 2) vi.advanceTimersByTime(250);
      });
      await vi.runAllTimersAsync();
      await run;
      expect(times.slice(0, 5).map((t) => t - times[0]!)).toEqual([0, 100, 350, 350, 400]);
    } finally {
      vi.useRealTimers();
    }
  });
});
