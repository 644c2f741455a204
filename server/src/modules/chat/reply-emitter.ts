import {
  errorMessage,
  RETRYABLE_CODES,
  type ErrorCode,
  type Language,
  type ServerEventName,
  type ServerPayload,
} from '@alma/protocol';
import type { Publisher } from '../../realtime/publisher.ts';

/** What a reply streams between its opening `chat:typing` and its end (SPEC.md C-4). */
type StreamEvent = 'chat:delta' | 'chat:emotion' | 'avatar:intent' | 'speech:chunk';
type Fields<E extends ServerEventName> = Omit<ServerPayload<E>, 'replyId' | 'sessionId' | 'seq'>;

/**
 * The one way a reply's events leave (SPEC.md C-4): each is stamped with the reply's id, its
 * session and the next `seq`, and goes to the session's room. The shape is fixed here —
 * `chat:typing` true first, stream events, then at the end `chat:typing` false and exactly one
 * `chat:reply` or `chat:error`; nothing after the end.
 */
export function createReplyEmitter(publisher: Publisher, sessionId: string, replyId: string, firstSeq = 0) {
  let seq = firstSeq;
  let ended = false;
  const send = <E extends ServerEventName>(event: E, fields: Fields<E>) =>
    publisher.toSession(sessionId, event, { ...fields, replyId, sessionId, seq: seq++ } as ServerPayload<E>);

  /** The last two events; false (and nothing sent) when the reply had ended already. */
  const end = <E extends 'chat:reply' | 'chat:error'>(event: E, fields: Fields<E>): boolean => {
    if (ended) return false;
    ended = true;
    send('chat:typing', { typing: false });
    send(event, fields);
    return true;
  };

  return {
    open: () => send('chat:typing', { typing: true }),
    emit<E extends StreamEvent>(event: E, fields: Fields<E>): void {
      if (!ended) send(event, fields);
    },
    reply: (fields: Fields<'chat:reply'>) => end('chat:reply', fields),
    /** The one `chat:error` of a failed reply, in the reply's language; `retryable` per E-1. */
    fail: (code: ErrorCode, language: Language) =>
      end('chat:error', {
        code,
        message: errorMessage(language, code),
        retryable: RETRYABLE_CODES.has(code),
      }),
  };
}

export type ReplyEmitter = ReturnType<typeof createReplyEmitter>;
