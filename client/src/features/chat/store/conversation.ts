import { create } from 'zustand';
import {
  MESSAGE_PAGE_SIZE,
  PERSONALITIES,
  routes,
  ServerEvent,
  type Message,
  type Personality,
  type PersonalityInfo,
} from '@alma/protocol';
import { ApiError, call } from '../../../lib/api.ts';
import { connectionStatus, useConnection, type AnyServerEvent } from '../../../lib/realtime.ts';
import { readString, StorageKey, writeString } from '../../../lib/storage.ts';
import { playSpeechChunk } from '../audio/speech.ts';
import { initialConversation, reduceConversation, type ConversationData } from '../model/conversation.ts';
import { fromServerMessage, mergeOlder, systemNote, type LocalMessage } from '../model/messages.ts';
import { pickTransport } from '../transport/pick.ts';
import { createSendActions, type SendActions } from './send.ts';

/**
 * The open conversation (spec §4): its messages and history pages, the reply being written, the
 * companion's emotion and gestures, and the personality it speaks with. Server events come in
 * through `handleEvent` (the chat's event hook, from either transport); sending lives in send.ts.
 */
export interface ConversationState extends ConversationData, SendActions {
  /** The personality of the open session (restored from it), else the user's last choice. */
  personality: Personality;
  /** Localized descriptions from GET /personalities, for the personality menu's search. */
  personalities: Partial<Record<Personality, PersonalityInfo>>;
  historyPage: number;
  hasMore: boolean;
  loadingHistory: boolean;

  reset: () => void;
  handleEvent: (event: AnyServerEvent) => void;
  /**
   * Opens a session (null: none): its latest page of messages and its stored context; it speaks
   * with the session's own personality when given (a session opened on a new device keeps it).
   */
  open: (sessionId: string | null, personality?: Personality) => Promise<void>;
  loadOlder: () => Promise<void>;
  dismissLimit: () => void;
  /**
   * Spec §4 Personality change (after the menu's confirmation): online, POST /personality and the
   * server's system message confirms it; offline (or when the server cannot be reached), it is
   * applied locally with the offline variant of the message.
   */
  changePersonality: (personality: Personality) => Promise<void>;
  loadPersonalities: () => Promise<void>;
}

/** The user's last chosen personality (spec §3 `personality`): for conversations not started yet. */
export function storedPersonality(): Personality {
  const value = readString(StorageKey.personality);
  return (PERSONALITIES as readonly string[]).includes(value ?? '') ? (value as Personality) : 'default';
}

const initialHistory = { historyPage: 0, hasMore: false, loadingHistory: false };

const acknowledged = new Set<(message: Message) => void>();

/** Hears every user message the server acknowledged from this tab (text or voice, either transport). */
export function onAcknowledged(listener: (message: Message) => void): () => void {
  acknowledged.add(listener);
  return () => acknowledged.delete(listener);
}

export const useConversation = create<ConversationState>()((set, get) => ({
  ...initialConversation,
  ...initialHistory,
  personality: storedPersonality(),
  personalities: {},
  ...createSendActions(set, get, (message) => acknowledged.forEach((listener) => listener(message))),

  reset: () => {
    releaseKeptNotes(get().messages);
    set({ ...initialConversation, ...initialHistory, personality: storedPersonality() });
  },

  handleEvent: (event) => {
    const before = get();
    const next = reduceConversation(before, event);
    // A personality changed elsewhere (another tab, another device) is announced by its system
    // message (SPEC.md C-14): this tab follows it.
    if (event.name === ServerEvent.chatMessage) {
      const { message } = event.payload;
      if (message.role === 'system' && message.personality && message.sessionId === before.activeSessionId)
        set({ personality: message.personality });
    }
    if (next === before) return;
    set(next);
    // Speech of a reply this tab shows is played unless muted (spec §4 Message send).
    if (event.name === ServerEvent.speechChunk) playSpeechChunk(event.payload);
  },

  open: async (sessionId, personality) => {
    writeString(StorageKey.sessions, sessionId);
    releaseKeptNotes(get().messages);
    set({
      activeSessionId: sessionId,
      messages: [],
      streams: {},
      emotion: null,
      gesture: null,
      intent: null,
      context: null,
      historyPage: 0,
      hasMore: false,
      loadingHistory: sessionId !== null,
      ...(personality ? { personality } : {}),
    });
    if (sessionId === null) return;
    pickTransport().watch(sessionId);
    // The context panel shows the stored context before any new reply arrives (SPEC.md C-11).
    void call(routes.chat.sessionContext, { params: { id: sessionId } })
      .then((context) => {
        if (get().activeSessionId === sessionId && get().context === null) set({ context });
      })
      .catch(() => undefined);
    await loadPage(sessionId, 1);
  },

  loadOlder: async () => {
    const { activeSessionId: sessionId, hasMore, loadingHistory, historyPage } = get();
    if (!sessionId || !hasMore || loadingHistory) return;
    set({ loadingHistory: true });
    await loadPage(sessionId, historyPage + 1);
  },

  dismissLimit: () => set({ limit: null }),

  changePersonality: async (personality) => {
    const state = get();
    if (personality === state.personality) return;
    writeString(StorageKey.personality, personality);
    set({ personality });
    const sessionId = state.activeSessionId;
    let offline = connectionStatus(useConnection.getState()) === 'offline';
    if (!offline && sessionId) {
      try {
        const { message } = await call(routes.chat.changePersonality, { body: { sessionId, personality } });
        // The same message may already have come as `chat:message` (SPEC.md C-14).
        set((s) => ({
          messages:
            s.activeSessionId !== sessionId || s.messages.some((m) => m.id === message._id)
              ? s.messages
              : [...s.messages, fromServerMessage(message)],
        }));
        return;
      } catch (error) {
        // Unreachable server: apply it here, as offline. A refusal (e.g. the session is gone)
        // still changes the personality for the next messages.
        offline = !(error instanceof ApiError) || error.isNetworkError;
      }
    }
    set((s) => ({
      messages: [
        ...s.messages,
        systemNote(offline ? 'chat.personalityChangedOffline' : 'chat.personalityChanged', { personality }),
      ],
    }));
  },

  loadPersonalities: async () => {
    try {
      const { personalities } = await call(routes.chat.listPersonalities, {});
      set({ personalities });
    } catch {
      // The menu falls back to the interface's own names.
    }
  },
}));

/** Kept voice notes play from object URLs: let the browser free them once they are off screen. */
function releaseKeptNotes(messages: LocalMessage[]): void {
  for (const m of messages) if (m.keptNote) URL.revokeObjectURL(m.keptNote.url);
}

/** Page `page` of a session's history (1: the latest), merged before what is shown (C-6). */
async function loadPage(sessionId: string, page: number): Promise<void> {
  const { getState, setState } = useConversation;
  try {
    const result = await call(routes.chat.listMessages, {
      query: { sessionId, page, pageSize: MESSAGE_PAGE_SIZE },
    });
    if (getState().activeSessionId !== sessionId) return;
    setState((s) => ({
      // Anything that arrived while loading (a reply, another tab) stays after the history.
      messages: mergeOlder(result.items.map(fromServerMessage), s.messages),
      historyPage: result.page,
      hasMore: result.hasMore,
      loadingHistory: false,
    }));
  } catch {
    if (getState().activeSessionId === sessionId) setState({ loadingHistory: false });
  }
}
