import type { EmotionAnalysis, ServerEventName, ServerPayload } from '@alma/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReplyChunk, ReplyEngine, ReplyRequest } from '../../engines/reply/types.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import { openEmbeddedStorage } from '../../storage/embedded/index.ts';
import type { Storage } from '../../storage/types.ts';
import { createMemoryReplyRegistry } from './reply-registry.ts';
import { resolveVoice } from './reply-speech.ts';
import type { ReplyOutcome } from './reply-types.ts';
import { createSessionsService } from './sessions.service.ts';
import { createSpeechPipeline } from './speech-pipeline.ts';
import { createSubmitService } from './submit.service.ts';
import { createFakeSynthesizer } from '../../test-support/speech.ts';
import type { SpeechSynthesizer } from '../../engines/speech/types.ts';

/**
 * The chat as app.ts composes it — reply registry, sessions, submit, reply runs — with its
 * collaborators replaced at their boundaries: an in-memory store, a publisher that records what
 * it would emit, and a scripted engine that records what it was asked.
 */

interface Published {
  to: 'session' | 'user';
  event: ServerEventName;
  payload: Record<string, unknown>;
}

/** An engine double: records each request, streams a scripted reply, optionally one piece at a time. */
function scriptedEngine() {
  const requests: ReplyRequest[] = [];
  let gate: { open: () => void; wait: Promise<void> } | null = null;
  const engine = {
    requests,
    pieces: ['Hola, ', 'qué ', 'bien. '] as string[],
    emotion: { emotion: 'happy', intensity: 0.6, confidence: 0.8 } as EmotionAnalysis,
    failAfter: null as number | null,
    /** While held, each piece waits for `step()`. */
    hold: false,
    step() {
      const current = gate;
      gate = null;
      current?.open();
    },
    name: 'scripted',
    async *stream(request: ReplyRequest): AsyncIterable<ReplyChunk> {
      requests.push(request);
      yield { type: 'emotion', ...engine.emotion };
      yield { type: 'gesture', gesture: 'nodding' };
      for (const [i, piece] of engine.pieces.entries()) {
        if (engine.failAfter === i) throw new Error('engine exploded');
        if (engine.hold) {
          let open = () => {};
          const wait = new Promise<void>((resolve) => (open = resolve));
          gate = { open, wait };
          await wait;
        }
        if (request.signal.aborted) return;
        yield { type: 'text', text: piece };
      }
    },
  } satisfies ReplyEngine & Record<string, unknown>;
  return engine;
}

let storage: Storage;
let engine: ReturnType<typeof scriptedEngine>;
let published: Published[];
let chat: ReturnType<typeof build>;
const userId = 'user-0001';

const publisher: Publisher = {
  toSession: (_sessionId, event, payload) => published.push({ to: 'session', event, payload: payload }),
  toUser: (_userId, event, payload) => published.push({ to: 'user', event, payload: payload }),
};
const silentLog = { error: () => {}, warn: () => {}, info: () => {} };

function build(
  overrides: {
    replyFlushMs?: number;
    storage?: Storage;
    speech?: SpeechSynthesizer;
    defaultVoiceId?: (userId: string) => Promise<string | null>;
  } = {},
) {
  const store = overrides.storage ?? storage;
  const replies = createMemoryReplyRegistry();
  const sessions = createSessionsService({
    sessions: store.sessions,
    messages: store.messages,
    publisher,
    replies,
    newId: () => uuidv7(),
    clock: () => new Date(),
  });
  const submit = createSubmitService({
    sessions: store.sessions,
    messages: store.messages,
    chatSessions: sessions,
    replies,
    engine,
    publisher,
    quota: {
      tryCount: async () => ({
        counted: true,
        usage: {
          messagesThisMonth: 1,
          messagesLimit: null,
          voiceMinutesThisMonth: 0,
          voiceMinutesLimit: null,
        },
      }),
    },
    newId: () => uuidv7(),
    clock: () => new Date(),
    log: silentLog,
    replyFlushMs: overrides.replyFlushMs ?? 0,
    speech: overrides.speech ? createSpeechPipeline({ synthesizer: overrides.speech, log: silentLog }) : null,
    defaultVoiceId: overrides.defaultVoiceId,
  });
  return { submit: submit.submit, sessions, replies };
}

