import type { EmotionAnalysis, Language, ServerEventName, ServerPayload } from '@alma/protocol';
import { afterEach, beforeEach } from 'vitest';
import type { ReplyChunk, ReplyEngine, ReplyRequest } from '../engines/reply/types.ts';
import type { SpeechSynthesizer } from '../engines/speech/types.ts';
import { uuidv7 } from '../lib/ids.ts';
import { createMemoryReplyRegistry } from '../modules/chat/reply-registry.ts';
import type { ReplyOutcome } from '../modules/chat/reply-types.ts';
import { createSessionsService } from '../modules/chat/sessions.service.ts';
import { createSpeechPipeline } from '../modules/chat/speech-pipeline.ts';
import { createSubmitService, type MessageQuota } from '../modules/chat/submit.service.ts';
import { usagePeriod } from '../modules/plans/period.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { openEmbeddedStorage } from '../storage/embedded/index.ts';
import type { Storage } from '../storage/types.ts';
import { testUser } from './embedded-store.ts';

/**
 * The chat as app.ts composes it — reply registry, sessions, submit, reply runs — for the chat's
 * unit tests, with its collaborators replaced at their boundaries: an in-memory store, a
 * publisher that records what it would emit, and a scripted engine that records what it was
 * asked. `useChatHarness()` gives each test a fresh one; the `let` exports are live bindings.
 */

export interface Published {
  to: 'session' | 'user';
  event: ServerEventName;
  payload: Record<string, unknown>;
}

/** An engine double: records each request, streams a scripted reply, optionally one piece at a time. */
export function scriptedEngine() {
  const requests: ReplyRequest[] = [];
  let gate: { open: () => void; wait: Promise<void> } | null = null;
  /** Steps taken before the engine reached its next gate: it passes that many without waiting. */
  let permits = 0;
  const engine = {
    requests,
    pieces: ['Hola, ', 'qué ', 'bien. '] as string[],
    emotion: { emotion: 'happy', intensity: 0.6, confidence: 0.8 } as EmotionAnalysis,
    failAfter: null as number | null,
    /** While held, each piece waits for a `step()` (taken before or after it is reached). */
    hold: false,
    step() {
      const current = gate;
      gate = null;
      if (current) current.open();
      else permits += 1;
    },
    name: 'scripted',
    async *stream(request: ReplyRequest): AsyncIterable<ReplyChunk> {
      requests.push(request);
      yield { type: 'emotion', ...engine.emotion };
      yield { type: 'gesture', gesture: 'nodding' };
      for (const [i, piece] of engine.pieces.entries()) {
        if (engine.failAfter === i) throw new Error('engine exploded');
        if (engine.hold && permits > 0) permits -= 1;
        else if (engine.hold) {
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

export let storage: Storage;
export let engine: ReturnType<typeof scriptedEngine>;
export let published: Published[];
export let chat: ReturnType<typeof build>;
export const userId = 'user-0001';

const publisher: Publisher = {
  toSession: (_sessionId, event, payload) => published.push({ to: 'session', event, payload: payload }),
  toUser: (_userId, event, payload) => published.push({ to: 'user', event, payload: payload }),
};
export const silentLog = { error: () => {}, warn: () => {}, info: () => {} };

export interface HarnessOverrides {
  replyFlushMs?: number;
  storage?: Storage;
  speech?: SpeechSynthesizer;
  defaultVoiceId?: (userId: string) => Promise<string | null>;
  preferredLanguage?: (userId: string) => Promise<Language | null>;
  quota?: MessageQuota;
}

/** A chat on the harness's store and engine (or the overrides'), as app.ts wires one. */
export function build(overrides: HarnessOverrides = {}) {
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
    sends: store.sends,
    synced: () => store.synced(),
    readTogether: (reads) => store.readTogether(reads),
    chatSessions: sessions,
    replies,
    engine,
    publisher,
    // No limit unless overridden: every send is counted in its own write, and nothing is refused.
    quota: overrides.quota ?? {
      ticket: async () => ({
        open: true,
        count: { period: usagePeriod(new Date()), limit: null },
        counted: (usage) => ({
          messagesThisMonth: usage.messages,
          messagesLimit: null,
          voiceMinutesThisMonth: 0,
          voiceMinutesLimit: null,
        }),
        refused: (usage) => ({ kind: 'messages', used: usage.messages, limit: 0, message: '' }),
      }),
    },
    newId: () => uuidv7(),
    clock: () => new Date(),
    log: silentLog,
    replyFlushMs: overrides.replyFlushMs ?? 0,
    speech: overrides.speech ? createSpeechPipeline({ synthesizer: overrides.speech, log: silentLog }) : null,
    defaultVoiceId: overrides.defaultVoiceId,
    preferredLanguage: overrides.preferredLanguage,
  });
  return { ...submit, sessions, replies };
}

/** Replaces the harness's chat (a broken store, another flush interval). */
export function rebuild(overrides: HarnessOverrides): void {
  chat = build(overrides);
}

/** Submits and waits for the whole reply, as the REST edge does. */
export async function exchange(
  message: string,
  sessionId?: string,
  extras: { voiceId?: string; avatarId?: string } = {},
) {
  const sent = await chat.submit(userId, { message, sessionId, ...extras });
  const outcome = await sent.reply.done;
  return { sent, handle: sent.reply, outcome };
}

export const stored = (outcome: ReplyOutcome) => {
  if (outcome.kind !== 'stored') throw new Error(`reply failed: ${outcome.code}`);
  return outcome;
};
export const eventsOf = <E extends ServerEventName>(event: E) =>
  published.filter((p) => p.event === event).map((p) => p.payload as ServerPayload<E>);

export async function until(condition: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** A fresh store, engine, publisher log and chat for every test of the calling file. */
export function useChatHarness(): void {
  beforeEach(async () => {
    storage = openEmbeddedStorage({ file: ':memory:' });
    await storage.users.create(testUser({ id: userId, name: 'Lucía', email: 'lucia@example.com' }));
    engine = scriptedEngine();
    published = [];
    chat = build();
  });
  afterEach(async () => {
    await storage.close();
  });
}
