import { describe, expect, it } from 'vitest';
import type { Capability } from '@alma/protocol';
import { transcriptionRoute } from './server-facts.ts';

const engines = (transcription: string) => ({ reply: 'builtin', speech: 'builtin', transcription });
const row = (id: Capability['id'], engine: string, ok: boolean): Capability => ({ id, engine, ok });

describe('what the server transcribes (SPEC.md V-3, H-3)', () => {
  it('reads the capabilities of /health: its own engine, the browser’s transcript, or nothing', () => {
    const capabilities = [
      row('transcription_en', 'pocketsphinx', true),
      row('transcription_es', 'browser', false),
    ];
    const facts = { engines: engines('pocketsphinx'), capabilities };
    expect(transcriptionRoute(facts, 'en')).toBe('server');
    expect(transcriptionRoute(facts, 'es')).toBe('hint');
    expect(
      transcriptionRoute(
        { engines: engines('none'), capabilities: [row('transcription_es', 'none', false)] },
        'es',
      ),
    ).toBe('none');
  });

  it('falls back on the engine’s name for a server that lists no capabilities', () => {
    expect(transcriptionRoute({ engines: null, capabilities: [] }, 'es')).toBe('unknown');
    expect(transcriptionRoute({ engines: engines('pocketsphinx'), capabilities: [] }, 'en')).toBe('server');
    expect(transcriptionRoute({ engines: engines('pocketsphinx'), capabilities: [] }, 'es')).toBe('hint');
    expect(transcriptionRoute({ engines: engines('openai'), capabilities: [] }, 'es')).toBe('server');
    expect(transcriptionRoute({ engines: engines('hint'), capabilities: [] }, 'en')).toBe('hint');
    expect(transcriptionRoute({ engines: engines('none'), capabilities: [] }, 'en')).toBe('none');
  });
});