/** Submits and waits for the whole reply, as the REST edge does. */
async function exchange(
  message: string,
  sessionId?: string,
  extras: { voiceId?: string; avatarId?: string } = {},
) {
  const sent = await chat.submit(userId, { message, sessionId, ...extras });
  const outcome = await sent.reply.done;
  return { sent, handle: sent.reply, outcome };
}

const stored = (outcome: ReplyOutcome) => {
  if (outcome.kind !== 'stored') throw new Error(`reply failed: ${outcome.code}`);
  return outcome;
};
const eventsOf = <E extends ServerEventName>(event: E) =>
  published.filter((p) => p.event === event).map((p) => p.payload as ServerPayload<E>);

beforeEach(async () => {
  storage = openEmbeddedStorage({ file: ':memory:' });
  await storage.users.create({
    id: userId,
    name: 'Lucía',
    email: 'lucia@example.com',
    passwordHash: 'x',
    plan: 'free',
    role: 'user',
    language: 'es',
    theme: 'dark',
    createdAt: new Date(0).toISOString(),
  });
  engine = scriptedEngine();
  published = [];
  chat = build();
});
afterEach(async () => {
  await storage.close();
});

describe('C-11 conversation context', () => {
  it('is stored and updated every exchange, and the previous one is passed to the engine', async () => {
    const first = await exchange('¡Hola! Me llamo Lucía');
    const sessionId = first.sent.session.sessionId;
    const second = await exchange('Mañana tengo mi examen de historia y estoy nerviosa', sessionId);
    const third = await exchange('Mi amiga Sara me ayuda a estudiar para el examen', sessionId);

    // The engine sees the context as it was before each exchange.
    expect(engine.requests[0]?.context).toBeUndefined();
    expect(engine.requests[1]?.context).toMatchObject({ names: ['Lucía'], dominantEmotion: 'happy' });
    expect(engine.requests[2]?.context).toMatchObject({ names: ['Lucía'], topics: ['examen'] });

    const contexts = [first, second, third].map((e) => stored(e.outcome).reply.sessionContext);
    expect(contexts.map((c) => c.entities.names)).toEqual([['Lucía'], ['Lucía'], ['Lucía', 'Sara']]);
    expect(contexts[2]).toMatchObject({
      sessionId,
      topics: ['examen'],
      keyPoints: [
        'Me llamo Lucía',
        'Mañana tengo mi examen de historia y estoy nerviosa',
        'Mi amiga Sara me ayuda a estudiar para el examen',
      ],
      dominantEmotion: 'happy',
    });
    expect(contexts[2]?.summary).toBe(
      'Conversación con Lucía (3 intercambios). Temas: examen. Personas: Sara. Tono: alegre.',
    );

    // Stored, not derived: the context route and the session list read the same.
    expect(await chat.sessions.context(userId, sessionId)).toEqual(contexts[2]);
    expect((await chat.sessions.list(userId))[0]?.dominantEmotion).toBe('happy');
  });

  it('keeps the dominant emotion as a decayed score: recent, intense emotions lead', async () => {
    const { sent } = await exchange('Hola');
    const sessionId = sent.session.sessionId;
    engine.emotion = { emotion: 'sad', intensity: 0.9, confidence: 0.8 };
    const sad = stored((await exchange('Estoy triste', sessionId)).outcome);
    expect(sad.reply.sessionContext.dominantEmotion).toBe('sad');
    engine.emotion = { emotion: 'calm', intensity: 0.3, confidence: 0.8 };
    const calm1 = stored((await exchange('Ya estoy mejor', sessionId)).outcome);
    // 0.9 decays to 0.63 against calm's 0.3: sadness still leads...
    expect(calm1.reply.sessionContext.dominantEmotion).toBe('sad');
    for (let i = 0; i < 3; i++) await exchange(`Más tranquila ${i}`, sessionId);
    // ...until a few calmer replies outweigh it.
    expect((await chat.sessions.context(userId, sessionId)).dominantEmotion).toBe('calm');
  });
});

