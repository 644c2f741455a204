import { EMOTIONS } from '@alma/protocol';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeEmotion } from '../analysis/emotion.ts';
import { createLocalReplyEngine, type LocalReplyEngine } from './local.ts';
import { writeTinyGguf } from './testing/write-tiny-gguf.ts';
import type { ReplyChunk, ReplyRequest } from './types.ts';

// The real node-llama-cpp runtime on a real GGUF file: a tiny llama with random weights written
// by testing/write-tiny-gguf.ts (no model weights can be downloaded here). It speaks gibberish,
// never the side-channel tag, so emotion and gesture are always derived from its text.
// One thread: on a busy 2-core machine (CI, parallel test files) two threads wait on each other
// and run ~20× slower (ENGINES.md); LLM_THREADS exists for the same reason.
let dir: string;
let modelPath: string;
let engine: LocalReplyEngine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alma-gguf-'));
  modelPath = writeTinyGguf(join(dir, 'tiny.gguf'));
  engine = createLocalReplyEngine({ modelPath, threads: 1, contextSize: 4096, maxTokens: 24 });
  await engine.load();
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

function request(overrides: Partial<ReplyRequest> = {}): ReplyRequest {
  return {
    text: 'Hello, how are you?',
    language: 'en',
    personality: 'default',
    history: [
      { role: 'user', content: 'Me llamo Ana', language: 'es' },
      { role: 'assistant', content: '¡Hola, Ana!', language: 'es' },
    ],
    signal: new AbortController().signal,
    ...overrides,
  };
}

describe('local engine on a generated GGUF', () => {
  it('is named after the model file', () => {
    expect(engine.name).toBe('local:tiny.gguf');
  });

  it('streams text pieces, then an emotion derived from the text', async () => {
    const chunks: ReplyChunk[] = [];
    for await (const chunk of engine.stream(request())) chunks.push(chunk);
    const texts = chunks.flatMap((c) => (c.type === 'text' ? [c.text] : []));
    expect(texts.length).toBeGreaterThan(1);
    const text = texts.join('');
    expect(text.trim().length).toBeGreaterThan(0);

    const emotions = chunks.filter((c) => c.type === 'emotion');
    expect(emotions).toHaveLength(1);
    expect(EMOTIONS).toContain(emotions[0]?.emotion);
    expect(emotions[0]).toEqual({ type: 'emotion', ...analyzeEmotion(text, 'en') });
    // Derived only at the end, once the whole text is known; a gesture may follow it.
    const firstSignal = chunks.findIndex((c) => c.type !== 'text');
    expect(chunks.slice(firstSignal).every((c) => c.type !== 'text')).toBe(true);
  });

  it('stops generating when the signal aborts', async () => {
    const long = createLocalReplyEngine({ modelPath, threads: 1, contextSize: 4096, maxTokens: 400 });
    try {
      const controller = new AbortController();
      const chunks: ReplyChunk[] = [];
      for await (const chunk of long.stream(request({ signal: controller.signal }))) {
        chunks.push(chunk);
        if (chunks.length === 2) controller.abort();
      }
      expect(chunks.length).toBeLessThanOrEqual(3);
      expect(chunks.every((c) => c.type === 'text')).toBe(true);

      // The sequence was released: the next reply on the same engine starts streaming.
      const again = new AbortController();
      let next = 0;
      for await (const chunk of long.stream(request({ signal: again.signal }))) {
        if (chunk.type === 'text') next++;
        again.abort();
      }
      expect(next).toBe(1);
    } finally {
      await long.close();
    }
  });

  it('a reply cancelled while waiting for its turn ends at once', async () => {
    const long = createLocalReplyEngine({ modelPath, threads: 1, contextSize: 4096, maxTokens: 400 });
    try {
      await long.load();
      // The first reply holds the sequence: paused after its first piece, it never finishes.
      const first = new AbortController();
      const firstReply = long.stream(request({ signal: first.signal }))[Symbol.asyncIterator]();
      expect((await firstReply.next()).done).toBe(false);

      const second = new AbortController();
      setTimeout(() => second.abort(), 30);
      const secondRun = (async () => {
        const chunks: ReplyChunk[] = [];
        for await (const chunk of long.stream(request({ signal: second.signal }))) chunks.push(chunk);
        return chunks;
      })();
      const outcome = await Promise.race([
        secondRun,
        new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 3000)),
      ]);
      expect(outcome).toEqual([]);

      first.abort();
      await firstReply.return?.();
    } finally {
      await long.close();
    }
  });

  it('lets concurrent replies take turns on the one context sequence', async () => {
    const run = async () => {
      let text = '';
      for await (const chunk of engine.stream(request())) if (chunk.type === 'text') text += chunk.text;
      return text;
    };
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
  });

  it('fails with reply_failed when the model cannot be loaded', async () => {
    const broken = createLocalReplyEngine({
      modelPath: join(dir, 'missing.gguf'),
      threads: 1,
      contextSize: 4096,
      maxTokens: 8,
    });
    const consume = async () => {
      for await (const _ of broken.stream(request())) void _;
    };
    await expect(consume()).rejects.toMatchObject({ code: 'reply_failed' });
  });
});
