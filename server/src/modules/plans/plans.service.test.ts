import type { ServerEventName } from '@alma/protocol';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Publisher } from '../../realtime/publisher.ts';
import { openStorage } from '../../storage/index.ts';
import type { SendWrite, Storage } from '../../storage/types.ts';
import { createPlansService } from './plans.service.ts';

let dir: string;
let storage: Storage;
const published: { userId: string; event: ServerEventName; payload: unknown }[] = [];
const publisher: Publisher = {
  toSession: () => undefined,
  toUser: (userId, event, payload) => published.push({ userId, event, payload }),
};
const now = new Date('2026-11-15T10:00:00.000Z');
let plans: ReturnType<typeof createPlansService>;

const user = (id: string, language: 'es' | 'en' = 'es', role: 'user' | 'admin' = 'user') =>
  storage.users.create({
    id,
    name: id,
    email: `${id}@example.com`,
    passwordHash: 'x',
    plan: 'free',
    role,
    language,
    theme: 'dark',
    createdAt: now.toISOString(),
  });

/** A message counted in its own write, as a send stores one (SendWrite), in a new session. */
let sent = 0;
function countOne(userId: string, count: SendWrite['count']) {
  const at = now.toISOString();
  const sessionId = `${userId}-session-${++sent}`;
  const message = (id: string, role: 'user' | 'assistant') => ({
    _id: id,
    sessionId,
    userId,
    role,
    content: role === 'user' ? 'hola' : '',
    createdAt: at,
    clientMessageId: null,
    replyTo: null,
    emotion: null,
    emotionAnalysis: null,
    language: 'es' as const,
    userLanguage: 'es' as const,
    personality: null,
    audioUrl: null,
    isComplete: role === 'user',
  });
  return storage.sends.store({
    message: message(`${sessionId}-m`, 'user'),
    reply: { ...message(`${sessionId}-r`, 'assistant'), replyTo: `${sessionId}-m` },
    count,
    newSession: { sessionId, userId, title: null, personality: 'default', createdAt: at, updatedAt: at },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alma-plans-'));
  storage = await openStorage({ dataDir: dir });
  plans = createPlansService({
    users: storage.users,
    usage: storage.usage,
    publisher,
    clock: () => now,
    freeMessagesPerMonth: 1,
  });
});
afterAll(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('plans service', () => {
  it('L-3 the quota opens a ticket while the month is under the cap, then says so in the user’s stored language', async () => {
    await user('sam', 'en');
    const first = await plans.quota.ticket('sam');
    if (!first.open) throw new Error('the first message of the month is refused');
    expect(first.count).toEqual({ period: '2026-11', limit: 1 });
    const written = await countOne('sam', first.count);
    expect(written.kind).toBe('stored');
    if (written.kind !== 'stored') return;
    expect(first.counted(written.usage)).toEqual({
      messagesThisMonth: 1,
      messagesLimit: 1,
      voiceMinutesThisMonth: 0,
      voiceMinutesLimit: 30,
    });
    const reached = {
      kind: 'messages',
      used: 1,
      limit: 1,
      message: "You've reached your plan's message limit.",
    };
    expect(await plans.quota.ticket('sam')).toEqual({ open: false, reached });
    // A send that took its ticket before the month filled up is refused by its own write.
    const late = await countOne('sam', first.count);
    expect(late.kind).toBe('refused');
    if (late.kind === 'refused') expect(first.refused(late.usage)).toEqual(reached);
  });

  it('L-1 paid plans keep PLAN_TABLE limits; the override only touches the free plan', () => {
    expect(plans.limitsFor('free').messages).toBe(1);
    expect(plans.limitsFor('pro').messages).toBe(5000);
    expect(plans.limitsFor('enterprise').messages).toBeNull();
  });

  it('L-4 an admin reset tells the target user’s sockets the new usage', async () => {
    await user('ana');
    await user('root', 'es', 'admin');
    const ticket = await plans.quota.ticket('ana');
    if (ticket.open) await countOne('ana', ticket.count);
    published.length = 0;
    const reset = await plans.resetUsage('root', 'ana');
    expect(reset.userId).toBe('ana');
    expect(reset.summary.usage.messagesThisMonth).toBe(0);
    expect(published).toEqual([
      {
        userId: 'ana',
        event: 'usage:updated',
        payload: { messagesThisMonth: 0, messagesLimit: 1, voiceMinutesThisMonth: 0, voiceMinutesLimit: 30 },
      },
    ]);
  });

  it('L-4 a user who is not an admin is refused before the target is looked up', async () => {
    await expect(plans.resetUsage('ana', 'nobody')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(plans.resetUsage('root', 'nobody')).rejects.toMatchObject({ code: 'not_found' });
  });
});
