import { ServerEvent, type Emotion, type Gesture, type SessionContext } from '@alma/protocol';
import type { AnyServerEvent } from '../../../lib/realtime.ts';
import {
  errorMessage,
  fromServerMessage,
  localMessageId,
  streamMessageId,
  systemNote,
  upsertMessage,
  type LocalMessage,
} from './messages.ts';

/**
 * How each server event changes the open conversation: pure functions, so the rules of SPEC.md
 * C-4 (deltas in seq order, duplicates ignored, the reply replaces the stream) are tested without
 * a socket. The conversation store (store/conversation.ts) wraps them with actions.
 */

interface ReplyStream {
  replyId: string;
  sessionId: string;
  /** Delta text by seq; joined in seq order. */
  deltas: Record<number, string>;
  /** Every seq seen for this reply, of any event type, so a repeat is ignored. */
  seen: Record<number, true>;
}

export interface PendingSend {
  clientMessageId: string;
  text: string;
  sessionId: string | null;
  replyId: string | null;
}

/** The open conversation as data: what the message list, the typing dots and the stage show. */
export interface ConversationData {
  activeSessionId: string | null;
  messages: LocalMessage[];
  streams: Record<string, ReplyStream>;
  /** Replies already final (reply or error), so late or repeated events are dropped. */
  finished: Record<string, true>;
  pending: PendingSend | null;
  typing: boolean;
  emotion: Emotion | null;
  gesture: Gesture | null;
  /**
   * The latest gesture to play, from `avatar:intent` (spec §4): its duration, where it starts in
   * the reply's speech (ms from now, approximately), and a key that changes with every intent so
   * the same gesture twice plays twice.
   */
  intent: { gesture: Gesture; durationMs: number; atMs: number; key: number } | null;
  limit: { message: string } | null;
  /** The active session's conversation context (spec §3), from its latest reply or the server. */
  context: SessionContext | null;
}

export const initialConversation: ConversationData = {
  activeSessionId: null,
  messages: [],
  streams: {},
  finished: {},
  pending: null,
  typing: false,
  emotion: null,
  gesture: null,
  intent: null,
  limit: null,
  context: null,
};

/** Does a reply event concern what this tab shows? */
function concernsView(state: ConversationData, ev: { replyId: string; sessionId: string }): boolean {
  if (ev.sessionId === state.activeSessionId) return true;
  const pending = state.pending;
  if (!pending) return false;
  return pending.replyId === ev.replyId || (pending.replyId === null && pending.sessionId === null);
}

function streamText(stream: ReplyStream): string {
  return Object.keys(stream.deltas)
    .map(Number)
    .sort((a, b) => a - b)
    .map((seq) => stream.deltas[seq])
    .join('');
}

/** Registers a reply event's seq; null when it is a repeat or the reply is already final. */
function track(
  state: ConversationData,
  ev: { replyId: string; sessionId: string; seq: number },
): ReplyStream | null {
  if (state.finished[ev.replyId]) return null;
  const stream = state.streams[ev.replyId] ?? {
    replyId: ev.replyId,
    sessionId: ev.sessionId,
    deltas: {},
    seen: {},
  };
  if (stream.seen[ev.seq]) return null;
  return { ...stream, seen: { ...stream.seen, [ev.seq]: true } };
}

function pendingMatches(
  pending: PendingSend | null,
  ids: { replyId?: string; clientMessageId?: string | null },
) {
  if (!pending) return false;
  if (ids.replyId && pending.replyId === ids.replyId) return true;
  if (ids.clientMessageId && pending.clientMessageId === ids.clientMessageId) return true;
  // A reply event that arrives before the ack names no clientMessageId we can match yet.
  return pending.replyId === null && !ids.clientMessageId;
}

function finish(state: ConversationData, replyId: string): Pick<ConversationData, 'streams' | 'finished'> {
  const streams = { ...state.streams };
  delete streams[replyId];
  return { streams, finished: { ...state.finished, [replyId]: true } };
}

