import { create } from 'zustand';
import {
  MESSAGE_PAGE_SIZE,
  PERSONALITIES,
  routes,
  type Ack,
  type ClientEvent,
  type ClientPayload,
  type ClientResult,
  type ErrorBody,
  type Personality,
  type PersonalityInfo,
  type ServerPayload,
  ServerEvent,
} from '@alma/protocol';
import { ApiError, call, download } from '../../lib/api.ts';
import { currentLanguage, i18n } from '../../lib/i18n.ts';
import { saveFile } from '../../lib/save-file.ts';
import { readString, StorageKey, writeString } from '../../lib/storage.ts';
import { toast } from '../../lib/toast.ts';
import type { StopResult } from './audio/queue.ts';
import { playSpeechChunk, speechQueue, stopSpeech } from './audio/speech.ts';
import {
  errorMessage,
  fromServerMessage,
  initialChatData,
  localMessageId,
  reduceServerEvent,
  type ChatData,
  type ChatServerEvent,
  type LocalMessage,
  type VoiceNoteInput,
} from './events.ts';
import { startSimulatedProgress } from './recording/progress.ts';
import { postVoiceNote, voiceRoute, type VoiceNoteReply } from './recording/voice-rest.ts';

/** How the chat reaches the server in real time; the socket hook provides it. */
export interface ChatTransport {
  isConnected: () => boolean;
  send: (
    payload: ClientPayload<typeof ClientEvent.chatSend>,
  ) => Promise<Ack<ClientResult<typeof ClientEvent.chatSend>>>;
  /** `chat:voice` (SPEC.md V-1); acked like chat:send. */
  voice?: (
    payload: ClientPayload<typeof ClientEvent.chatVoice>,
  ) => Promise<Ack<ClientResult<typeof ClientEvent.chatVoice>>>;
  watch: (sessionId: string) => void;
  /** `chat:cancel` (SPEC.md C-7, S-2); resolves when the server has ended the reply. */
  cancel: (payload: ClientPayload<typeof ClientEvent.chatCancel>) => Promise<unknown>;
}

export type HealthState = 'checking' | 'online' | 'offline' | 'unknown';
export type SocketState = 'idle' | 'connecting' | 'connected' | 'disconnected';
/** Spec §4 "Server status": checking is shown as Connecting. */
export type ConnectionStatus = 'checking' | 'online' | 'offline' | 'unknown';

export interface ChatState extends ChatData {
  personality: Personality;
  health: HealthState;
  socketState: SocketState;
  serverInfo: ServerPayload<typeof ServerEvent.serverStatus> | null;
  protocolMismatch: boolean;
  historyPage: number;
  hasMore: boolean;
  loadingHistory: boolean;
  sessionsLoaded: boolean;

  setTransport: (transport: ChatTransport | null) => void;
  reset: () => void;
  handleServerEvent: (event: ChatServerEvent) => void;
  setHealth: (health: HealthState) => void;
  setSocketState: (state: SocketState) => void;
  setProtocolMismatch: () => void;
  /** Localized descriptions from GET /personalities, for the personality menu's search. */
  personalities: Partial<Record<Personality, PersonalityInfo>>;
  loadSessions: () => Promise<void>;
  /** The sidebar's refresh: like loadSessions, but a failure says so in a toast. */
  refreshSessions: () => Promise<void>;
  selectSession: (sessionId: string | null) => Promise<void>;
  createSession: (title?: string) => Promise<void>;
  renameSession: (sessionId: string, title: string) => Promise<void>;
  deleteSession: (sessionId: string) => Promise<void>;
  loadOlder: () => Promise<void>;
  send: (text: string) => Promise<boolean>;
  /**
   * Spec §4 Voice note: barges in like a send, shows a placeholder with transcription progress,
   * sends `chat:voice`; the ack's stored message replaces the placeholder, then the reply streams.
   */
  sendVoiceNote: (note: VoiceNoteInput) => Promise<boolean>;
  /** Barge-in without a send (a recording starts): stops speech and cancels a reply being written. */
  interrupt: () => Promise<void>;
  retry: (errorMessageId: string) => Promise<void>;
  dismissLimit: () => void;
  /**
   * Spec §4 Personality change (after the menu's confirmation): online, POST /personality and the
   * server's system message confirms it; offline (or when the server cannot be reached), it is
   * applied locally with the offline variant of the message.
   */
  changePersonality: (personality: Personality) => Promise<void>;
  loadPersonalities: () => Promise<void>;
  exportSession: (sessionId: string) => Promise<boolean>;
  autoTitle: (sessionId: string) => Promise<string | null>;
  /**
   * The options menu's "clear history": starts a new, empty conversation and forgets the local
   * message cache; earlier conversations stay in the list (they are deleted there).
   */
  clearHistory: () => Promise<void>;
}

