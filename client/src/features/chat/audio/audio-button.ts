/**
 * The bot message's audio button (spec §4 "Bot audio button"): checking, available, playing or
 * unavailable, from the existence check (SPEC.md S-5). A file that fails to load while playing
 * is unavailable too: automatic cleanup (S-7) may remove it at any time.
 */
export type AudioButtonState = 'checking' | 'available' | 'playing' | 'unavailable';

export type AudioButtonEvent =
  | { type: 'checked'; exists: boolean }
  | { type: 'checkFailed' }
  | { type: 'play' }
  | { type: 'ended' }
  | { type: 'stop' }
  | { type: 'loadFailed' };

export function audioButtonReducer(state: AudioButtonState, event: AudioButtonEvent): AudioButtonState {
  switch (event.type) {
    case 'checked':
      return state === 'checking' ? (event.exists ? 'available' : 'unavailable') : state;
    case 'checkFailed':
      return state === 'checking' ? 'unavailable' : state;
    case 'play':
      return state === 'available' ? 'playing' : state;
    case 'ended':
    case 'stop':
      return state === 'playing' ? 'available' : state;
    case 'loadFailed':
      return 'unavailable';
  }
}

/** The file name of an `audioUrl` (`/audio/<file>`), or null when it is not one. */
export function audioFileName(audioUrl: string | null | undefined): string | null {
  if (!audioUrl) return null;
  const name = audioUrl.split('?')[0]?.split('/').pop() ?? '';
  return /^[A-Za-z0-9_-]{1,100}\.[a-z0-9]{2,5}$/.test(name) ? name : null;
}
