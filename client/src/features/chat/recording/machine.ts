/**
 * The voice recorder as data (spec §4 Recording): idle → recording (a seconds timer) → stopped
 * (a preview with play, send or delete) → sent or deleted. On touch, a swipe up of more than
 * SWIPE_CANCEL_PX while recording cancels it. Pure, so the rules are tested without a microphone.
 */

/** Spec §4: a swipe up of more than this many pixels during a recording cancels it. */
export const SWIPE_CANCEL_PX = 50;

/** Spec §9 Recording: 44100 Hz, mono, echo cancellation and noise suppression on. */
export const RECORDING_CONSTRAINTS: MediaStreamConstraints = {
  audio: { sampleRate: 44100, channelCount: 1, echoCancellation: true, noiseSuppression: true },
};

/** Spec §9: webm with opus; the first type the browser supports, else its default. */
export const PREFERRED_MIME_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus'];

export function pickMimeType(isSupported: (type: string) => boolean): string | undefined {
  return PREFERRED_MIME_TYPES.find((type) => isSupported(type));
}

export interface RecordedNote {
  blob: Blob;
  mimeType: string;
  durationMs: number;
  url: string;
  transcriptHint?: string;
}

export type RecorderState =
  | { status: 'idle'; error: 'micDenied' | 'unsupported' | null }
  | { status: 'requesting' }
  | { status: 'recording'; startedAt: number; elapsedMs: number }
  | { status: 'stopped'; note: RecordedNote }
  | { status: 'sent' }
  | { status: 'deleted' };

export type RecorderAction =
  | { type: 'request' }
  | { type: 'denied'; reason: 'micDenied' | 'unsupported' }
  | { type: 'started'; at: number }
  | { type: 'tick'; at: number }
  | { type: 'stopped'; note: RecordedNote }
  | { type: 'cancel' }
  | { type: 'send' }
  | { type: 'delete' }
  | { type: 'reset' };

export const initialRecorder: RecorderState = { status: 'idle', error: null };

export function reduceRecorder(state: RecorderState, action: RecorderAction): RecorderState {
  switch (action.type) {
    case 'request':
      return state.status === 'recording' || state.status === 'requesting' ? state : { status: 'requesting' };
    case 'denied':
      return state.status === 'requesting' ? { status: 'idle', error: action.reason } : state;
    case 'started':
      return state.status === 'requesting'
        ? { status: 'recording', startedAt: action.at, elapsedMs: 0 }
        : state;
    case 'tick':
      return state.status === 'recording'
        ? { ...state, elapsedMs: Math.max(0, action.at - state.startedAt) }
        : state;
    case 'stopped':
      return state.status === 'recording' ? { status: 'stopped', note: action.note } : state;
    case 'cancel':
      return state.status === 'recording' || state.status === 'requesting' ? { status: 'deleted' } : state;
    case 'send':
      return state.status === 'stopped' ? { status: 'sent' } : state;
    case 'delete':
      return state.status === 'stopped' ? { status: 'deleted' } : state;
    case 'reset':
      return state.status === 'sent' || state.status === 'deleted' || state.status === 'idle'
        ? initialRecorder
        : state;
  }
}

/** The timer's text: whole seconds elapsed. */
export function elapsedSeconds(elapsedMs: number): number {
  return Math.floor(elapsedMs / 1000);
}

/** Spec §4: on touch, a swipe up of more than SWIPE_CANCEL_PX (not equal) cancels. */
export function isSwipeCancel(startY: number, currentY: number): boolean {
  return startY - currentY > SWIPE_CANCEL_PX;
}
