import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyzeEmotion, chooseGesture } from '../analysis/emotion.ts';
import { createOpenAIReplyEngine, serverSentData, type OpenAIReplyOptions } from './openai.ts';
import {
  contentEvent,
  errorStatus,
  sseEvent,
  startFakeOpenAI,
  streamPieces,
  type FakeOpenAI,
} from './testing/fake-openai.ts';
import type { ReplyChunk, ReplyEngine, ReplyRequest } from './types.ts';

// The provider is a local HTTP server speaking OpenAI's streaming wire format: a test double at a
// boundary we cannot reach from the tests (see testing/fake-openai.ts).
let provider: FakeOpenAI;
beforeAll(async () => {
  provider = await startFakeOpenAI();
});
afterAll(() => provider.close());
beforeEach(() => {
  provider.requests.length = 0;
});

function engine(options: Partial<OpenAIReplyOptions> = {}): ReplyEngine {
  return createOpenAIReplyEngine({
    baseUrl: provider.baseUrl,
    apiKey: 'sk-test',
    model: 'test-model',
    timeoutMs: 2000,
    maxRetries: 2,
    retryBaseDelayMs: 1,
    ...options,
  });
}

function request(overrides: Partial<ReplyRequest> = {}): ReplyRequest {
  return {
    text: 'Hello, I passed my exam!',
    language: 'en',
    personality: 'default',
    history: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function collect(stream: AsyncIterable<ReplyChunk>): Promise<ReplyChunk[]> {
  const chunks: ReplyChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const textOf = (chunks: ReplyChunk[]) => chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
const sideSignals = (chunks: ReplyChunk[]) => chunks.filter((c) => c.type !== 'text');

describe('openai engine: the request', () => {
  it('posts model, messages and stream to /chat/completions with the bearer key', async () => {
    provider.respond(streamPieces(['Hi!']));
    await collect(
      engine().stream(
        request({
          history: [
            { role: 'user', content: 'Me llamo Ana', language: 'es' },
            { role: 'assistant', content: '¡Hola, Ana!', language: 'es' },
            { role: 'system', content: 'Personality changed', language: 'es' },
          ],
        }),
      ),
    );
    const [sent] = provider.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.headers['content-type']).toBe('application/json');
    const body = sent?.body as {
      model: string;
      stream: boolean;
      messages: { role: string; content: string }[];
    };
    expect(body.model).toBe('test-model');
    expect(body.stream).toBe(true);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(body.messages.slice(1).map((m) => m.content)).toEqual([
      'Me llamo Ana',
      '¡Hola, Ana!',
      'Hello, I passed my exam!',
    ]);
    expect(body.messages[0]?.content).toContain('[[emotion=<emotion>;gesture=<gesture>]]');
  });

  it.each([
    ['default', 'en', /casual and warm/, /Answer in English/],
    ['formal', 'es', /"usted"/, /Answer in Spanish/],
    ['creative', 'en', /creative and playful/, /Answer in English/],
    ['technical', 'es', /technical and precise/, /Answer in Spanish/],
  ] as const)(
    'the system prompt carries the %s personality and the language (%s)',
    async (p, l, voice, lang) => {
      provider.respond(streamPieces(['Ok.']));
      await collect(engine().stream(request({ personality: p, language: l })));
      const body = provider.requests[0]?.body as { messages: { content: string }[] };
      expect(body.messages[0]?.content).toMatch(voice);
      expect(body.messages[0]?.content).toMatch(lang);
    },
  );

  it('adds the session context to the system prompt when there is one (C-11)', async () => {
    provider.respond(streamPieces(['Ok.']));
    await collect(
      engine().stream(
        request({
          context: {
            summary: 'Ana is preparing an exam.',
            topics: ['exams'],
            names: ['Ana', 'Luis'],
            keyPoints: ['exam on Friday'],
            dominantEmotion: 'fearful',
          },
        }),
      ),
    );
    const body = provider.requests[0]?.body as { messages: { content: string }[] };
    const prompt = body.messages[0]?.content ?? '';
    expect(prompt).toContain('Summary so far: Ana is preparing an exam.');
    expect(prompt).toContain('Ana, Luis');
    expect(prompt).toContain('exam on Friday');
    expect(prompt).toContain('mood: fearful');
  });

  it('sends no Authorization header without a key (local servers)', async () => {
    provider.respond(streamPieces(['Ok.']));
    await collect(engine({ apiKey: undefined }).stream(request()));
    expect(provider.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('is named after the model for /health', () => {
    expect(engine().name).toBe('openai:test-model');
  });
});

describe('openai engine: the emotion/gesture side channel', () => {
  it('reads emotion and gesture from the tag and never shows it', async () => {
    provider.respond(
      streamPieces(['[[emotion=excited;gesture=celebration]]\n', 'Congratulations', ', well done!']),
    );
    const chunks = await collect(engine().stream(request()));
    expect(textOf(chunks)).toBe('Congratulations, well done!');
    expect(sideSignals(chunks)).toEqual([
      { type: 'emotion', emotion: 'excited', intensity: 0.6, confidence: 0.8 },
      { type: 'gesture', gesture: 'celebration' },
    ]);
    // Side signals come before the text they describe, emotion before gesture.
    expect(chunks[0]?.type).toBe('emotion');
  });

  it('reassembles a tag split across SSE events and network writes', async () => {
    provider.respond(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const wire = ['[', '[emo', 'tion=sad;ges', 'ture=comfort', 'ing]', ']\n', "I'm so sorry."]
        .map(contentEvent)
        .join('');
      // Cut the byte stream at arbitrary points, mid-line and mid-JSON.
      for (let i = 0; i < wire.length; i += 7) {
        res.write(wire.slice(i, i + 7));
        await new Promise((r) => setImmediate(r));
      }
      res.end(sseEvent('[DONE]'));
    });
    const chunks = await collect(engine().stream(request()));
    expect(textOf(chunks)).toBe("I'm so sorry.");
    expect(sideSignals(chunks)).toEqual([
      { type: 'emotion', emotion: 'sad', intensity: 0.6, confidence: 0.8 },
      { type: 'gesture', gesture: 'comforting' },
    ]);
  });

  it('derives emotion and gesture from the text when the model gives no tag', async () => {
    const text = 'Hello! I am so happy for you, that is wonderful news!';
    provider.respond(streamPieces(['Hello! ', 'I am so happy for you, ', 'that is wonderful news!']));
    const chunks = await collect(engine().stream(request()));
    expect(textOf(chunks)).toBe(text);
    const derived = analyzeEmotion(text, 'en');
    expect(derived.emotion).not.toBe('neutral');
    const gesture = chooseGesture({ emotion: derived.emotion, intensity: derived.intensity, text });
    expect(sideSignals(chunks)).toEqual([
      { type: 'emotion', ...derived },
      ...(gesture ? [{ type: 'gesture', gesture }] : []),
    ]);
    // Derived signals can only come once the whole text is known.
    expect(chunks.at(-1)?.type).not.toBe('text');
  });

  it('honours gesture=none and derives an emotion the model named wrongly', async () => {
    provider.respond(streamPieces(['[[emotion=ecstatic;gesture=none]]', 'Fine, thanks.']));
    const chunks = await collect(engine().stream(request()));
    expect(textOf(chunks)).toBe('Fine, thanks.');
    expect(sideSignals(chunks)).toEqual([{ type: 'emotion', ...analyzeEmotion('Fine, thanks.', 'en') }]);
  });
});

describe('openai engine: failures', () => {
  it('retries before the first token on 503 and 429, then streams', async () => {
    provider.respond(
      errorStatus(503),
      errorStatus(429, { 'retry-after': '0' }),
      streamPieces(['Back again.']),
    );
    const chunks = await collect(engine().stream(request()));
    expect(textOf(chunks)).toBe('Back again.');
    expect(provider.requests).toHaveLength(3);
  });

  it('retries a connection dropped before any token', async () => {
    provider.respond(
      (res) => {
        res.destroy();
      },
      streamPieces(['Ok.']),
    );
    const chunks = await collect(engine().stream(request()));
    expect(textOf(chunks)).toBe('Ok.');
    expect(provider.requests).toHaveLength(2);
  });

  it('gives up with reply_failed after OPENAI_MAX_RETRIES', async () => {
    provider.respond(errorStatus(500));
    await expect(collect(engine({ maxRetries: 1 }).stream(request()))).rejects.toMatchObject({
      code: 'reply_failed',
      message: expect.stringMatching(/500.*after 2 attempts/) as unknown,
    });
    expect(provider.requests).toHaveLength(2);
  });

  it('does not retry once a token was sent: a mid-stream failure is reply_failed', async () => {
    provider.respond(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(contentEvent('Half a sen'));
      await new Promise((r) => setTimeout(r, 20));
      res.destroy();
    });
    const seen: ReplyChunk[] = [];
    const failure = await (async () => {
      for await (const chunk of engine().stream(request())) seen.push(chunk);
    })().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'reply_failed' });
    expect(textOf(seen)).toBe('Half a sen');
    expect(provider.requests).toHaveLength(1);
  });

  it('maps an error event inside the stream to reply_failed', async () => {
    provider.respond((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(contentEvent('Hel'));
      res.end(sseEvent({ error: { message: 'overloaded' } }));
    });
    await expect(collect(engine().stream(request()))).rejects.toMatchObject({
      code: 'reply_failed',
      message: expect.stringContaining('overloaded') as unknown,
    });
  });

  it('401 is reply_failed at once, without retries', async () => {
    provider.respond(errorStatus(401));
    await expect(collect(engine().stream(request()))).rejects.toMatchObject({
      code: 'reply_failed',
      message: expect.stringContaining('401') as unknown,
    });
    expect(provider.requests).toHaveLength(1);
  });

  it('times out with reply_failed when the provider never answers', async () => {
    provider.respond(() => {}); // headers never come
    const started = Date.now();
    await expect(collect(engine({ timeoutMs: 150 }).stream(request()))).rejects.toMatchObject({
      code: 'reply_failed',
      message: expect.stringContaining('150 ms') as unknown,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(provider.requests).toHaveLength(1);
  });

  it('times out with reply_failed when the stream goes silent', async () => {
    provider.respond(streamPieces(['Still ', 'thinking'], { done: false }));
    const seen: ReplyChunk[] = [];
    const failure = await (async () => {
      for await (const chunk of engine({ timeoutMs: 150 }).stream(request())) seen.push(chunk);
    })().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'reply_failed' });
    expect(textOf(seen)).toBe('Still thinking');
  });
});

describe('openai engine: abort', () => {
  it('stops streaming and closes the connection when the signal aborts', async () => {
    const pieces = Array.from({ length: 200 }, (_, i) => `word${i} `);
    provider.respond(streamPieces(pieces, { delayMs: 10 }));
    const controller = new AbortController();
    const seen: ReplyChunk[] = [];
    for await (const chunk of engine().stream(request({ signal: controller.signal }))) {
      seen.push(chunk);
      if (seen.length === 3) controller.abort();
    }
    const [sent] = provider.requests;
    await sent?.closed;
    expect(sent?.abortedByClient()).toBe(true);
    expect(seen.length).toBeLessThan(10);
    expect(seen.every((c) => c.type === 'text')).toBe(true);
  });

  it('stops waiting between retries when the signal aborts', async () => {
    provider.respond(errorStatus(503, { 'retry-after': '5' }));
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const chunks = await collect(engine().stream(request({ signal: controller.signal })));
    expect(chunks).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('serverSentData', () => {
  const bodyOf = (...parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
  const all = async (body: ReadableStream<Uint8Array>) => {
    const out: string[] = [];
    for await (const data of serverSentData(body)) out.push(data);
    return out;
  };

  it('reads data lines across chunk borders, CRLF, comments and multi-line data', async () => {
    expect(
      await all(bodyOf(': keep-alive\n\nda', 'ta: {"a":1}\r\n\r\ndata: x\ndata: y\n\ndata:[DONE]\n\n')),
    ).toEqual(['{"a":1}', 'x\ny', '[DONE]']);
  });

  it('keeps a multi-byte character split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: ¡olé!\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 7));
        controller.enqueue(bytes.slice(7));
        controller.close();
      },
    });
    expect(await all(body)).toEqual(['¡olé!']);
  });
});
