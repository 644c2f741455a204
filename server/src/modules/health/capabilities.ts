import type { Capability, CapabilityId, Health } from '@alma/protocol';

/**
 * What this server can do and, for each missing capability, the one command or variable that
 * enables it (SPEC.md H-3). `/health` carries the rows, `npm start` prints them
 * (`formatCapabilities`), the dashboard shows them to admins, and the README's engine table is
 * checked against `FRESH_MACHINE` (tests/tooling/readme.test.ts) — one source for all four.
 */
export interface CapabilityFacts {
  engines: Health['engines'];
  /** Whether Debian's `ffmpeg` runs (MP4/AAC notes, MP3/AAC samples). */
  ffmpeg: boolean;
}

/** English labels for the start-up report and the README (the dashboard translates by id). */
export const CAPABILITY_LABELS: Record<CapabilityId, string> = {
  reply: 'Replies',
  speech: 'Speech',
  transcription_en: 'English transcription',
  transcription_es: 'Spanish transcription',
  decode_opus: 'Chrome/Firefox voice notes',
  decode_ffmpeg: 'Safari voice notes, MP3/AAC samples',
};

export const ENABLE = {
  speech: 'SPEECH_ENGINE=builtin',
  transcription: 'TRANSCRIBE_ENGINE=auto',
  pocketsphinx: 'apt-get install pocketsphinx pocketsphinx-en-us',
  transcriptionProvider: 'TRANSCRIBE_OPENAI_BASE_URL=<url> (or TRANSCRIBE_OPENAI_API_KEY=<key>)',
  ffmpeg: 'apt-get install ffmpeg',
} as const;

/** `hint` is the browser's own transcript: only where the browser offers one (Chrome). */
const BROWSER = 'browser';

function transcription(engine: string, language: 'en' | 'es'): Omit<Capability, 'id'> {
  if (engine === 'none') return { engine: 'none', ok: false, enable: ENABLE.transcription };
  if (engine.startsWith('openai')) return { engine, ok: true };
  if (engine === 'pocketsphinx' && language === 'en') return { engine, ok: true };
  return {
    engine: BROWSER,
    ok: false,
    enable: language === 'en' ? ENABLE.pocketsphinx : ENABLE.transcriptionProvider,
  };
}

export function describeCapabilities(facts: CapabilityFacts): Capability[] {
  const { engines } = facts;
  const speechOk = engines.speech !== 'none';
  return [
    { id: 'reply', engine: engines.reply, ok: true },
    speechOk
      ? { id: 'speech', engine: engines.speech, ok: true }
      : { id: 'speech', engine: 'none', ok: false, enable: ENABLE.speech },
    { id: 'transcription_en', ...transcription(engines.transcription, 'en') },
    { id: 'transcription_es', ...transcription(engines.transcription, 'es') },
    { id: 'decode_opus', engine: 'mediabunny', ok: true },
    facts.ffmpeg
      ? { id: 'decode_ffmpeg', engine: 'ffmpeg', ok: true }
      : { id: 'decode_ffmpeg', engine: 'none', ok: false, enable: ENABLE.ffmpeg },
  ];
}

/** What a fresh machine gets: no optional package, no variable set. */
export const FRESH_MACHINE: Capability[] = describeCapabilities({
  engines: { reply: 'builtin', speech: 'builtin', transcription: 'hint' },
  ffmpeg: false,
});

/** How a missing capability's stand-in reads: `off`, or the browser's own transcript. */
export function shown(engine: string): string {
  if (engine === 'none') return 'off';
  return engine === BROWSER ? 'browser transcript only' : engine;
}

/** The start-up report: one aligned line per capability, `→ how to enable` on missing ones. */
export function formatCapabilities(capabilities: Capability[]): string {
  const width = Math.max(...Object.values(CAPABILITY_LABELS).map((l) => l.length)) + 2;
  const lines = capabilities.map((c) => {
    const label = CAPABILITY_LABELS[c.id].padEnd(width);
    const state = c.ok ? c.engine : `${shown(c.engine)} → ${c.enable ?? ''}`;
    return `  ${label}${state}`;
  });
  return ['Engines:', ...lines].join('\n');
}
