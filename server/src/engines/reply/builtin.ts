import { composeReply } from './compose.ts';
import type { ReplyChunk, ReplyEngine, ReplyRequest } from './types.ts';
import { createPacer } from '../../lib/pace.ts';

export { composeReply, type ComposedReply, type ComposeRequest } from './compose.ts';

/**
 * The embedded reply engine: works offline on a fresh machine and is deterministic, so recorded
 * sessions replay to the same text. The reply is composed at once and then streamed word by word
 * at a typing pace, like a model would, so the rest of the pipeline (sentence splitting, early
 * speech) behaves the same with every engine.
 */
export interface BuiltinReplyOptions {
  /** Time between text pieces, on a fixed timeline (lib/pace.ts); 0 streams without waiting (tests). */
  tokenDelayMs: number;
}

/** Each word with the spaces/punctuation that follow it: joining the pieces gives the text back. */
export function splitIntoPieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

export function createBuiltinReplyEngine(options: BuiltinReplyOptions): ReplyEngine {
  return {
    name: 'builtin',
    async *stream(request: ReplyRequest): AsyncIterable<ReplyChunk> {
      const { signal, ...rest } = request;
      if (signal.aborted) return;
      const reply = composeReply(rest);
      // The words are written from when the engine is asked, as a model's are: the pieces that
      // fall due while the message is stored and acknowledged leave at once when they are read.
      const pacer = createPacer(options.tokenDelayMs);
      pacer.start();
      yield {
        type: 'emotion',
        emotion: reply.emotion,
        intensity: reply.intensity,
        confidence: reply.confidence,
      };
      if (reply.gesture) yield { type: 'gesture', gesture: reply.gesture };

      const pieces = splitIntoPieces(reply.text);
      for (const [index, piece] of pieces.entries()) {
        if (signal.aborted) return;
        await pacer.wait(index, signal);
        if (signal.aborted) return;
        yield { type: 'text', text: piece };
      }
    },
  };
}