describe('C-12 auto-title', () => {
  it('titles the session after the first exchange in its language and announces it as renamed, once', async () => {
    const { sent, outcome } = await exchange('Mañana tengo mi examen de historia y estoy nerviosa');
    const renamed = eventsOf('session:updated').filter((e) => e.kind === 'renamed');
    expect(renamed).toHaveLength(1);
    expect(renamed[0]).toMatchObject({ kind: 'renamed', session: { title: 'Tu examen de mañana' } });
    // After the reply, so a client has the reply before the new title.
    const order = published.map((p) => p.event);
    expect(order.indexOf('chat:reply')).toBeLessThan(order.lastIndexOf('session:updated'));
    expect(stored(outcome).reply.sessionId).toBe(sent.session.sessionId);

    await exchange('Gracias', sent.session.sessionId);
    expect(eventsOf('session:updated').filter((e) => e.kind === 'renamed')).toHaveLength(1);
  });

  it('titles English sessions in English, with the name the user gave', async () => {
    await exchange("Hi, I'm Sam and I got a new job!");
    expect((await chat.sessions.list(userId))[0]?.title).toBe("Sam's new job");
  });

  it('never overwrites a title the user set, at creation or by renaming', async () => {
    const created = await chat.sessions.create(userId, 'Mis cosas', 'default');
    await exchange('Mañana tengo mi examen', created.sessionId);
    const other = await chat.sessions.create(userId, null, 'default');
    await chat.sessions.rename(userId, other.sessionId, 'Renamed');
    await exchange('Mañana tengo mi examen', other.sessionId);
    const titles = (await chat.sessions.list(userId)).map((s) => s.title).sort();
    expect(titles).toEqual(['Mis cosas', 'Renamed']);
    expect(eventsOf('session:updated').filter((e) => e.kind === 'renamed')).toHaveLength(1); // the rename
  });
});

describe('C-5 the reply is stored as it streams', () => {
  it('stores an empty incomplete row when generation starts, rewrites it while streaming, completes it at the end', async () => {
    engine.hold = true;
    const sent = await chat.submit(userId, { message: 'Hola' });
    const handle = sent.reply;
    const row = () => storage.messages.findReplyTo(userId, sent.message._id);
    await until(async () => (await row()) !== null);
    expect(await row()).toMatchObject({ _id: handle.replyId, content: '', isComplete: false });

    engine.step();
    await until(async () => (await row())?.content === 'Hola, ');
    expect(await row()).toMatchObject({ isComplete: false, emotion: 'happy' });
    engine.step();
    engine.hold = false;
    engine.step();
    const outcome = stored(await handle.done);
    expect(await row()).toStrictEqual(outcome.message);
    expect(outcome.message).toMatchObject({ content: 'Hola, qué bien. ', isComplete: true });
  });

  it('rewrites the row at most every flush interval, not on every delta', async () => {
    const writes: string[] = [];
    const counting: Storage = {
      ...storage,
      messages: {
        ...storage.messages,
        updateReply: async (...args) => {
          writes.push(args[2].content);
          return storage.messages.updateReply(...args);
        },
      },
    };
    chat = build({ replyFlushMs: 60_000, storage: counting });
    engine.pieces = Array.from({ length: 40 }, (_, i) => `palabra${i} `);
    await exchange('Hola');
    // Only the final write: no interval passed while streaming.
    expect(writes).toHaveLength(1);
  });
});

