import { describe, expect, it } from 'vitest';
import { createFakeSynthesizer } from '../../test-support/speech.ts';
import type { Log } from '../../lib/logger.ts';
import { findSystemVoice } from '../voices/catalogue.ts';
import { DEFAULT_VOICES, createReplySpeech, resolveVoice } from './reply-speech.ts';

const silentLog: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('V-6 the voice a reply is spoken with', () => {
  it('maps a catalogue id to its builtin voice, pitch and rate', () => {
    expect(resolveVoice('es-mateo', 'es')).toEqual({ voice: 'es+m3', pitch: 44, rate: 165 });
    expect(resolveVoice('en-harry', 'en')).toEqual(findSystemVoice('en-harry')!.espeak);
  });

  it('gives a catalogue voice of the other language the same category’s recommended voice', () => {
    expect(resolveVoice('en-james', 'es')).toEqual(findSystemVoice('es-mateo')!.espeak);
    expect(resolveVoice('es-carmen', 'en')).toEqual(findSystemVoice('en-emma')!.espeak);
    expect(resolveVoice('es-noa', 'en')).toEqual(findSystemVoice('en-river')!.espeak);
  });

  it('keeps raw espeak voices of the reply language; anything else is the language default', () => {
    expect(resolveVoice('es+m3', 'es')).toEqual({ voice: 'es+m3' });
    expect(resolveVoice('en-us+f2', 'es')).toEqual({ voice: DEFAULT_VOICES.es });
    expect(resolveVoice('xx-nobody', 'en')).toEqual({ voice: DEFAULT_VOICES.en });
    expect(resolveVoice(null, 'es')).toEqual({ voice: DEFAULT_VOICES.es });
    expect(resolveVoice(undefined, 'en')).toEqual({ voice: DEFAULT_VOICES.en });
  });

  it('a reply sent with voiceId es-mateo is synthesised with that voice’s params', async () => {
    const synthesizer = createFakeSynthesizer({ msPerWord: 10 });
    const speech = createReplySpeech({
      synthesizer,
      language: 'es',
      voice: resolveVoice('es-mateo', 'es'),
      signal: new AbortController().signal,
      log: silentLog,
      replyId: 'r1',
      onChunk: () => undefined,
    });
    speech.push('Hola, ¿qué tal estás hoy? Cuéntame algo bonito.');
    await speech.finish();
    expect(synthesizer.calls.length).toBeGreaterThan(0);
    for (const call of synthesizer.calls)
      expect(call.voice).toEqual({ voice: 'es+m3', pitch: 44, rate: 165 });
  });
});
