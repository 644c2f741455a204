import { describe, expect, it } from 'vitest';
import { createBuiltinSynthesizer } from '../../engines/speech/builtin.ts';
import type { Log } from '../../lib/logger.ts';
import { createFakeSynthesizer } from '../../test-support/speech.ts';
import { createReplySpeech, type SpokenChunk } from './reply-speech.ts';

const silentLog: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function speakReply(synthesizer: Parameters<typeof createReplySpeech>[0]['synthesizer']) {
  const heard: SpokenChunk[] = [];
  const speech = createReplySpeech({
    synthesizer,
    language: 'es',
    voice: { voice: 'es+f3' },
    signal: new AbortController().signal,
    log: silentLog,
    replyId: 'r1',
    onChunk: (chunk) => heard.push(chunk),
  });
  speech.push('Hola, ¿qué tal estás hoy? Cuéntame algo bonito.');
  await speech.finish();
  return { heard, spoken: speech.spoken };
}

describe('what a reply keeps of its spoken chunks until its file is stored', () => {
  it('lets an MP3 chunk’s PCM go at once: the file is joined from the MP3 sent', async () => {
    const { heard, spoken } = await speakReply(createBuiltinSynthesizer());
    expect(spoken.length).toBeGreaterThan(1);
    for (const chunk of [...heard, ...spoken]) {
      expect(chunk.result.mimeType).toBe('audio/mpeg');
      expect(chunk.result.audio.length).toBeGreaterThan(0);
      expect(chunk.result.durationMs).toBeGreaterThan(0);
      expect(chunk.result.visemes.length).toBeGreaterThan(0);
      expect(chunk.result.pcm.length).toBe(0);
    }
  });

  it('keeps the PCM of chunks in another format: the file is encoded from it', async () => {
    const { spoken } = await speakReply(createFakeSynthesizer({ msPerWord: 10 }));
    expect(spoken.length).toBeGreaterThan(1);
    for (const chunk of spoken) {
      expect(chunk.result.mimeType).toBe('audio/wav');
      expect(chunk.result.pcm.length).toBeGreaterThan(0);
    }
  });
});