let transport: ChatTransport | null = null;

function storedPersonality(): Personality {
  const value = readString(StorageKey.personality);
  return (PERSONALITIES as readonly string[]).includes(value ?? '') ? (value as Personality) : 'default';
}

const initialConnection = {
  health: 'checking' as HealthState,
  socketState: 'idle' as SocketState,
  serverInfo: null,
  protocolMismatch: false,
  historyPage: 0,
  hasMore: false,
  loadingHistory: false,
  sessionsLoaded: false,
};

/** Spec §8 Sessions: the server's message, else the default text of the operation. */
type SessionErrorKey =
  | 'chat.errors.list'
  | 'chat.errors.create'
  | 'chat.errors.rename'
  | 'chat.errors.delete'
  | 'chat.errors.export'
  | 'chat.errors.autoTitle';

function sessionError(error: unknown, key: SessionErrorKey): void {
  const message = error instanceof ApiError && error.displayMessage ? error.displayMessage : i18n.t(key);
  toast(message, 'error');
}

function systemNote(
  contentKey: LocalMessage['contentKey'],
  contentParams?: Record<string, string>,
): LocalMessage {
  return {
    id: `system:${crypto.randomUUID()}`,
    type: 'system',
    content: '',
    contentKey,
    contentParams,
    timestamp: new Date().toISOString(),
  };
}

export function connectionStatus(
  state: Pick<ChatState, 'health' | 'socketState' | 'serverInfo'>,
): ConnectionStatus {
  if (state.socketState === 'connected')
    return state.serverInfo?.status === 'maintenance' ? 'offline' : 'online';
  if (state.health === 'offline') return 'offline';
  if (state.health === 'unknown') return 'unknown';
  if (state.health === 'online') return state.socketState === 'connecting' ? 'checking' : 'online';
  return 'checking';
}

function mergeOlder(older: LocalMessage[], current: LocalMessage[]): LocalMessage[] {
  const known = new Set(current.map((m) => m.id));
  return [...older.filter((m) => !known.has(m.id)), ...current];
}