export function reduceConversation(state: ConversationData, event: AnyServerEvent): ConversationData {
  switch (event.name) {
    case ServerEvent.chatTyping: {
      const ev = event.payload;
      if (!concernsView(state, ev)) return state;
      const stream = track(state, ev);
      if (!stream) return state;
      return { ...state, streams: { ...state.streams, [ev.replyId]: stream }, typing: ev.typing };
    }
    case ServerEvent.chatDelta: {
      const ev = event.payload;
      if (!concernsView(state, ev)) return state;
      const tracked = track(state, ev);
      if (!tracked) return state;
      const stream = { ...tracked, deltas: { ...tracked.deltas, [ev.seq]: ev.text } };
      const id = streamMessageId(ev.replyId);
      const existing = state.messages.find((m) => m.id === id);
      const message: LocalMessage = {
        id,
        type: 'bot',
        content: streamText(stream),
        timestamp: existing?.timestamp ?? new Date().toISOString(),
        replyId: ev.replyId,
        streaming: true,
        emotion: existing?.emotion ?? state.emotion,
      };
      return {
        ...state,
        streams: { ...state.streams, [ev.replyId]: stream },
        messages: upsertMessage(state.messages, message),
      };
    }
    case ServerEvent.chatEmotion: {
      const ev = event.payload;
      if (!concernsView(state, ev)) return state;
      const stream = track(state, ev);
      if (!stream) return state;
      return { ...state, streams: { ...state.streams, [ev.replyId]: stream }, emotion: ev.emotion };
    }
    case ServerEvent.avatarIntent: {
      const ev = event.payload;
      if (!concernsView(state, ev)) return state;
      const stream = track(state, ev);
      if (!stream) return state;
      return {
        ...state,
        streams: { ...state.streams, [ev.replyId]: stream },
        gesture: ev.shouldAnimate ? ev.gesture : state.gesture,
        intent:
          ev.shouldAnimate && ev.gesture
            ? {
                gesture: ev.gesture,
                durationMs: ev.duration,
                atMs: ev.atMs,
                key: (state.intent?.key ?? 0) + 1,
              }
            : state.intent,
        emotion: ev.emotion,
      };
    }
    case ServerEvent.speechChunk: {
      // The store plays the chunk (audio/speech.ts) when this accepts it; the seq counts as seen.
      const ev = event.payload;
      if (!concernsView(state, ev)) return state;
      const stream = track(state, ev);
      if (!stream) return state;
      return { ...state, streams: { ...state.streams, [ev.replyId]: stream } };
    }
    case ServerEvent.chatReply: {
      const ev = event.payload;
      if (state.finished[ev.replyId] || !concernsView(state, ev)) return state;
      const final: LocalMessage = {
        ...fromServerMessage(ev.message),
        emotion: ev.reply.emotion,
        personality: ev.reply.personality,
        replyId: ev.replyId,
        audioUrl: ev.message.audioUrl ?? ev.reply.audioUrl,
      };
      const streamId = streamMessageId(ev.replyId);
      const alreadyStored = state.messages.some((m) => m.id === final.id);
      const withoutStream = alreadyStored ? state.messages.filter((m) => m.id !== streamId) : state.messages;
      const messages = alreadyStored ? withoutStream : upsertMessage(state.messages, final, streamId);
      const settles = pendingMatches(state.pending, ev);
      const context = ev.reply.sessionContext;
      return {
        ...state,
        ...finish(state, ev.replyId),
        messages,
        context,
        emotion: ev.reply.emotion,
        pending: settles ? null : state.pending,
        typing: settles ? false : state.typing,
      };
    }
    case ServerEvent.chatError: {
      const ev = event.payload;
      if (ev.replyId && state.finished[ev.replyId]) return state;
      const ours =
        pendingMatches(state.pending, ev) ||
        (ev.sessionId !== undefined && ev.sessionId === state.activeSessionId);
      if (!ours) return state;
      let messages = state.messages;
      if (ev.replyId) {
        const streamId = streamMessageId(ev.replyId);
        const partial = messages.find((m) => m.id === streamId);
        messages = partial?.content
          ? upsertMessage(messages, { ...partial, streaming: false, isComplete: false })
          : messages.filter((m) => m.id !== streamId);
      }
      const pending = state.pending && pendingMatches(state.pending, ev) ? state.pending : null;
      const retry =
        ev.retryable && pending
          ? { clientMessageId: pending.clientMessageId, text: pending.text, sessionId: pending.sessionId }
          : undefined;
      // A reply the user cut off (barge-in, SPEC.md S-2) is no error: a note says it stopped.
      const note: LocalMessage =
        ev.code === 'cancelled'
          ? systemNote('chat.replyStopped', undefined, `system:cancelled:${ev.replyId ?? Date.now()}`)
          : errorMessage(ev.message, retry);
      messages = [...messages, note];
      return {
        ...state,
        ...(ev.replyId ? finish(state, ev.replyId) : {}),
        messages,
        pending: pending ? null : state.pending,
        typing: pending ? false : state.typing,
        limit: ev.code === 'limit_reached' ? { message: ev.message } : state.limit,
      };
    }
    case ServerEvent.chatMessage: {
      const message = event.payload.message;
      if (message.sessionId !== state.activeSessionId) return state;
      if (state.messages.some((m) => m.id === message._id)) return state;
      const local = fromServerMessage(message);
      const localId = message.clientMessageId ? localMessageId(message.clientMessageId) : null;
      if (localId && state.messages.some((m) => m.id === localId)) {
        return { ...state, messages: upsertMessage(state.messages, local, localId) };
      }
      return { ...state, messages: [...state.messages, local] };
    }
    case ServerEvent.limitReached:
      return { ...state, limit: { message: event.payload.message } };
    case ServerEvent.chatTranscription: {
      // SPEC.md V-4: progress of this tab's voice note; the text arrives at 100, once stored.
      const ev = event.payload;
      const id = localMessageId(ev.clientMessageId);
      const note = state.messages.find((m) => m.id === id);
      if (!note?.voiceNote) return state;
      const progress = Math.max(note.voiceNote.progress, Math.round(ev.progress));
      const updated: LocalMessage = {
        ...note,
        voiceNote: { progress, real: true },
        ...(ev.text ? { content: ev.text, contentKey: undefined } : {}),
      };
      return { ...state, messages: upsertMessage(state.messages, updated) };
    }
    // Sessions (the list) and the rest of the app handle these.
    case ServerEvent.sessionUpdated:
    case ServerEvent.serverStatus:
    case ServerEvent.usageUpdated:
    case ServerEvent.uploadProgress:
    case ServerEvent.authRevoked: // the session's, handled by lib/socket.ts
      return state;
  }
}
