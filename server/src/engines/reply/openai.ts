import { AppError } from '../../lib/app-error.ts';
import { chatMessages } from './prompt.ts';
import { withSideChannel } from './side-channel.ts';
import type { ReplyChunk, ReplyEngine, ReplyRequest } from './types.ts';
import { abortableSleep } from '../../lib/abortable-sleep.ts';

/**
 * A reply engine over any OpenAI-compatible `POST {baseUrl}/chat/completions` with `stream: true`
 * (OpenAI, Ollama, llama.cpp server, vLLM, LM Studio, OpenRouter, Groq). Plain fetch and a small
 * server-sent-events reader: the wire format is a few `data: {json}` lines ending in `data: [DONE]`.
 *
 * Failure policy: every provider failure becomes `AppError('reply_failed')` with the cause in
 * `detail` (logs only). Network errors, 429 and 5xx are retried with backoff, but only before the
 * first text arrives — after that a retry would repeat words the user already saw. A time-out
 * (no first byte, or silence mid-stream, for `timeoutMs`) is not retried: the user has waited enough.
 */
export interface OpenAIReplyOptions {
  /** Up to and including `/v1`, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string;
  /** Sent as a Bearer token when set (local servers usually need none). */
  apiKey?: string | undefined;
  model: string;
  /** Longest wait for the response to start, and for each next piece of it. */
  timeoutMs: number;
  /** Extra attempts before the first token. */
  maxRetries: number;
  /** First backoff; doubles per attempt (with jitter), capped at MAX_BACKOFF_MS. Default 500. */
  retryBaseDelayMs?: number;
  fetch?: typeof fetch;
}

const MAX_BACKOFF_MS = 8000;
/** Error bodies are read for the log only, and only this much of them. */
const MAX_ERROR_BODY = 500;

/** A failure of one attempt; `retryable` only matters before the first token. */
class AttemptError extends Error {
  constructor(
    readonly detail: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(detail);
  }
}

export function createOpenAIReplyEngine(options: OpenAIReplyOptions): ReplyEngine {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const baseDelay = options.retryBaseDelayMs ?? 500;

  /** One request; yields raw content pieces. Aborting `signal` closes the connection. */
  async function* attempt(body: string, signal: AbortSignal): AsyncGenerator<string> {
    const attemptAbort = new AbortController();
    const onAbort = () => attemptAbort.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        attemptAbort.abort(new Error('timeout'));
      }, options.timeoutMs);
    };
    const failure = (error: unknown, what: string): AttemptError =>
      timedOut
        ? new AttemptError(`no data from ${url} for ${options.timeoutMs} ms (${what})`, false)
        : error instanceof AttemptError
          ? error
          : new AttemptError(`${what}: ${describe(error)}`, true);

    try {
      arm();
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body,
          signal: attemptAbort.signal,
        });
      } catch (error) {
        if (signal.aborted) return;
        throw failure(error, 'request failed');
      }
      if (!response.ok) {
        const text = await readSome(response).catch(() => '');
        const retryable = response.status === 429 || response.status >= 500;
        throw new AttemptError(
          `provider answered ${response.status}${text ? `: ${text}` : ''}`,
          retryable,
          retryAfter(response.headers.get('retry-after')),
        );
      }
      if (!response.body) throw new AttemptError('provider sent no body', true);

      try {
        for await (const data of serverSentData(response.body, arm)) {
          if (data === '[DONE]') return;
          const piece = contentOf(data);
          if (piece) yield piece;
        }
      } catch (error) {
        if (signal.aborted) return;
        throw failure(error, 'stream failed');
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // Ends the request when the consumer stops early (an abort, a break): the provider sees
      // the connection close and stops generating.
      attemptAbort.abort();
    }
  }

  /** Attempts with retries, as one stream of content pieces. */
  async function* pieces(request: ReplyRequest): AsyncGenerator<string> {
    const body = JSON.stringify({ model: options.model, messages: chatMessages(request), stream: true });
    for (let attemptNo = 0; ; attemptNo++) {
      let started = false;
      try {
        for await (const piece of attempt(body, request.signal)) {
          started = true;
          yield piece;
        }
        return;
      } catch (error) {
        const failed =
          error instanceof AttemptError ? error : new AttemptError(`unexpected: ${describe(error)}`, false);
        if (started || !failed.retryable || attemptNo >= options.maxRetries) {
          throw new AppError('reply_failed', {
            detail: `openai engine (${options.model}): ${failed.detail}${
              attemptNo > 0 ? ` after ${attemptNo + 1} attempts` : ''
            }`,
          });
        }
        const backoff = Math.min(MAX_BACKOFF_MS, baseDelay * 2 ** attemptNo * (0.75 + Math.random() / 2));
        await abortableSleep(Math.min(MAX_BACKOFF_MS, failed.retryAfterMs ?? backoff), request.signal);
        if (request.signal.aborted) return;
      }
    }
  }

  return {
    name: `openai:${options.model}`,
    async *stream(request: ReplyRequest): AsyncIterable<ReplyChunk> {
      if (request.signal.aborted) return;
      yield* withSideChannel(pieces(request), request.language, request.signal);
    },
  };
}

/**
 * The `data` payloads of a server-sent-events body (https://html.spec.whatwg.org/#event-stream-interpretation),
 * one per event; comments and other fields are skipped. `onData` runs on every received chunk
 * (the idle timer).
 */
export async function* serverSentData(
  body: ReadableStream<Uint8Array>,
  onData: () => void = () => {},
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    onData();
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
  }
  buffer += decoder.decode();
  if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.startsWith('data: ') ? 6 : 5));
  if (data.length > 0) yield data.join('\n');
}

/** The text of one streamed completion chunk; an `error` object in the stream is a failure. */
function contentOf(data: string): string {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new AttemptError(`unreadable stream data: ${data.slice(0, 100)}`, true);
  }
  const chunk = json as {
    choices?: { delta?: { content?: unknown } }[];
    error?: { message?: unknown } | string;
  };
  if (chunk.error) {
    const message =
      typeof chunk.error === 'string'
        ? chunk.error
        : typeof chunk.error.message === 'string'
          ? chunk.error.message
          : JSON.stringify(chunk.error);
    throw new AttemptError(`provider error in stream: ${message}`, true);
  }
  const content = chunk.choices?.[0]?.delta?.content;
  return typeof content === 'string' ? content : '';
}

async function readSome(response: Response): Promise<string> {
  const text = await response.text();
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_ERROR_BODY);
}

/** Retry-After in seconds or as an HTTP date. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
