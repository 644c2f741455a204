import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../lib/ids.ts';
import { createFakeSynthesizer } from '../../test-support/speech.ts';
import {
  build,
  chat,
  engine,
  exchange,
  published,
  rebuild,
  storage,
  stored,
  useChatHarness,
  userId,
} from '../../test-support/chat-harness.ts';
import type { Storage } from '../../storage/types.ts';
import { usagePeriod } from '../plans/period.ts';
import { createPlansService } from '../plans/plans.service.ts';
import { resolveVoice } from './reply-speech.ts';

/** One way in: a message stored once, one reply per message, what the send carried (C-2, C-13, V-7). */
useChatHarness();

describe("L-3, C-2 a send's one write: counted, stored and touched together, or not at all", () => {
  const counted = async () => (await storage.usage.get(userId, usagePeriod(new Date()))).messages;

  it('two sends racing with one clientMessageId: one message, one reply, counted once', async () => {
    const [first, second] = await Promise.all([
      chat.submit(userId, { message: 'Hola', clientMessageId: 'c-race' }),
      chat.submit(userId, { message: 'Hola', clientMessageId: 'c-race' }),
    ]);
    expect(second.message).toStrictEqual(first.message);
    expect([first.duplicate, second.duplicate]).toEqual([false, true]);
    expect(second.reply.replyId).toBe(first.reply.replyId);
    await first.reply.done;
    expect(await storage.messages.countByUser(userId)).toBe(2);
    expect(await counted()).toBe(1);
  });

  it('a month that filled up after the send read it: limit:reached, the engine stopped, nothing stored or created', async () => {
    const refusing = build({
      quota: {
        ticket: async () => ({
          open: true,
          // Another send took the last message of the month meanwhile: the write finds it full.
          count: { period: usagePeriod(new Date()), limit: 0 },
          counted: () => {
            throw new Error('counted');
          },
          refused: (usage) => ({ kind: 'messages', used: usage.messages, limit: 0, message: 'full' }),
        }),
      },
    });
    await expect(refusing.submit(userId, { message: 'Hola' })).rejects.toMatchObject({
      code: 'limit_reached',
    });
    expect(published).toEqual([
      {
        to: 'user',
        event: 'limit:reached',
        payload: { kind: 'messages', used: 0, limit: 0, message: 'full' },
      },
    ]);
    expect(engine.requests.map((r) => r.signal.aborted)).toEqual([true]);
    expect(await storage.messages.countByUser(userId)).toBe(0);
    expect(await storage.sessions.list(userId)).toEqual([]);
    expect(await counted()).toBe(0);
  });
});

describe('C-1 a send is acknowledged once its writes are on disk', () => {
  it('a resend is answered once what it found is on disk: its original may not be yet (C-2)', async () => {
    const first = await chat.submit(userId, { message: 'Hola', clientMessageId: 'c-resend' });
    await first.reply.done;
    let sync = () => {};
    const onDisk = new Promise<void>((resolve) => (sync = resolve));
    const again = build({ storage: { ...storage, synced: () => onDisk } });
    let answered = false;
    const resending = again.submit(userId, { message: 'Hola', clientMessageId: 'c-resend' }).then((sent) => {
      answered = true;
      return sent;
    });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    sync();
    expect((await resending).duplicate).toBe(true);
  });

  it('writes the count, the session and the message, waits for the disk once, then announces and acknowledges', async () => {
    let syncs = 0;
    let sync = () => {};
    const onDisk = new Promise<void>((resolve) => (sync = resolve));
    rebuild({
      storage: {
        ...storage,
        synced: () => {
          syncs += 1;
          return onDisk;
        },
      },
    });
    let acked = false;
    const sending = chat.submit(userId, { message: 'Hola', clientMessageId: 'c-disk' });
    void sending.then(() => (acked = true));
    try {
      // Committed (readable), not yet known to be on disk: nothing announced, nothing acknowledged.
      let stored = null;
      while (!stored) {
        stored = await storage.messages.findByClientMessageId(userId, 'c-disk');
        await new Promise((resolve) => setImmediate(resolve));
      }
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(await storage.sessions.find(userId, stored.sessionId)).not.toBeNull();
      expect(syncs).toBe(1);
      expect(acked).toBe(false);
      expect(published).toEqual([]);
      sync();
      const sent = await sending;
      expect(sent.message._id).toBe(stored._id);
      expect(published.slice(0, 3).map((p) => `${p.to} ${p.event}`)).toEqual([
        'user session:updated',
        'session chat:message',
        'user usage:updated',
      ]);
    } finally {
      // The reply ends before the store closes, whatever failed above.
      sync();
      await (
        await sending
      ).reply.done;
    }
  });
});

