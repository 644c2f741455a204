import type { Emotion, Message, Personality } from '@alma/protocol';

/** The chat's messages as the screen shows them (spec §3 "Message (local)"), and how they are made. */

/** i18n keys a local (not server-sent) message may carry instead of text. */
export type LocalTextKey =
  | 'chat.serverUnavailable'
  | 'chat.sendError'
  | 'chat.personalityChanged'
  | 'chat.personalityChangedOffline'
  | 'chat.replyStopped'
  | 'voiceNote.placeholder'
  | 'voiceNote.processingError'
  | 'voiceNote.notTranscribed';

/** Who turned a voice note into text, when it was not the server. */
export type NoteTranscriber = 'browser';

/** A recorded voice note to send (or send again on retry) over `chat:voice` (SPEC.md V-1). */
export interface VoiceNoteInput {
  audio: Blob;
  mimeType: string;
  durationMs: number;
  /** The browser's transcript (Web Speech API), when it made one (SPEC.md V-3). */
  transcriptHint?: string;
  /** Set when the browser's recognizer listened to the note (said on the message). */
  transcriber?: NoteTranscriber;
}

export interface LocalMessage {
  id: string;
  type: 'user' | 'bot' | 'system' | 'error';
  content: string;
  /** Shown through i18n instead of `content` (client-made messages follow the UI language). */
  contentKey?: LocalTextKey;
  contentParams?: Record<string, string>;
  timestamp: string;
  emotion?: Emotion | null;
  personality?: Personality | null;
  clientMessageId?: string | null;
  replyId?: string;
  /** A bot reply still arriving through `chat:delta`. */
  streaming?: boolean;
  /** A user message not yet acknowledged by the server. */
  sending?: boolean;
  /** False for a reply stopped before its end. */
  isComplete?: boolean;
  /**
   * The stored audio (`/audio/<file>`): a bot reply's speech, or the user's own voice note
   * (SPEC.md V-4); the file may be removed by cleanup (S-7).
   */
  audioUrl?: string | null;
  /** On an error message: what "retry" sends again, with the same clientMessageId. */
  retry?: { clientMessageId: string; text: string; sessionId: string | null; voice?: VoiceNoteInput };
  /**
   * A voice note not yet stored: its transcription progress (0–100); `real` once the server's
   * `chat:transcription` has spoken (the simulated rise then stops).
   */
  voiceNote?: { progress: number; real: boolean };
  /** An error about a voice note (spec §8 "Transcription Error"). */
  voiceError?: boolean;
  /** A voice note the browser transcribed (said under the message). */
  transcribedBy?: NoteTranscriber;
  /**
   * A voice note the server could not turn into text: kept here, playable from this object URL,
   * so the recording is not lost (issue: notes in a language the server cannot transcribe).
   */
  keptNote?: { url: string; note: VoiceNoteInput };
}

export const streamMessageId = (replyId: string) => `stream:${replyId}`;
export const localMessageId = (clientMessageId: string) => `local:${clientMessageId}`;

export function fromServerMessage(message: Message): LocalMessage {
  return {
    id: message._id,
    type: message.role === 'user' ? 'user' : message.role === 'assistant' ? 'bot' : 'system',
    content: message.content,
    timestamp: message.createdAt,
    emotion: message.emotion,
    personality: message.personality,
    clientMessageId: message.clientMessageId,
    isComplete: message.isComplete,
    audioUrl: message.audioUrl,
  };
}

export function errorMessage(
  content: string,
  retry: LocalMessage['retry'],
  contentKey?: LocalTextKey,
): LocalMessage {
  return {
    id: `error:${retry?.clientMessageId ?? crypto.randomUUID()}:${Date.now()}`,
    type: 'error',
    content,
    contentKey,
    timestamp: new Date().toISOString(),
    retry,
  };
}

/** A message the client writes itself (offline notes, personality changes, a stopped reply). */
export function systemNote(
  contentKey: LocalTextKey,
  contentParams?: Record<string, string>,
  id = `system:${crypto.randomUUID()}`,
): LocalMessage {
  return { id, type: 'system', content: '', contentKey, contentParams, timestamp: new Date().toISOString() };
}

/** The user's message shown at once, before the server acknowledges it. */
export function optimisticText(clientMessageId: string, text: string): LocalMessage {
  return {
    id: localMessageId(clientMessageId),
    type: 'user',
    content: text,
    timestamp: new Date().toISOString(),
    clientMessageId,
    sending: true,
  };
}

/** A voice note being sent: a placeholder with its transcription progress (spec §4). */
export function voicePlaceholder(clientMessageId: string, note: VoiceNoteInput): LocalMessage {
  return {
    id: localMessageId(clientMessageId),
    type: 'user',
    content: '',
    contentKey: 'voiceNote.placeholder',
    timestamp: new Date().toISOString(),
    clientMessageId,
    sending: true,
    voiceNote: { progress: 0, real: false },
    ...(note.transcriber ? { transcribedBy: note.transcriber } : {}),
  };
}

/** Replaces the message with id `replaceId` (default: its own id), or appends it. */
export function upsertMessage(
  messages: LocalMessage[],
  message: LocalMessage,
  replaceId = message.id,
): LocalMessage[] {
  const index = messages.findIndex((m) => m.id === replaceId);
  if (index === -1) return [...messages, message];
  const next = messages.slice();
  next[index] = message;
  return next;
}

/** Older messages (a history page) before the current ones, without repeats. */
export function mergeOlder(older: LocalMessage[], current: LocalMessage[]): LocalMessage[] {
  const known = new Set(current.map((m) => m.id));
  return [...older.filter((m) => !known.has(m.id)), ...current];
}