describe('C-2 a retried send after a crash', () => {
  it('answers anew in place of the incomplete reply the crash left: still one reply', async () => {
    // What a kill -9 mid-reply leaves: the user message, and its reply's row, incomplete, with
    // what was flushed.
    const session = await chat.sessions.create(userId, null, 'default');
    const { message: userMessage } = await storage.messages.insert({
      _id: uuidv7(),
      sessionId: session.sessionId,
      userId,
      role: 'user',
      content: 'Hola',
      createdAt: new Date().toISOString(),
      clientMessageId: 'c-1',
      replyTo: null,
      emotion: null,
      emotionAnalysis: null,
      language: 'es',
      userLanguage: 'es',
      personality: null,
      audioUrl: null,
      isComplete: true,
    });
    await storage.messages.insert({
      _id: uuidv7(),
      sessionId: session.sessionId,
      userId,
      role: 'assistant',
      content: 'Hola, ',
      createdAt: new Date().toISOString(),
      clientMessageId: null,
      replyTo: userMessage._id,
      emotion: null,
      emotionAnalysis: null,
      language: 'es',
      userLanguage: 'es',
      personality: 'default',
      audioUrl: null,
      isComplete: false,
    });
    const again = await chat.submit(userId, { message: 'Hola', clientMessageId: 'c-1' });
    expect(again.duplicate).toBe(true);
    const handle = again.reply;
    expect(handle.alreadyStored).toBe(false);
    const outcome = stored(await handle.done);
    expect(outcome.message.isComplete).toBe(true);
    const replies = (await storage.messages.all(userId, session.sessionId)).filter(
      (m) => m.role === 'assistant',
    );
    expect(replies.map((m) => [m._id, m.content, m.isComplete])).toEqual([
      [handle.replyId, 'Hola, qué bien. ', true],
    ]);

    // A complete reply is handed back as it is.
    const third = await chat.submit(userId, { message: 'Hola', clientMessageId: 'c-1' });
    expect(third.reply).toMatchObject({ replyId: handle.replyId, alreadyStored: true });
  });

  it('a retry while the reply is in flight gets that reply, never a second one', async () => {
    engine.hold = true;
    const first = await chat.submit(userId, { message: 'Hola', clientMessageId: 'c-2' });
    const again = await chat.submit(userId, { message: 'Hola', clientMessageId: 'c-2' });
    expect(again).toMatchObject({
      duplicate: true,
      reply: { replyId: first.reply.replyId, alreadyStored: false },
    });
    engine.hold = false;
    engine.step();
    expect(await again.reply.done).toEqual(await first.reply.done);
    expect(engine.requests).toHaveLength(1);
  });
});