describe('issue 14: sends made durable together', () => {
  it("each send's reply starts streaming before the next send is acknowledged, not all after the last ack", async () => {
    const ids = ['c-1', 'c-2', 'c-3'];
    // As the socket edge does: the reply may stream once the send's ack has left.
    const publishedAtAck = new Map<string, number>();
    const sends = ids.map((clientMessageId) => {
      let ackLeft = () => {};
      const acked = new Promise<void>((resolve) => (ackLeft = resolve));
      return chat.submit(userId, { message: 'Hola', clientMessageId }, { acked }).then((sent) => {
        publishedAtAck.set(clientMessageId, published.length);
        ackLeft();
        return sent;
      });
    });
    const sent = await Promise.all(sends);
    await Promise.all(sent.map((s) => s.reply.done));
    const typingAt = (replyId: string) =>
      published.findIndex(
        (p) => p.event === 'chat:typing' && (p.payload as { replyId: string }).replyId === replyId,
      );
    // The first reply's typing left before the second and third sends were acknowledged.
    expect(typingAt(sent[0]?.reply.replyId ?? '')).toBeLessThan(publishedAtAck.get('c-2') ?? -1);
    expect(typingAt(sent[1]?.reply.replyId ?? '')).toBeLessThan(publishedAtAck.get('c-3') ?? -1);
  });
});

