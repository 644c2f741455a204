import { CapabilitySchema } from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { describeCapabilities, ENABLE, formatCapabilities, FRESH_MACHINE } from './capabilities.ts';

describe('capabilities (SPEC.md H-3)', () => {
  it('H-3: a fresh machine has replies, speech and Opus notes; each missing one names how to enable it', () => {
    expect(FRESH_MACHINE.map((c) => CapabilitySchema.parse(c))).toEqual([
      { id: 'reply', engine: 'builtin', ok: true },
      { id: 'speech', engine: 'builtin', ok: true },
      { id: 'transcription_en', engine: 'browser', ok: false, enable: ENABLE.pocketsphinx },
      { id: 'transcription_es', engine: 'browser', ok: false, enable: ENABLE.transcriptionProvider },
      { id: 'decode_opus', engine: 'mediabunny', ok: true },
      { id: 'decode_ffmpeg', engine: 'none', ok: false, enable: ENABLE.ffmpeg },
    ]);
  });

  it('H-3: pocketsphinx serves English only; a provider serves both; none turns both off', () => {
    const engines = { reply: 'openai:llama3.2', speech: 'none' };
    const sphinx = describeCapabilities({
      engines: { ...engines, transcription: 'pocketsphinx' },
      ffmpeg: true,
    });
    expect(sphinx.filter((c) => !c.ok).map((c) => [c.id, c.enable])).toEqual([
      ['speech', ENABLE.speech],
      ['transcription_es', ENABLE.transcriptionProvider],
    ]);
    const provider = describeCapabilities({ engines: { ...engines, transcription: 'openai' }, ffmpeg: true });
    expect(provider.filter((c) => c.id.startsWith('transcription')).every((c) => c.ok)).toBe(true);
    const none = describeCapabilities({ engines: { ...engines, transcription: 'none' }, ffmpeg: false });
    expect(none.filter((c) => c.id.startsWith('transcription')).map((c) => c.enable)).toEqual([
      ENABLE.transcription,
      ENABLE.transcription,
    ]);
    expect(none[0]).toEqual({ id: 'reply', engine: 'openai:llama3.2', ok: true });
  });

  it('H-3: the start-up report prints one aligned line per capability', () => {
    expect(formatCapabilities(FRESH_MACHINE).split('\n')).toEqual([
      'Engines:',
      '  Replies                              builtin',
      '  Speech                               builtin',
      '  English transcription                browser transcript only → apt-get install pocketsphinx pocketsphinx-en-us',
      '  Spanish transcription                browser transcript only → TRANSCRIBE_OPENAI_BASE_URL=<url> (or TRANSCRIBE_OPENAI_API_KEY=<key>)',
      '  Chrome/Firefox voice notes           mediabunny',
      '  Safari voice notes, MP3/AAC samples  off → apt-get install ffmpeg',
    ]);
  });
});