export const useChat = create<ChatState>()((set, get) => {
  /** Sends (or re-sends, with the same clientMessageId) one user message and tracks its reply. */
  async function dispatch(clientMessageId: string, text: string, sessionId: string | null): Promise<void> {
    set({ pending: { clientMessageId, text, sessionId, replyId: null }, typing: true });
    const personality = get().personality;
    if (transport?.isConnected()) {
      const ack = await transport.send({
        clientMessageId,
        message: text,
        personality,
        ...(sessionId ? { sessionId } : {}),
      });
      if (!ack.ok) return fail(clientMessageId, text, sessionId, ack.error);
      applyAck(clientMessageId, ack.data);
      return;
    }
    // No socket: the REST route answers with the whole reply at once (ARCHITECTURE §2).
    try {
      const reply = await call(routes.chat.sendMessage, {
        body: { message: text, personality, clientMessageId, ...(sessionId ? { sessionId } : {}) },
      });
      const state = get();
      const bot: LocalMessage = {
        id: reply.messageId,
        type: 'bot',
        content: reply.reply,
        timestamp: new Date().toISOString(),
        emotion: reply.emotion,
        personality: reply.personality,
        isComplete: reply.isComplete,
      };
      set({
        messages: [
          ...state.messages.map((m) =>
            m.id === localMessageId(clientMessageId) ? { ...m, id: reply.userMessageId, sending: false } : m,
          ),
          bot,
        ],
        pending: null,
        typing: false,
        emotion: reply.emotion,
        activeSessionId: state.activeSessionId ?? reply.sessionId,
      });
      if (!state.sessions.some((s) => s.sessionId === reply.sessionId)) void get().loadSessions();
    } catch (error) {
      if (error instanceof ApiError) {
        return fail(clientMessageId, text, sessionId, {
          code:
            error.code === 'network_error' || error.code === 'timeout'
              ? 'unavailable'
              : error.code === 'invalid_response'
                ? 'server_error'
                : error.code,
          message: error.displayMessage,
        });
      }
      return fail(clientMessageId, text, sessionId, { code: 'server_error', message: '' });
    }
  }

  /** An acknowledged send (text or voice): the stored message replaces the local one. */
  function applyAck(clientMessageId: string, data: ClientResult<typeof ClientEvent.chatSend>): void {
    const { message, sessionId: ackSession, replyId } = data;
    const state = get();
    set({
      messages: state.messages.map((m) =>
        m.id === localMessageId(clientMessageId) ? { ...fromServerMessage(message), sending: false } : m,
      ),
      // The reply may already be final if events outran this continuation.
      pending:
        state.pending?.clientMessageId === clientMessageId
          ? { ...state.pending, sessionId: ackSession, replyId }
          : state.pending,
    });
    if (state.activeSessionId === null) {
      set({ activeSessionId: ackSession });
      writeString(StorageKey.sessions, ackSession);
      transport?.watch(ackSession);
    }
    if (!get().sessions.some((s) => s.sessionId === ackSession)) void get().loadSessions();
  }

  /** Sends (or re-sends, same clientMessageId) a voice note; progress shows until the ack. */
  async function dispatchVoice(
    clientMessageId: string,
    note: VoiceNoteInput,
    sessionId: string | null,
  ): Promise<void> {
    set({ pending: { clientMessageId, text: '', sessionId, replyId: null } });
    const id = localMessageId(clientMessageId);
    // Spec §4: the simulated rise until the server's own progress arrives (SPEC.md V-4).
    const stopSimulation = startSimulatedProgress(
      () => {
        const m = get().messages.find((x) => x.id === id);
        return m?.voiceNote && !m.voiceNote.real ? m.voiceNote.progress : null;
      },
      (progress) =>
        set((s) => ({
          messages: s.messages.map((m) =>
            m.id === id && m.voiceNote && !m.voiceNote.real
              ? { ...m, voiceNote: { progress, real: false } }
              : m,
          ),
        })),
    );
    try {
      // No socket: POST /message-audio answers with the whole reply (SPEC.md V-1).
      if (voiceRoute(transport) === 'rest' || !transport?.voice) {
        return await dispatchVoiceRest(clientMessageId, note, sessionId);
      }
      const audio = await note.audio.arrayBuffer();
      const ack = await transport.voice({
        clientMessageId,
        audio,
        mimeType: note.mimeType,
        durationMs: Math.max(0, Math.round(note.durationMs)),
        personality: get().personality,
        language: currentLanguage(),
        ...(note.transcriptHint ? { transcriptHint: note.transcriptHint } : {}),
        ...(sessionId ? { sessionId } : {}),
      });
      if (!ack.ok) return failVoice(clientMessageId, note, sessionId, ack.error);
      applyAck(clientMessageId, ack.data);
    } finally {
      stopSimulation();
    }
  }

  /** A voice note over `POST /message-audio`: the stored note replaces the placeholder, the reply follows. */
  async function dispatchVoiceRest(
    clientMessageId: string,
    note: VoiceNoteInput,
    sessionId: string | null,
  ): Promise<void> {
    let reply: VoiceNoteReply;
    try {
      reply = await postVoiceNote({
        clientMessageId,
        note,
        personality: get().personality,
        sessionId,
        language: currentLanguage(),
      });
    } catch (error) {
      if (!(error instanceof ApiError)) {
        return failVoice(clientMessageId, note, sessionId, { code: 'server_error', message: '' });
      }
      const code =
        error.code === 'network_error' || error.code === 'timeout'
          ? 'unavailable'
          : error.code === 'invalid_response'
            ? 'server_error'
            : error.code;
      return failVoice(clientMessageId, note, sessionId, {
        code,
        message: code === 'unavailable' ? '' : error.displayMessage,
      });
    }
    const state = get();
    const bot: LocalMessage = {
      id: reply.messageId,
      type: 'bot',
      content: reply.reply,
      timestamp: new Date().toISOString(),
      emotion: reply.emotion,
      personality: reply.personality,
      isComplete: reply.isComplete,
    };
    set({
      messages: [
        ...state.messages.map((m) =>
          m.id === localMessageId(clientMessageId)
            ? { ...fromServerMessage(reply.userMessage), sending: false }
            : m,
        ),
        ...(state.messages.some((m) => m.id === bot.id) ? [] : [bot]),
      ],
      pending: null,
      typing: false,
      emotion: reply.emotion,
      activeSessionId: state.activeSessionId ?? reply.sessionId,
    });
    if (!state.sessions.some((s) => s.sessionId === reply.sessionId)) void get().loadSessions();
  }

  /** A refused voice note: nothing was stored (V-3), so the placeholder goes; the error can retry. */
  function failVoice(
    clientMessageId: string,
    note: VoiceNoteInput,
    sessionId: string | null,
    error: ErrorBody,
  ) {
    const state = get();
    const limited = error.code === 'limit_reached';
    const failure: LocalMessage = {
      ...errorMessage(
        error.message,
        limited ? undefined : { clientMessageId, text: '', sessionId, voice: note },
        error.message ? undefined : 'voiceNote.processingError',
      ),
      voiceError: true,
    };
    set({
      pending: null,
      typing: false,
      messages: [...state.messages.filter((m) => m.id !== localMessageId(clientMessageId)), failure],
      limit: limited ? { message: error.message } : state.limit,
    });
  }

  function voicePlaceholder(clientMessageId: string): LocalMessage {
    return {
      id: localMessageId(clientMessageId),
      type: 'user',
      content: '',
      contentKey: 'voiceNote.placeholder',
      timestamp: new Date().toISOString(),
      clientMessageId,
      sending: true,
      voiceNote: { progress: 0, real: false },
    };
  }

  /**
   * Barge-in (SPEC.md S-2): a new send stops the speech at once (in `send`); a reply still being
   * written is cancelled with how much of it was heard, and the send waits for that reply to end.
   * False when the pending reply cannot be cancelled (not acknowledged yet, or no socket).
   */
  async function cancelPending(stopped: StopResult | null): Promise<boolean> {
    const pending = get().pending;
    if (!pending) return true;
    if (!pending.replyId || !transport?.isConnected()) return false;
    const replyId = pending.replyId;
    await transport.cancel({
      replyId,
      ...(stopped?.replyId === replyId ? { heardUntilMs: stopped.heardUntilMs } : {}),
    });
    // The cancel is acked after the reply's last event (C-7); settle it if that went missing.
    if (get().pending?.replyId === replyId) set({ pending: null, typing: false });
    return true;
  }

  function fail(clientMessageId: string, text: string, sessionId: string | null, error: ErrorBody): void {
    const state = get();
    const limited = error.code === 'limit_reached';
    set({
      pending: null,
      typing: false,
      messages: [
        ...state.messages.map((m) =>
          m.id === localMessageId(clientMessageId) ? { ...m, sending: false } : m,
        ),
        errorMessage(
          error.message,
          limited ? undefined : { clientMessageId, text, sessionId },
          error.message ? undefined : 'chat.sendError',
        ),
      ],
      limit: limited ? { message: error.message } : state.limit,
    });
  }

  return {
    ...initialChatData,
    ...initialConnection,
    personality: storedPersonality(),
    personalities: {},

    setTransport: (next) => {
      transport = next;
    },

    reset: () => set({ ...initialChatData, ...initialConnection, personality: storedPersonality() }),

    handleServerEvent: (event) => {
      const before = get();
      if (event.name === ServerEvent.serverStatus) {
        set({ serverInfo: event.payload });
        return;
      }
      const next = reduceServerEvent(before, event);
      if (next === before) return;
      set(next);
      // Speech of a reply this tab shows is played unless muted (spec §4 Message send).
      if (event.name === ServerEvent.speechChunk) playSpeechChunk(event.payload);
      // A finished exchange changes the session's count and may title it: refresh the list.
      if (event.name === ServerEvent.chatReply) void get().loadSessions();
      if (next.activeSessionId !== before.activeSessionId && next.activeSessionId !== null) {
        void get().selectSession(next.activeSessionId);
      }
    },

    setHealth: (health) => set({ health }),
    setSocketState: (socketState) => set({ socketState }),
    setProtocolMismatch: () => set({ protocolMismatch: true }),

    loadSessions: async () => {
      try {
        const { sessions } = await call(routes.chat.listSessions, {});
        set({ sessions, sessionsLoaded: true });
        const active = get().activeSessionId;
        if (active === null || !sessions.some((s) => s.sessionId === active)) {
          // With none active the remembered one, else the first, is selected (spec §4 Sessions).
          const remembered = readString(StorageKey.sessions);
          const pick = sessions.find((s) => s.sessionId === remembered) ?? sessions[0];
          if (pick && !get().pending) await get().selectSession(pick.sessionId);
        }
      } catch {
        // Session operation failures are ignored silently (spec §4).
        set({ sessionsLoaded: true });
      }
    },

    refreshSessions: async () => {
      try {
        const { sessions } = await call(routes.chat.listSessions, {});
        set({ sessions, sessionsLoaded: true });
        if (get().activeSessionId === null && sessions[0] && !get().pending) {
          await get().selectSession(sessions[0].sessionId);
        }
      } catch (error) {
        sessionError(error, 'chat.errors.list');
      }
    },

    selectSession: async (sessionId) => {
      writeString(StorageKey.sessions, sessionId);
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
      });
      if (sessionId === null) return;
      transport?.watch(sessionId);
      // The context panel shows the stored context before any new reply arrives (SPEC.md C-11).
      void call(routes.chat.sessionContext, { params: { id: sessionId } })
        .then((context) => {
          if (get().activeSessionId === sessionId && get().context === null) set({ context });
        })
        .catch(() => undefined);
      try {
        const page = await call(routes.chat.listMessages, {
          query: { sessionId, page: 1, pageSize: MESSAGE_PAGE_SIZE },
        });
        if (get().activeSessionId !== sessionId) return;
        set((s) => ({
          // Anything that arrived while loading (a reply, another tab) stays after the history.
          messages: mergeOlder(page.items.map(fromServerMessage), s.messages),
          historyPage: 1,
          hasMore: page.hasMore,
          loadingHistory: false,
        }));
      } catch {
        if (get().activeSessionId === sessionId) set({ loadingHistory: false });
      }
    },

    loadOlder: async () => {
      const { activeSessionId: sessionId, hasMore, loadingHistory, historyPage } = get();
      if (!sessionId || !hasMore || loadingHistory) return;
      set({ loadingHistory: true });
      try {
        const page = await call(routes.chat.listMessages, {
          query: { sessionId, page: historyPage + 1, pageSize: MESSAGE_PAGE_SIZE },
        });
        if (get().activeSessionId !== sessionId) return;
        set((s) => ({
          messages: mergeOlder(page.items.map(fromServerMessage), s.messages),
          historyPage: page.page,
          hasMore: page.hasMore,
          loadingHistory: false,
        }));
      } catch {
        if (get().activeSessionId === sessionId) set({ loadingHistory: false });
      }
    },

    createSession: async (title) => {
      try {
        const trimmed = title?.trim();
        const { session } = await call(routes.chat.createSession, {
          body: trimmed ? { title: trimmed } : {},
        });
        set((s) => ({
          sessions: [session, ...s.sessions.filter((x) => x.sessionId !== session.sessionId)],
        }));
        await get().selectSession(session.sessionId);
      } catch (error) {
        // Nothing changes (spec §4); the §8 text says why.
        sessionError(error, 'chat.errors.create');
      }
    },

    renameSession: async (sessionId, title) => {
      try {
        const { session } = await call(routes.chat.renameSession, {
          params: { id: sessionId },
          body: { title },
        });
        set((s) => ({ sessions: s.sessions.map((x) => (x.sessionId === sessionId ? session : x)) }));
      } catch (error) {
        sessionError(error, 'chat.errors.rename');
      }
    },

    deleteSession: async (sessionId) => {
      try {
        await call(routes.chat.deleteSession, { params: { id: sessionId } });
      } catch (error) {
        sessionError(error, 'chat.errors.delete');
        return;
      }
      const sessions = get().sessions.filter((s) => s.sessionId !== sessionId);
      set({ sessions });
      // Deleting selects the first remaining session or none (spec §4).
      if (get().activeSessionId === sessionId) await get().selectSession(sessions[0]?.sessionId ?? null);
    },

    send: async (raw) => {
      const text = raw.trim();
      if (!text) return false;
      // Unlock audio within the user's gesture (autoplay policy), then barge in on what plays.
      speechQueue.unlock();
      const stopped = stopSpeech();
      if (get().pending && !(await cancelPending(stopped))) return false;
      const state = get();
      if (state.pending) return false;
      if (connectionStatus(state) === 'offline') {
        set({
          messages: [
            ...state.messages,
            {
              id: `system:${crypto.randomUUID()}`,
              type: 'system',
              content: '',
              contentKey: 'chat.serverUnavailable',
              timestamp: new Date().toISOString(),
            },
          ],
        });
        return false;
      }
      const clientMessageId = crypto.randomUUID();
      set({
        messages: [
          ...state.messages,
          {
            id: localMessageId(clientMessageId),
            type: 'user',
            content: text,
            timestamp: new Date().toISOString(),
            clientMessageId,
            sending: true,
          },
        ],
      });
      await dispatch(clientMessageId, text, state.activeSessionId);
      return true;
    },

    interrupt: async () => {
      speechQueue.unlock();
      const stopped = stopSpeech();
      if (get().pending) await cancelPending(stopped);
    },

    sendVoiceNote: async (note) => {
      speechQueue.unlock();
      const stopped = stopSpeech();
      if (get().pending && !(await cancelPending(stopped))) return false;
      const state = get();
      if (state.pending) return false;
      if (connectionStatus(state) === 'offline') {
        set({ messages: [...state.messages, systemNote('chat.serverUnavailable')] });
        return false;
      }
      const clientMessageId = crypto.randomUUID();
      set({ messages: [...state.messages, voicePlaceholder(clientMessageId)] });
      await dispatchVoice(clientMessageId, note, state.activeSessionId);
      return true;
    },

    retry: async (errorMessageId) => {
      const state = get();
      const failed = state.messages.find((m) => m.id === errorMessageId);
      if (!failed?.retry || state.pending) return;
      const { clientMessageId, text, sessionId, voice } = failed.retry;
      if (voice) {
        set({
          messages: [
            ...state.messages.filter((m) => m.id !== errorMessageId),
            voicePlaceholder(clientMessageId),
          ],
        });
        await dispatchVoice(clientMessageId, voice, sessionId ?? get().activeSessionId);
        return;
      }
      set({ messages: state.messages.filter((m) => m.id !== errorMessageId) });
      await dispatch(clientMessageId, text, sessionId ?? get().activeSessionId);
    },

    dismissLimit: () => set({ limit: null }),

    changePersonality: async (personality) => {
      const state = get();
      if (personality === state.personality) return;
      writeString(StorageKey.personality, personality);
      set({ personality });
      const sessionId = state.activeSessionId;
      let offline = connectionStatus(state) === 'offline';
      if (!offline && sessionId) {
        try {
          const { message } = await call(routes.chat.changePersonality, { body: { sessionId, personality } });
          // The same message may already have come as `chat:message` (SPEC.md C-14).
          set((s) => ({
            messages:
              s.activeSessionId !== sessionId || s.messages.some((m) => m.id === message._id)
                ? s.messages
                : [...s.messages, fromServerMessage(message)],
            sessions: s.sessions.map((x) => (x.sessionId === sessionId ? { ...x, personality } : x)),
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

    exportSession: async (sessionId) => {
      try {
        const { blob, filename } = await download(routes.chat.exportSession, { params: { id: sessionId } });
        // Spec §2: the JSON file is named after the session id.
        saveFile(blob, filename ?? `${sessionId}.json`);
        toast(i18n.t('chat.exported'), 'success');
        return true;
      } catch (error) {
        sessionError(error, 'chat.errors.export');
        return false;
      }
    },

    autoTitle: async (sessionId) => {
      try {
        const { title } = await call(routes.chat.autoTitle, { params: { id: sessionId } });
        return title;
      } catch (error) {
        sessionError(error, 'chat.errors.autoTitle');
        return null;
      }
    },

    clearHistory: async () => {
      writeString(StorageKey.chatHistory, null);
      await get().createSession();
    },
  };
});
