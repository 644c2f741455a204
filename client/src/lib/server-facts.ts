import { create } from 'zustand';
import type { Capability, Health, Language } from '@alma/protocol';

/**
 * What the server says it can do, from GET /health (`engines`, `capabilities`: SPEC.md H-3) and
 * `server:status` (`engines`): features read it to set expectations before the user acts (a
 * voice note in a language the server cannot transcribe is announced before recording, not
 * refused after it).
 */
export type Engines = Health['engines'];

export interface ServerFacts {
  engines: Engines | null;
  capabilities: Capability[];
}

interface ServerFactsState extends ServerFacts {
  /** A /health answer, or a `server:status` (engines only: the capabilities known stay). */
  setHealth: (health: Pick<Health, 'engines'> & { capabilities?: Capability[] }) => void;
}

export const useServerFacts = create<ServerFactsState>()((set) => ({
  engines: null,
  capabilities: [],
  setHealth: ({ engines, capabilities }) => set(capabilities ? { engines, capabilities } : { engines }),
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

export function transcriptionRoute(facts: ServerFacts, language: Language): TranscriptionRoute {
  // The server's own word (H-3): ok, or what stands in — the browser's transcript, or nothing.
  const row = facts.capabilities.find((c) => c.id === `transcription_${language}`);
  if (row) return row.ok ? 'server' : row.engine === 'browser' ? 'hint' : 'none';
  // An older server: what its transcription engine is known to hear (SPEC.md V-3).
  switch (facts.engines?.transcription) {
    case undefined:
      return 'unknown';
    case 'pocketsphinx':
      return language === 'en' ? 'server' : 'hint';
    case 'hint':
      return 'hint';
    case 'none':
      return 'none';
    default:
      // A provider (`openai`) hears every language; an engine this client does not know: let
      // the server decide, as before.
      return 'server';
  }
}
