import type { ClientEvent, ClientResult, ErrorBody, Message, Personality } from '@alma/protocol';
import { currentLanguage } from '../../../lib/i18n.ts';
import { usePreferences } from '../../../lib/preferences.ts';
import { connectionStatus, useConnection } from '../../../lib/realtime.ts';
import { useSession } from '../../../lib/session.ts';
import { StorageKey, writeString } from '../../../lib/storage.ts';
import type { StopResult } from '../audio/queue.ts';
import { speechQueue, stopSpeech } from '../audio/speech.ts';
import type { ConversationData } from '../model/conversation.ts';
import {
  errorMessage,
  fromServerMessage,
  localMessageId,
  optimisticText,
  systemNote,
  voicePlaceholder,
  type LocalMessage,
  type VoiceNoteInput,
} from '../model/messages.ts';
import { startSimulatedProgress } from '../recording/progress.ts';
import { pickTransport } from '../transport/pick.ts';

/** Sending: text and voice notes over whichever transport is up, retries, and barge-in. */
export interface SendActions {
  /** Sends a text message; false when it was not sent (empty, busy, offline). */
  send: (text: string) => Promise<boolean>;
  /**
   * Spec §4 Voice note: barges in like a send, shows a placeholder with transcription progress,
   * sends it; the ack's stored message replaces the placeholder, then the reply streams.
   */
  sendVoiceNote: (note: VoiceNoteInput) => Promise<boolean>;
  /** Barge-in without a send (a recording starts): stops speech and cancels a reply being written. */
  interrupt: () => Promise<void>;
  retry: (errorMessageId: string) => Promise<void>;
}

type State = ConversationData & { personality: Personality };
type Set = (patch: Partial<ConversationData> | ((s: ConversationData) => Partial<ConversationData>)) => void;

/** The avatar on screen, sent with every message so the export can replay it (SPEC.md C-13). */
function currentAvatarId(): string | undefined {
  const userId = useSession.getState().user?.id;
  return (userId ? usePreferences.getState().get(userId).avatar : null) ?? undefined;
}

const isOffline = () => connectionStatus(useConnection.getState()) === 'offline';