describe('issue 14: what a send reads is asked at once', () => {
  /** The month's quota read through `store` (its users and usage), 100 messages a month. */
  const plansOn = (store: Storage) =>
    createPlansService({
      users: store.users,
      usage: store.usage,
      clock: () => new Date(),
      publisher: { toSession: () => undefined, toUser: () => undefined },
      freeMessagesPerMonth: 100,
    });

  /**
   * A store far away, as MongoDB is: each read answers only when the test lets the reads asked so
   * far through together (`round`), so the rounds a send waits for can be counted.
   */
  function remoteReads() {
    const asked: (() => void)[] = [];
    const remote =
      <A extends unknown[], T>(read: (...args: A) => Promise<T>) =>
      (...args: A) =>
        new Promise<T>((resolve, reject) => asked.push(() => void read(...args).then(resolve, reject)));
    return {
      remote,
      /** Answers every read asked so far; whether there was any. */
      round() {
        const now = asked.splice(0);
        for (const answer of now) answer();
        return now.length > 0;
      },
    };
  }

  it('a send to a session, with its id and the default voice, waits for one round of reads before its write', async () => {
    const { sent, outcome: earlier } = await exchange('Hola');
    const { remote, round } = remoteReads();
    let rounds = 0;
    let roundsBeforeWrite: number | undefined;
    const far: Storage = {
      ...storage,
      messages: {
        ...storage.messages,
        findByClientMessageId: remote(storage.messages.findByClientMessageId),
        recentTurns: remote(storage.messages.recentTurns),
      },
      sessions: { ...storage.sessions, state: remote(storage.sessions.state) },
      users: { ...storage.users, findById: remote(storage.users.findById) },
      usage: { ...storage.usage, get: remote(storage.usage.get) },
      sends: {
        store: (...args) => {
          roundsBeforeWrite ??= rounds;
          return storage.sends.store(...args);
        },
      },
    };
    const plans = plansOn(far);
    const synthesizer = createFakeSynthesizer({ msPerWord: 5 });
    const farChat = build({
      storage: far,
      quota: plans.quota,
      speech: synthesizer,
      defaultVoiceId: remote(async () => 'es-mateo'),
    });
    const sending = farChat.submit(userId, {
      message: 'Otra cosa',
      sessionId: sent.session.sessionId,
      clientMessageId: 'c-far',
    });
    // Asked one after another, they were six rounds: the duplicate, the session, the user, the
    // month, the recent messages, the default voice.
    for (let turn = 0; roundsBeforeWrite === undefined && turn < 100; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (round()) rounds += 1;
    }
    // The rest is answered as it comes, and the reply ends before the store closes.
    const answering = setInterval(round, 1);
    try {
      const farSent = await sending;
      stored(await farSent.reply.done);
      expect(roundsBeforeWrite).toBe(1);
      expect(farSent.duplicate).toBe(false);
      expect(synthesizer.calls.length).toBeGreaterThan(0);
      expect(synthesizer.calls.every((c) => c.voice.voice === resolveVoice('es-mateo', 'es').voice)).toBe(
        true,
      );
      // The context it was asked with held the session's earlier exchange.
      expect(engine.requests.at(-1)?.history.map((m) => m.content)).toEqual([
        sent.message.content,
        stored(earlier).message.content,
      ]);
    } finally {
      clearInterval(answering);
    }
  });

  it("a send's reads are asked inside one of the store's readTogether: on SQLite one read transaction", async () => {
    const { sent } = await exchange('Hola');
    let together = 0;
    let inside = false;
    const asked: { read: string; inside: boolean }[] = [];
    const watch =
      <A extends unknown[], T>(read: string, call: (...args: A) => T) =>
      (...args: A) => {
        asked.push({ read, inside });
        return call(...args);
      };
    const watched: Storage = {
      ...storage,
      readTogether: (reads) => {
        together += 1;
        inside = true;
        try {
          return storage.readTogether(reads);
        } finally {
          inside = false;
        }
      },
      messages: {
        ...storage.messages,
        findByClientMessageId: watch('duplicate', storage.messages.findByClientMessageId),
        recentTurns: watch('recent', storage.messages.recentTurns),
      },
      sessions: { ...storage.sessions, state: watch('session', storage.sessions.state) },
      users: { ...storage.users, findById: watch('user', storage.users.findById) },
      usage: { ...storage.usage, get: watch('month', storage.usage.get) },
    };
    const plans = plansOn(watched);
    const watchedChat = build({
      storage: watched,
      quota: plans.quota,
      speech: createFakeSynthesizer({ msPerWord: 5 }),
      defaultVoiceId: watch('voice', async () => 'es-mateo'),
    });
    const again = await watchedChat.submit(userId, {
      message: 'Otra cosa',
      sessionId: sent.session.sessionId,
      clientMessageId: 'c-together',
    });
    stored(await again.reply.done);
    expect(together).toBe(1);
    const insideReads = asked.filter((a) => a.inside).map((a) => a.read);
    expect(insideReads.sort()).toEqual(['duplicate', 'month', 'recent', 'session', 'user', 'voice']);
  });

  it("someone else's session in a full month: not found, as when read one after another, and no limit:reached", async () => {
    const { sent } = await exchange('Hola');
    const full = build({
      quota: {
        ticket: async () => ({
          open: false,
          reached: { kind: 'messages', used: 100, limit: 100, message: 'full' },
        }),
      },
    });
    await expect(
      full.submit('user-0002', { message: 'Hola', sessionId: sent.session.sessionId }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(published.filter((p) => p.event === 'limit:reached')).toEqual([]);
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

describe('C-18 a line with no language signal', () => {
  it("C-18 takes the user's preferred language in a session with no earlier message, then the session's; a signal wins", async () => {
    const english = build({ preferredLanguage: async () => 'en' });
    const first = await english.submit(userId, { message: 'ok' });
    await first.reply.done;
    expect(first.message.language).toBe('en');
    expect(engine.requests.at(-1)?.language).toBe('en');

    // The session now speaks English: another signal-less line stays in it.
    const second = await english.submit(userId, { message: '👍', sessionId: first.session.sessionId });
    await second.reply.done;
    expect(second.message.language).toBe('en');

    // A line that says its language is answered in it, whatever the preference.
    const spanish = await english.submit(userId, {
      message: '¿Me oyes?',
      sessionId: first.session.sessionId,
    });
    await spanish.reply.done;
    expect(spanish.message.language).toBe('es');
    const after = await english.submit(userId, { message: 'jaja', sessionId: first.session.sessionId });
    await after.reply.done;
    expect(after.message.language).toBe('es');
  });

  it('C-18 without a preference (or with no user record) the default language, Spanish', async () => {
    const none = build({ preferredLanguage: async () => null });
    const sent = await none.submit(userId, { message: 'ok' });
    await sent.reply.done;
    expect(sent.message.language).toBe('es');
    expect(engine.requests.at(-1)?.language).toBe('es');
  });
});
