import { useTranslation } from 'react-i18next';
import type { Language } from '@alma/protocol';
import { currentLanguage } from '../../../lib/i18n.ts';
import { transcriptionRoute, useServerFacts, type TranscriptionRoute } from '../../../lib/server-facts.ts';
import { browserCanRecognize } from './use-recorder.ts';

/**
 * How a voice note in the user's language becomes text, known before recording (issue 11):
 * - `server`: the server transcribes it (nothing is said; the browser's recognizer stays off, so
 *   no audio goes anywhere else);
 * - `browser`: the server takes the browser's transcript only, and this browser can make one —
 *   used automatically, and the user is told first that Chrome and Edge send the audio to their
 *   vendor's speech service (ENGINES.md);
 * - `none`: nothing here can transcribe it — said before recording; a note sent anyway is kept
 *   in the conversation, playable, rather than lost.
 */
export type NoteMode = 'server' | 'browser' | 'none';

export function noteMode(route: TranscriptionRoute, canRecognize: boolean): NoteMode {
  switch (route) {
    case 'server':
    case 'unknown':
      return 'server';
    case 'hint':
      return canRecognize ? 'browser' : 'none';
    case 'none':
      return 'none';
  }
}

export function useNoteMode(): { mode: NoteMode; language: Language } {
  const { i18n } = useTranslation();
  const engines = useServerFacts((s) => s.engines);
  const capabilities = useServerFacts((s) => s.capabilities);
  const language = currentLanguage(i18n);
  const route = transcriptionRoute({ engines, capabilities }, language);
  return { mode: noteMode(route, browserCanRecognize()), language };
}