export function createSendActions(
  set: Set,
  get: () => State,
  onAcknowledged: (message: Message) => void,
): SendActions {
  /** Sends (or re-sends, with the same clientMessageId) one user message and tracks its reply. */
  async function dispatch(clientMessageId: string, text: string, sessionId: string | null): Promise<void> {
    set({ pending: { clientMessageId, text, sessionId, replyId: null }, typing: true });
    const avatarId = currentAvatarId();
    const ack = await pickTransport().send({
      clientMessageId,
      message: text,
      personality: get().personality,
      ...(sessionId ? { sessionId } : {}),
      ...(avatarId ? { avatarId } : {}),
    });
    if (!ack.ok) return fail(clientMessageId, text, sessionId, ack.error);
    applyAck(clientMessageId, ack.data);
  }

  /** Sends (or re-sends, same clientMessageId) a voice note; progress shows until the ack. */
  async function dispatchVoice(clientMessageId: string, note: VoiceNoteInput, sessionId: string | null) {
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
    const avatarId = currentAvatarId();
    try {
      const ack = await pickTransport().voice({
        clientMessageId,
        audio: note.audio,
        mimeType: note.mimeType,
        durationMs: Math.max(0, Math.round(note.durationMs)),
        personality: get().personality,
        language: currentLanguage(),
        ...(note.transcriptHint ? { transcriptHint: note.transcriptHint } : {}),
        ...(sessionId ? { sessionId } : {}),
        ...(avatarId ? { avatarId } : {}),
      });
      if (!ack.ok) return failVoice(clientMessageId, note, sessionId, ack.error);
      applyAck(clientMessageId, ack.data);
    } finally {
      stopSimulation();
    }
  }

  /** An acknowledged send (text or voice, either transport): the stored message replaces the local one. */
  function applyAck(clientMessageId: string, data: ClientResult<typeof ClientEvent.chatSend>): void {
    const { message, sessionId: ackSession, replyId } = data;
    const state = get();
    const localId = localMessageId(clientMessageId);
    set({
      messages: state.messages.map((m) =>
        m.id === localId
          ? {
              ...fromServerMessage(message),
              sending: false,
              ...(m.transcribedBy ? { transcribedBy: m.transcribedBy } : {}),
            }
          : m,
      ),
      // The reply may already be final if events outran this continuation.
      ...(state.pending?.clientMessageId === clientMessageId
        ? { pending: { ...state.pending, sessionId: ackSession, replyId }, typing: true }
        : {}),
    });
    if (!data.duplicate) onAcknowledged(message);
    if (state.activeSessionId === null) {
      set({ activeSessionId: ackSession });
      writeString(StorageKey.sessions, ackSession);
      pickTransport().watch(ackSession);
    }
  }

  function fail(clientMessageId: string, text: string, sessionId: string | null, error: ErrorBody): void {
    const limited = error.code === 'limit_reached';
    set((s) => ({
      pending: null,
      typing: false,
      messages: [
        ...s.messages.map((m) => (m.id === localMessageId(clientMessageId) ? { ...m, sending: false } : m)),
        errorMessage(
          error.message,
          limited ? undefined : { clientMessageId, text, sessionId },
          error.message ? undefined : 'chat.sendError',
        ),
      ],
      limit: limited ? { message: error.message } : s.limit,
    }));
  }

  /**
   * A refused voice note: nothing was stored (V-3). When no transcript could be had for its
   * language, the recording stays in the conversation, playable, with what happened; other
   * failures give the "Transcription Error" message, whose retry sends the same note again.
   */
  function failVoice(
    clientMessageId: string,
    note: VoiceNoteInput,
    sessionId: string | null,
    error: ErrorBody,
  ) {
    const localId = localMessageId(clientMessageId);
    if (error.code === 'transcription_not_configured') {
      set((s) => ({
        pending: null,
        typing: false,
        messages: s.messages.map((m) =>
          m.id === localId
            ? {
                ...m,
                sending: false,
                voiceNote: undefined,
                contentKey: 'voiceNote.notTranscribed',
                contentParams: { language: currentLanguage() },
                keptNote: { url: URL.createObjectURL(note.audio), note },
              }
            : m,
        ),
      }));
      return;
    }
    const limited = error.code === 'limit_reached';
    const message = error.code === 'unavailable' ? '' : error.message;
    const failure: LocalMessage = {
      ...errorMessage(
        message,
        limited ? undefined : { clientMessageId, text: '', sessionId, voice: note },
        message ? undefined : 'voiceNote.processingError',
      ),
      voiceError: true,
    };
    set((s) => ({
      pending: null,
      typing: false,
      messages: [...s.messages.filter((m) => m.id !== localId), failure],
      limit: limited ? { message: error.message } : s.limit,
    }));
  }

  /**
   * Barge-in (SPEC.md S-2): a new send stops the speech at once; a reply still being written is
   * cancelled with how much of it was heard, and the send waits for that reply to end. False when
   * the pending reply cannot be cancelled (not acknowledged yet, or sent over REST).
   */
  async function cancelPending(stopped: StopResult | null): Promise<boolean> {
    const pending = get().pending;
    if (!pending) return true;
    const transport = pickTransport();
    if (!pending.replyId || transport.kind === 'rest') return false;
    const replyId = pending.replyId;
    await transport.cancel({
      replyId,
      ...(stopped?.replyId === replyId ? { heardUntilMs: stopped.heardUntilMs } : {}),
    });
    // The cancel is acked after the reply's last event (C-7); settle it if that went missing.
    if (get().pending?.replyId === replyId) set({ pending: null, typing: false });
    return true;
  }

  /**
   * What every send does first: unlock audio (within the user's gesture), barge in on what plays
   * and on a reply being written, and refuse while offline with the local note (spec §4). Without
   * a reply to cancel it answers at once, so the message shows in the same tick as the gesture.
   */
  function prepare(): boolean | Promise<boolean> {
    speechQueue.unlock();
    const stopped = stopSpeech();
    if (!get().pending) return admit();
    return cancelPending(stopped).then((cancelled) => cancelled && !get().pending && admit());
  }

  function admit(): boolean {
    if (!isOffline()) return true;
    set((s) => ({ messages: [...s.messages, systemNote('chat.serverUnavailable')] }));
    return false;
  }

  return {
    send: async (raw) => {
      const text = raw.trim();
      if (!text) return false;
      const ready = prepare();
      if (ready !== true && !(await ready)) return false;
      const clientMessageId = crypto.randomUUID();
      set((s) => ({ messages: [...s.messages, optimisticText(clientMessageId, text)] }));
      await dispatch(clientMessageId, text, get().activeSessionId);
      return true;
    },

    sendVoiceNote: async (note) => {
      const ready = prepare();
      if (ready !== true && !(await ready)) return false;
      const clientMessageId = crypto.randomUUID();
      set((s) => ({ messages: [...s.messages, voicePlaceholder(clientMessageId, note)] }));
      await dispatchVoice(clientMessageId, note, get().activeSessionId);
      return true;
    },

    interrupt: async () => {
      speechQueue.unlock();
      const stopped = stopSpeech();
      if (get().pending) await cancelPending(stopped);
    },

    retry: async (errorMessageId) => {
      const state = get();
      const failed = state.messages.find((m) => m.id === errorMessageId);
      if (!failed?.retry || state.pending) return;
      const { clientMessageId, text, sessionId, voice } = failed.retry;
      const others = state.messages.filter((m) => m.id !== errorMessageId);
      if (voice) {
        set({ messages: [...others, voicePlaceholder(clientMessageId, voice)] });
        await dispatchVoice(clientMessageId, voice, sessionId ?? get().activeSessionId);
        return;
      }
      set({ messages: others });
      await dispatch(clientMessageId, text, sessionId ?? get().activeSessionId);
    },
  };
}
