import { create } from 'zustand';
import type { Health, Language } from '@alma/protocol';

/**
 * What the server says it can do, from GET /health and `server:status` (`engines`): features read
 * it to set expectations before the user acts (a voice note in a language the server cannot
 * transcribe is announced before recording, not refused after it).
 */
export type Engines = Health['engines'];

interface ServerFactsState {
  engines: Engines | null;
  setHealth: (health: Pick<Health, 'engines'>) => void;
}

export const useServerFacts = create<ServerFactsState>()((set) => ({
  engines: null,
  setHealth: (health) => set({ engines: health.engines }),
}));

/**
 * How a voice note in `language` can become text on this server (SPEC.md V-3):
 * - `server`: the server transcribes it itself (an OpenAI-compatible provider hears every
 *   language; pocketsphinx only English);
 * - `hint`: only a transcript the browser offers (`transcriptHint`) is accepted;
 * - `none`: nothing is (TRANSCRIBE_ENGINE=none);
 * - `unknown`: the server has not said yet.
 */
export type TranscriptionRoute = 'server' | 'hint' | 'none' | 'unknown';

export function transcriptionRoute(engines: Engines | null, language: Language): TranscriptionRoute {
  if (!engines) return 'unknown';
  switch (engines.transcription) {
    case 'openai':
      return 'server';
    case 'pocketsphinx':
      return language === 'en' ? 'server' : 'hint';
    case 'hint':
      return 'hint';
    case 'none':
      return 'none';
    default:
      // An engine this client does not know: let the server decide, as before.
      return 'server';
  }
}
