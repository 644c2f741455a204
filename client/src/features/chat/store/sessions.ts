import { create } from 'zustand';
import { routes, ServerEvent } from '@alma/protocol';
import { ApiError, call, download } from '../../../lib/api.ts';
import { i18n } from '../../../lib/i18n.ts';
import type { AnyServerEvent } from '../../../lib/realtime.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { readString, StorageKey, writeString } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import {
  countMessage,
  initialSessions,
  loaded,
  reduceSessions,
  type SessionsData,
} from '../model/sessions.ts';
import { onAcknowledged, useConversation } from './conversation.ts';

/**
 * The user's sessions (spec §4 Sessions) over REST, kept live by events (model/sessions.ts), and
 * which one the conversation shows: selecting opens it with its own personality.
 */
export interface SessionsState extends SessionsData {
  loaded: boolean;
  reset: () => void;
  handleEvent: (event: AnyServerEvent) => void;
  /** Lists the sessions; with none open, opens the remembered one, else the newest. Silent on failure. */
  load: () => Promise<void>;
  /** The sidebar's refresh: like load, but a failure says so in a toast. */
  refresh: () => Promise<void>;
  select: (sessionId: string | null) => Promise<void>;
  create: (title?: string) => Promise<void>;
  rename: (sessionId: string, title: string) => Promise<void>;
  remove: (sessionId: string) => Promise<void>;
  exportSession: (sessionId: string) => Promise<boolean>;
  autoTitle: (sessionId: string) => Promise<string | null>;
  /**
   * The options menu's "clear history": starts a new, empty conversation and forgets the local
   * message cache; earlier conversations stay in the list (they are deleted there).
   */
  clearHistory: () => Promise<void>;
}

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

const conversation = () => useConversation.getState();

export const useSessions = create<SessionsState>()((set, get) => ({
  ...initialSessions,
  loaded: false,

  reset: () => set({ ...initialSessions, loaded: false }),

  handleEvent: (event) => {
    const before = get();
    const next = reduceSessions(before, event);
    if (next !== before) set(next);
    // Deleting the open session (here or elsewhere) opens the first one left, or none (spec §4).
    if (
      event.name === ServerEvent.sessionUpdated &&
      event.payload.kind === 'deleted' &&
      conversation().activeSessionId === event.payload.sessionId
    ) {
      void get().select(next.sessions[0]?.sessionId ?? null);
    }
  },

  load: async () => {
    try {
      const { sessions } = await call(routes.chat.listSessions, {});
      set((s) => ({ ...loaded(s, sessions), loaded: true }));
      const active = conversation().activeSessionId;
      if (active === null || !sessions.some((s) => s.sessionId === active)) {
        // With none active the remembered one, else the first, is selected (spec §4 Sessions).
        const remembered = readString(StorageKey.sessions);
        const pick = sessions.find((s) => s.sessionId === remembered) ?? sessions[0];
        if (pick && !conversation().pending) await get().select(pick.sessionId);
      }
    } catch {
      // Session operation failures are ignored silently (spec §4).
      set({ loaded: true });
    }
  },

  refresh: async () => {
    try {
      const { sessions } = await call(routes.chat.listSessions, {});
      set((s) => ({ ...loaded(s, sessions), loaded: true }));
      if (conversation().activeSessionId === null && sessions[0] && !conversation().pending) {
        await get().select(sessions[0].sessionId);
      }
    } catch (error) {
      sessionError(error, 'chat.errors.list');
    }
  },

  select: (sessionId) => {
    const session = get().sessions.find((s) => s.sessionId === sessionId);
    return conversation().open(sessionId, session?.personality);
  },

  create: async (title) => {
    try {
      const trimmed = title?.trim();
      const created = await call(routes.chat.createSession, { body: trimmed ? { title: trimmed } : {} });
      // A new conversation goes on with the personality in use; its first message tells the server.
      const session = { ...created.session, personality: conversation().personality };
      set((s) => ({ sessions: [session, ...s.sessions.filter((x) => x.sessionId !== session.sessionId)] }));
      await conversation().open(session.sessionId);
    } catch (error) {
      // Nothing changes (spec §4); the §8 text says why.
      sessionError(error, 'chat.errors.create');
    }
  },

  rename: async (sessionId, title) => {
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

  remove: async (sessionId) => {
    try {
      await call(routes.chat.deleteSession, { params: { id: sessionId } });
    } catch (error) {
      sessionError(error, 'chat.errors.delete');
      return;
    }
    const sessions = get().sessions.filter((s) => s.sessionId !== sessionId);
    set({ sessions });
    // Deleting selects the first remaining session or none (spec §4).
    if (conversation().activeSessionId === sessionId) await get().select(sessions[0]?.sessionId ?? null);
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
    await get().create();
  },
}));

// The conversation tells the list what changed there: a message stored in a session counts at once
// (its reply counts when it comes); a session made by a send that the list does not know yet is
// fetched (over the socket `session:updated` announces it, over REST nothing does); a personality
// chosen for the open session is the session's from now on.
onAcknowledged((message) => {
  useSessions.setState((s) => countMessage(s, message.sessionId, message._id, message.createdAt));
});
useConversation.subscribe((state, previous) => {
  const sessions = useSessions.getState();
  const id = state.activeSessionId;
  if (id !== previous.activeSessionId && id !== null && sessions.loaded) {
    if (!sessions.sessions.some((s) => s.sessionId === id)) void sessions.load();
  }
  if (state.personality !== previous.personality && id !== null) {
    useSessions.setState((s) => ({
      sessions: s.sessions.map((x) => (x.sessionId === id ? { ...x, personality: state.personality } : x)),
    }));
  }
});
