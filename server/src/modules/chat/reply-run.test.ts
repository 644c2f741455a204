import { describe, expect, it } from 'vitest';
import type { Storage } from '../../storage/types.ts';
import {
  chat,
  engine,
  eventsOf,
  exchange,
  published,
  rebuild,
  storage,
  stored,
  until,
  useChatHarness,
  userId,
} from '../../test-support/chat-harness.ts';

/** A promise and what resolves it: something the test lets happen when it chooses. */
function held(): [Promise<void>, () => void] {
  let release = () => {};
  const promise = new Promise<void>((resolve) => (release = resolve));
  return [promise, release];
}

/** One reply from typing to its end: stored as it streams (C-5), stopped or failed (C-4, C-7, C-15). */
useChatHarness();

/**
 * A message stored whose reply never started (the process died between the two): sent with
 * clientMessageId `interrupted-1`, answered, then its reply's row removed and the log cleared.
 */
async function interruptedBeforeItsReply(message: string) {
  const sent = await chat.submit(userId, { message, clientMessageId: 'interrupted-1' });
  await sent.reply.done;
  await storage.messages.delete(userId, sent.reply.replyId);
  published.length = 0;
  engine.requests.length = 0;
  return sent;
}

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

  it("a new message's reply row is stored with it: stored when the send resolves, before the reply starts", async () => {
    const [acked, ack] = held();
    const sent = await chat.submit(userId, { message: 'Hola' }, { acked });
    expect(await storage.messages.findReplyTo(userId, sent.message._id)).toMatchObject({
      _id: sent.reply.replyId,
      content: '',
      isComplete: false,
    });
    ack();
    expect(stored(await sent.reply.done).message).toMatchObject({ content: 'Hola, qué bien. ' });
  });

  it('a reply row that cannot be stored with its message: neither is stored, the send fails', async () => {
    // The row collides with the message's own id: the one write fails as a whole (real SQLite).
    const colliding: Storage = {
      ...storage,
      sends: {
        store: (send, options) =>
          storage.sends.store({ ...send, reply: { ...send.reply, _id: send.message._id } }, options),
      },
    };
    rebuild({ storage: colliding });
    await expect(chat.submit(userId, { message: 'Hola' })).rejects.toThrow();
    expect(await storage.messages.countByUser(userId)).toBe(0);
    expect(published.filter((p) => p.to === 'session')).toEqual([]);
  });

  it('the engine writes while the message is stored and acknowledged; nothing of the reply leaves before the ack (C-1)', async () => {
    const [acked, ack] = held();
    const sent = await chat.submit(userId, { message: 'Hola' }, { acked });
    // Several turns of the event loop: the reply waits for the ack, not for a turn.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(published.filter((p) => p.to === 'session').map((p) => p.event)).toEqual(['chat:message']);
    expect(engine.requests).toHaveLength(1);
    ack();
    stored(await sent.reply.done);
    expect(eventsOf('chat:typing').map((e) => e.typing)).toEqual([true, false]);
  });

  it('a send whose reply never starts stops the engine it asked, and its row goes', async () => {
    const failing = chat.submit(
      userId,
      { message: 'Hola' },
      {
        onStored: async () => {
          throw new Error('join failed');
        },
      },
    );
    await expect(failing).rejects.toThrow('join failed');
    expect(engine.requests).toHaveLength(1);
    expect(engine.requests[0]?.signal.aborted).toBe(true);
    // The message stays stored (it was, before the failure); its reply's row does not.
    expect(await storage.messages.countByUser(userId)).toBe(1);
    expect(published.filter((p) => p.to === 'session').map((p) => p.event)).toEqual(['chat:message']);
  });

  it('a retried message whose reply never started: the engine starts writing while the row is stored; nothing it wrote leaves before the row is', async () => {
    const sent = await interruptedBeforeItsReply('Hola');
    const [rowWritten, storeRow] = held();
    const slowRow: Storage = {
      ...storage,
      messages: {
        ...storage.messages,
        insert: async (message, options) => {
          if (message.role === 'assistant') await rowWritten;
          return storage.messages.insert(message, options);
        },
      },
    };
    rebuild({ storage: slowRow });
    const retried = await chat.submit(userId, { message: 'Hola', clientMessageId: 'interrupted-1' });
    expect(retried.duplicate).toBe(true);
    await until(async () => engine.requests.length === 1);
    // The engine was asked, the row is not stored yet: only the opening typing has left.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await storage.messages.findReplyTo(userId, sent.message._id)).toBeNull();
    expect(published.filter((p) => p.to === 'session').map((p) => p.event)).toEqual(['chat:typing']);
    storeRow();
    const outcome = stored(await retried.reply.done);
    expect(outcome.message).toMatchObject({ content: 'Hola, qué bien. ', isComplete: true });
    expect(eventsOf('chat:delta').map((d) => d.text)).toEqual(['Hola, ', 'qué ', 'bien. ']);
  });

  it('a retried message whose row cannot be stored: reply_failed, retryable, and nothing the engine wrote leaves', async () => {
    const sent = await interruptedBeforeItsReply('Hola');
    const noRow: Storage = {
      ...storage,
      messages: {
        ...storage.messages,
        insert: async (message) => {
          if (message.role === 'assistant') throw new Error('disk full');
          return storage.messages.insert(message);
        },
      },
    };
    rebuild({ storage: noRow });
    const retried = await chat.submit(userId, { message: 'Hola', clientMessageId: 'interrupted-1' });
    const outcome = await retried.reply.done;
    expect(outcome).toEqual({ kind: 'failed', code: 'reply_failed' });
    expect(eventsOf('chat:error')).toMatchObject([{ code: 'reply_failed', retryable: true }]);
    expect(eventsOf('chat:delta')).toEqual([]);
    expect(eventsOf('chat:emotion')).toEqual([]);
    expect(await storage.messages.findReplyTo(userId, sent.message._id)).toBeNull();
  });

  it("the last write and the session's record wait for the disk once, together, before chat:reply", async () => {
    let syncs = 0;
    let sync = () => {};
    let onDisk = Promise.resolve();
    const lastWrites: (string | undefined)[] = [];
    const watched: Storage = {
      ...storage,
      // The send's own wait for the disk passes at once; the reply's end is held.
      synced: () => {
        syncs += 1;
        return onDisk;
      },
      messages: {
        ...storage.messages,
        updateReply: (userId, messageId, patch, options) => {
          lastWrites.push(`messages ${String(options?.synced)}`);
          return storage.messages.updateReply(userId, messageId, patch, options);
        },
      },
      sessions: {
        ...storage.sessions,
        update: (userId, sessionId, patch, options) => {
          if (patch.context) lastWrites.push(`session ${String(options?.synced)}`);
          return storage.sessions.update(userId, sessionId, patch, options);
        },
      },
    };
    rebuild({ storage: watched });
    engine.hold = true;
    const sent = await chat.submit(userId, { message: 'Hola' });
    const syncsBefore = syncs;
    onDisk = new Promise<void>((resolve) => (sync = resolve));
    engine.hold = false;
    engine.step();
    // Both committed without waiting for the disk (readable: the row is complete), then one sync.
    await until(
      async () => (await storage.messages.findReplyTo(userId, sent.message._id))?.isComplete === true,
    );
    await until(() => Promise.resolve(syncs > syncsBefore));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(lastWrites).toEqual(['messages false', 'session false']);
    expect(syncs - syncsBefore).toBe(1);
    expect(eventsOf('chat:reply')).toEqual([]);
    sync();
    expect(stored(await sent.reply.done).message).toMatchObject({ isComplete: true });
    expect(eventsOf('chat:reply')).toHaveLength(1);
  });

  it('rewrites the row at most every flush interval, not on every delta', async () => {
    const writes: string[] = [];
    const counting: Storage = {
      ...storage,
      messages: {
        ...storage.messages,
        rewriteReply: async (...args) => {
          writes.push(args[2].content);
          return storage.messages.rewriteReply(...args);
        },
        updateReply: async (...args) => {
          writes.push(args[2].content);
          return storage.messages.updateReply(...args);
        },
      },
    };
    rebuild({ replyFlushMs: 60_000, storage: counting });
    engine.pieces = Array.from({ length: 40 }, (_, i) => `palabra${i} `);
    await exchange('Hola');
    // Only the final write: no interval passed while streaming.
    expect(writes).toHaveLength(1);
  });

  it('a rewrite while streaming does not wait for the disk; the last write does', async () => {
    // A test double for a slow disk (the in-memory store has none to wait for): a write that
    // waits for the disk resolves only once `syncDisk` is called.
    const [disk, syncDisk] = held();
    const waits: (boolean | undefined)[] = [];
    let sentAlready = false;
    const slowDisk: Storage = {
      ...storage,
      // The send's own wait for the disk passes at once; from then on the disk lags.
      synced: async () => {
        if (sentAlready) await disk;
      },
      messages: {
        ...storage.messages,
        rewriteReply: async (userId, messageId, patch, options) => {
          waits.push(options?.synced);
          const written = await storage.messages.rewriteReply(userId, messageId, patch, options);
          if (options?.synced !== false) await disk;
          return written;
        },
        updateReply: async (userId, messageId, patch, options) => {
          waits.push(options?.synced);
          const written = await storage.messages.updateReply(userId, messageId, patch, options);
          if (options?.synced !== false) await disk;
          return written;
        },
      },
    };
    rebuild({ replyFlushMs: 0, storage: slowDisk });
    engine.pieces = ['Uno ', 'dos ', 'tres ', 'cuatro.'];
    const sent = await chat.submit(userId, { message: 'Hola' });
    sentAlready = true;
    // Every piece is rewritten into the row (a flush interval of 0) and leaves while the disk lags.
    await until(async () => eventsOf('chat:delta').length === 4);
    await until(
      async () => (await storage.messages.findReplyTo(userId, sent.message._id))?.isComplete === true,
    );
    expect(eventsOf('chat:reply')).toEqual([]);
    syncDisk();
    expect(stored(await sent.reply.done).message).toMatchObject({ content: 'Uno dos tres cuatro.' });
    // The last write too is committed without waiting; `chat:reply` waits for the disk after it.
    expect(waits).toEqual([false, false, false, false, false]);
  });

  it('the stream does not wait for a rewrite to commit: the next words leave meanwhile', async () => {
    // A test double for a commit that takes a while (under load, the event loop's next turn).
    const [committing, commit] = held();
    const slowCommit: Storage = {
      ...storage,
      messages: {
        ...storage.messages,
        rewriteReply: async (...args) => {
          if (args[3]?.synced === false) await committing;
          return storage.messages.rewriteReply(...args);
        },
      },
    };
    rebuild({ replyFlushMs: 0, storage: slowCommit });
    engine.pieces = ['Uno ', 'dos ', 'tres.'];
    const sent = await chat.submit(userId, { message: 'Hola' });
    // The first word's rewrite is still committing when the second word leaves.
    await until(async () => eventsOf('chat:delta').length === 2);
    commit();
    expect(stored(await sent.reply.done).message).toMatchObject({ content: 'Uno dos tres.' });
    expect(eventsOf('chat:delta').map((d) => d.text)).toEqual(['Uno ', 'dos ', 'tres.']);
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

  /** The store with these reply writes failing as a full disk would. */
  const failing = (...writes: ('rewriteReply' | 'updateReply')[]): Storage => {
    const diskFull = () => Promise.reject(new Error('disk full'));
    return {
      ...storage,
      messages: { ...storage.messages, ...Object.fromEntries(writes.map((w) => [w, diskFull])) },
    };
  };

  it('a store failing mid-reply: reply_failed, retryable — never a reply that just stops', async () => {
    rebuild({ storage: failing('rewriteReply', 'updateReply') });
    const { outcome } = await exchange('Hola');
    expect(outcome).toEqual({ kind: 'failed', code: 'reply_failed' });
    const errors = eventsOf('chat:error');
    expect(errors).toMatchObject([{ code: 'reply_failed', retryable: true }]);
    expect(published.filter((p) => p.event === 'chat:reply')).toEqual([]);
  });

  it('a rewrite failing while the reply streams ends it too, though the last write would succeed (C-5)', async () => {
    rebuild({ replyFlushMs: 0, storage: failing('rewriteReply') });
    engine.pieces = ['Uno ', 'dos ', 'tres.'];
    const { outcome } = await exchange('Hola');
    expect(outcome).toEqual({ kind: 'failed', code: 'reply_failed' });
    expect(eventsOf('chat:error')).toMatchObject([{ code: 'reply_failed', retryable: true }]);
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

  it('the session gone before the reply starts (another instance deleted it): not_found, no row', async () => {
    const [acked, ack] = held();
    const sent = await chat.submit(userId, { message: 'Hola' }, { acked });
    await storage.sessions.delete(userId, sent.session.sessionId);
    ack();
    expect(await sent.reply.done).toEqual({ kind: 'failed', code: 'not_found' });
    expect(eventsOf('chat:error')).toMatchObject([{ code: 'not_found', retryable: false }]);
    expect(eventsOf('chat:typing').map((e) => e.typing)).toEqual([true, false]);
    expect(await storage.messages.countByUser(userId)).toBe(0);
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
