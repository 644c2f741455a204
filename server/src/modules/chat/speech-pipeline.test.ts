import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpeechBusyError } from '../../engines/speech/synthesis-pool.ts';
import type { SpeechSynthesizer } from '../../engines/speech/types.ts';
import { REPEATED_WARNING_WINDOW_MS } from '../../lib/repeated-warning.ts';
import { createSpeechPipeline } from './speech-pipeline.ts';

/** The pool refusing every clause, as it does when its queue is full (S-10): a test double. */
const refusing: SpeechSynthesizer = {
  name: 'refusing',
  synthesize: () => Promise.reject(new SpeechBusyError()),
  encodeFile: () => Promise.reject(new Error('nothing to encode')),
};

describe('replies going on as text because speech is busy (S-10)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('are logged as one line and a count, not a line each', async () => {
    const warnings: { fields: object; message: string | undefined }[] = [];
    const log = {
      warn: (fields: object, message?: string) => warnings.push({ fields, message }),
      info: () => undefined,
      error: () => undefined,
    };
    const pipeline = createSpeechPipeline({ synthesizer: refusing, log });
    const replies = Array.from({ length: 50 }, (_, k) => {
      const speech = pipeline.start({
        replyId: `r${k}`,
        language: 'es',
        voice: {},
        signal: new AbortController().signal,
        onChunk: () => undefined,
      });
      speech.push('Hola, ¿qué tal estás hoy? Cuéntame algo bonito.');
      return speech;
    });
    await Promise.all(replies.map((speech) => speech.finish()));
    expect(replies.every((speech) => speech.status === 'busy')).toBe(true);
    expect(warnings).toEqual([
      { fields: { replyId: 'r0', chunk: 0 }, message: 'speech too busy: replies go on as text' },
    ]);
    vi.advanceTimersByTime(REPEATED_WARNING_WINDOW_MS);
    expect(warnings.map((w) => w.message)).toEqual([
      'speech too busy: replies go on as text',
      'speech too busy: replies go on as text (49 more in 10 s)',
    ]);
  });
});