describe('E-1 every failure ends the reply with chat:error and the right retryable', () => {
  it('C-7 a cancel before any text: cancelled, not retryable, no row', async () => {
    engine.hold = true;
    const sent = await chat.submit(userId, { message: 'Hola' });
    const handle = sent.reply;
    await until(async () => (await storage.messages.findReplyTo(userId, sent.message._id)) !== null);
    const cancelled = chat.replies.cancel(userId, handle.replyId);
    engine.step();
    expect(await cancelled).toBe(true);
    expect(await handle.done).toEqual({ kind: 'failed', code: 'cancelled' });
    expect(eventsOf('chat:error')).toMatchObject([{ code: 'cancelled', retryable: false }]);
    // C-4: typing true first, typing false right before the one chat:error.
    expect(published.map((p) => p.event).slice(-2)).toEqual(['chat:typing', 'chat:error']);
    expect(eventsOf('chat:typing').map((e) => e.typing)).toEqual([true, false]);
    expect(await storage.messages.findReplyTo(userId, sent.message._id)).toBeNull();
  });

  it('C-7 a cancel after some text keeps it, incomplete, and ends with chat:reply', async () => {
    engine.hold = true;
    const sent = await chat.submit(userId, { message: 'Hola' });
    const handle = sent.reply;
    await until(async () => (await storage.messages.findReplyTo(userId, sent.message._id)) !== null);
    engine.step();
    await until(async () => eventsOf('chat:delta').length === 1);
    const cancelled = chat.replies.cancel(userId, handle.replyId);
    engine.step();
    await cancelled;
    const outcome = stored(await handle.done);
    expect(outcome.message).toMatchObject({ content: 'Hola, ', isComplete: false });
    expect(eventsOf('chat:error')).toEqual([]);
  });

  it('an engine failure: reply_failed, retryable, and no row left', async () => {
    engine.failAfter = 1;
    const { sent, outcome } = await exchange('Hola');
    expect(outcome).toEqual({ kind: 'failed', code: 'reply_failed' });
    expect(eventsOf('chat:error')).toMatchObject([{ code: 'reply_failed', retryable: true }]);
    expect(typeof eventsOf('chat:error')[0]?.seq).toBe('number');
    expect(eventsOf('chat:typing').map((e) => e.typing)).toEqual([true, false]);
    expect(await storage.messages.findReplyTo(userId, sent.message._id)).toBeNull();
  });

  it('a store failing mid-reply: reply_failed, retryable — never a reply that just stops', async () => {
    const broken: Storage = {
      ...storage,
      messages: {
        ...storage.messages,
        updateReply: async () => {
          throw new Error('disk full');
        },
      },
    };
    chat = build({ storage: broken });
    const { outcome } = await exchange('Hola');
    expect(outcome).toEqual({ kind: 'failed', code: 'reply_failed' });
    const errors = eventsOf('chat:error');
    expect(errors).toMatchObject([{ code: 'reply_failed', retryable: true }]);
    expect(published.filter((p) => p.event === 'chat:reply')).toEqual([]);
  });

  it('C-8 a shutdown before any text: shutting_down, retryable', async () => {
    engine.hold = true;
    const sent = await chat.submit(userId, { message: 'Hola' });
    const handle = sent.reply;
    await until(async () => (await storage.messages.findReplyTo(userId, sent.message._id)) !== null);
    const drained = chat.replies.drain(10);
    await new Promise((r) => setTimeout(r, 30));
    engine.step();
    await drained;
    expect(await handle.done).toEqual({ kind: 'failed', code: 'shutting_down' });
    expect(eventsOf('chat:error')).toMatchObject([{ code: 'shutting_down', retryable: true }]);
  });

  it('the session deleted mid-reply: not_found, not retryable', async () => {
    engine.hold = true;
    const sent = await chat.submit(userId, { message: 'Hola' });
    const handle = sent.reply;
    await until(async () => (await storage.messages.findReplyTo(userId, sent.message._id)) !== null);
    engine.step();
    await until(async () => eventsOf('chat:delta').length === 1);
    await chat.sessions.delete(userId, sent.session.sessionId);
    engine.step();
    expect(await handle.done).toEqual({ kind: 'failed', code: 'not_found' });
    expect(eventsOf('chat:error')).toMatchObject([{ code: 'not_found', retryable: false }]);
  });
});

describe('C-13 what the send carried', () => {
  it('stores voice and avatar on the user message and its reply, and the gesture on the reply', async () => {
    const { sent } = await exchange('Hola', undefined, { voiceId: 'voice-7', avatarId: 'robotina' });
    const all = await storage.messages.all(userId, sent.session.sessionId);
    expect(all.map((m) => [m.role, m.voiceId, m.avatarId, m.gesture])).toEqual([
      ['user', 'voice-7', 'robotina', null],
      ['assistant', 'voice-7', 'robotina', 'nodding'],
    ]);
  });
});

async function until(condition: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('V-7 the default voice', () => {
  it('speaks a send that names no voice with the voice chosen in preferences; a named voice wins', async () => {
    const synthesizer = createFakeSynthesizer({ msPerWord: 5 });
    const withDefault = build({ speech: synthesizer, defaultVoiceId: async () => 'es-mateo' });
    const first = await withDefault.submit(userId, { message: 'Hola, ¿qué tal? Hoy hace un día precioso.' });
    await first.reply.done;
    expect(synthesizer.calls.length).toBeGreaterThan(0);
    expect(synthesizer.calls.every((c) => c.voice.voice === resolveVoice('es-mateo', 'es').voice)).toBe(true);

    synthesizer.calls.length = 0;
    const second = await withDefault.submit(userId, {
      message: 'Cuéntame algo bonito, por favor.',
      sessionId: first.session.sessionId,
      voiceId: 'es-lucia',
    });
    await second.reply.done;
    expect(synthesizer.calls.every((c) => c.voice.voice === resolveVoice('es-lucia', 'es').voice)).toBe(true);
  });
});
