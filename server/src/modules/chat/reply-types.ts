import type { ChatReply, ErrorCode, Message, Personality } from '@alma/protocol';
import type { CustomVoiceSpeaker } from './reply-speech.ts';

/**
 * What the parts of the reply pipeline say to each other: the submit service starts replies
 * through the registry, the registry drives reply runs, and the edges wait for outcomes. Every
 * value here is plain data, so a registry shared between instances (issue 15) can carry it.
 */

/** Why a reply was stopped before its end. */
export type StopReason = 'cancel' | 'shutdown' | 'deleted';

/** How a reply ended: stored (complete or not), or failed with nothing stored. */
export type ReplyOutcome =
  { kind: 'stored'; reply: ChatReply; message: Message } | { kind: 'failed'; code: ErrorCode };

/** What a send carried besides its text; stored on the user message and its reply (C-13). */
export interface ReplyOptions {
  personality: Personality;
  voiceId?: string | undefined;
  avatarId?: string | undefined;
  /** Set when `voiceId` is one of the user's custom voices (VU-8); never stored. */
  customVoice?: CustomVoiceSpeaker | undefined;
}

/** A reply as its asker sees it: its id, and its outcome once it ends. */
export interface ReplyHandle {
  replyId: string;
  /** True when the reply had been stored before this request (a retried send): nothing streams. */
  alreadyStored: boolean;
  done: Promise<ReplyOutcome>;
}
