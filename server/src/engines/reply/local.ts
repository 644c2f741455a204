import { basename } from 'node:path';
import type {
  ChatHistoryItem,
  Llama,
  LlamaChatSession,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
} from 'node-llama-cpp';
import { AppError } from '../../lib/app-error.ts';
import { chatMessages } from './prompt.ts';
import { withSideChannel } from './side-channel.ts';
import type { ReplyChunk, ReplyEngine, ReplyRequest } from './types.ts';

/**
 * A reply engine running a GGUF model in-process on the CPU with node-llama-cpp's prebuilt
 * binary (`build: 'never'`: nothing is compiled or downloaded at run time).
 *
 * The model loads lazily on the first reply, once; a failed load is retried on the next reply.
 * There is one context sequence, so replies take turns: on a CPU, running two at once would only
 * make both slower. The chat template comes from the model's metadata (node-llama-cpp picks the
 * matching chat wrapper). Emotion and gesture use the same side channel as the openai engine;
 * a model that ignores it gets them derived from its text.
 */
export interface LocalReplyOptions {
  modelPath: string;
  /** CPU threads for evaluation; under contention fewer threads can be faster. */
  threads: number;
  /** Upper bound of the context window; the model's own training context caps it too. */
  contextSize: number;
  /** Longest reply, in tokens. */
  maxTokens: number;
  temperature?: number;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
}

export interface LocalReplyEngine extends ReplyEngine {
  /** Loads the model now instead of on the first reply. */
  load(): Promise<void>;
  /** Frees the model and its context; a later reply loads them again. */
  close(): Promise<void>;
}

export function createLocalReplyEngine(options: LocalReplyOptions): LocalReplyEngine {
  let loading: Promise<Loaded> | null = null;
  /** The reply that holds the sequence; the next one waits for it to settle. */
  let turn: Promise<void> = Promise.resolve();

  function load(): Promise<Loaded> {
    loading ??= (async () => {
      // Imported here so the builtin and openai engines never pay for loading node-llama-cpp.
      const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
      const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
      const model = await llama.loadModel({ modelPath: options.modelPath });
      const context = await model.createContext({
        contextSize: { max: options.contextSize },
        threads: options.threads,
      });
      return { llama, model, context, sequence: context.getSequence() };
    })().catch((error: unknown) => {
      loading = null;
      throw new AppError('reply_failed', {
        detail: `local engine: cannot load ${options.modelPath}: ${error instanceof Error ? error.message : String(error)}`,
      });
    });
    return loading;
  }

  /**
   * Waits for the previous reply to release the sequence; resolves with the release function,
   * or null when `signal` aborts first (a cancelled reply leaves the queue at once, and the turn
   * it held passes on only when the one before it ends).
   */
  async function takeTurn(signal: AbortSignal): Promise<(() => void) | null> {
    const previous = turn;
    let release!: () => void;
    turn = new Promise((resolve) => (release = resolve));
    if (await abortedFirst(previous, signal)) {
      void previous.then(release);
      return null;
    }
    return release;
  }

  async function* pieces(request: ReplyRequest): AsyncGenerator<string> {
    const { LlamaChatSession: ChatSession } = await import('node-llama-cpp');
    const loading = load();
    if (await abortedFirst(loading, request.signal)) return;
    const loaded = await loading;
    const release = await takeTurn(request.signal);
    if (!release) return;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const channel = createChannel<string>();
    let session: LlamaChatSession | undefined;
    let generation: Promise<unknown> = Promise.resolve();
    try {
      if (request.signal.aborted) return;
      session = new ChatSession({ contextSequence: loaded.sequence, autoDisposeSequence: false });
      session.setChatHistory(toChatHistory(request));
      generation = session
        .prompt(request.text, {
          maxTokens: options.maxTokens,
          temperature: options.temperature ?? 0.8,
          signal: stop.signal,
          stopOnAbortSignal: true,
          onTextChunk: (text) => channel.push(text),
        })
        .then(
          () => channel.end(),
          (error: unknown) =>
            // Aborted before the first token, node-llama-cpp throws even with stopOnAbortSignal.
            stop.signal.aborted
              ? channel.end()
              : channel.fail(
                  new AppError('reply_failed', {
                    detail: `local engine: ${error instanceof Error ? error.message : String(error)}`,
                  }),
                ),
        );
      yield* channel.drain();
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      // The consumer may stop early: stop generating, and keep the sequence until it really stopped.
      stop.abort();
      await generation;
      session?.dispose({ disposeSequence: false });
      release();
    }
  }

  return {
    name: `local:${basename(options.modelPath)}`,
    async *stream(request: ReplyRequest): AsyncIterable<ReplyChunk> {
      if (request.signal.aborted) return;
      yield* withSideChannel(pieces(request), request.language, request.signal);
    },
    async load() {
      await load();
    },
    async close() {
      const current = loading;
      loading = null;
      if (!current) return;
      const loaded = await current.catch(() => null);
      await turn;
      await loaded?.context.dispose();
      await loaded?.model.dispose();
    },
  };
}

/** Whether `signal` aborts before `promise` settles (a rejection counts as settling). */
function abortedFirst(promise: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => resolve(true);
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      signal.removeEventListener('abort', onAbort);
      resolve(false);
    };
    promise.then(settle, settle);
  });
}

/** Our messages as node-llama-cpp's chat history, the current user message left for `prompt`. */
function toChatHistory(request: ReplyRequest): ChatHistoryItem[] {
  return chatMessages(request)
    .slice(0, -1)
    .map((m): ChatHistoryItem => {
      switch (m.role) {
        case 'system':
          return { type: 'system', text: m.content };
        case 'user':
          return { type: 'user', text: m.content };
        case 'assistant':
          return { type: 'model', response: [m.content] };
      }
    });
}

/** A single-consumer queue from callbacks to an async iterator. */
function createChannel<T>() {
  const items: T[] = [];
  let done = false;
  let error: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  return {
    push(item: T) {
      items.push(item);
      notify();
    },
    end() {
      done = true;
      notify();
    },
    fail(reason: Error) {
      error = reason;
      done = true;
      notify();
    },
    async *drain(): AsyncGenerator<T> {
      for (;;) {
        while (items.length > 0) yield items.shift() as T;
        if (error) throw error;
        if (done) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
