import { create } from 'zustand';
import { readString, StorageKey, writeString } from '../../../lib/storage.ts';
import { SpeechQueue, type AudioContextLike, type SpeechChunkInput, type StopResult } from './queue.ts';

/**
 * The app's one speech queue and the sound switch of the control bar (spec §1, §2: replies are
 * played automatically unless sound is muted). Muting is remembered in local storage and stops
 * what is playing.
 */

function browserContext(): AudioContextLike | null {
  if (typeof window === 'undefined') return null;
  const Ctor =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  try {
    return new Ctor() as unknown as AudioContextLike;
  } catch {
    return null;
  }
}

export const speechQueue = new SpeechQueue(browserContext);

interface SpeechState {
  muted: boolean;
  /** The reply whose speech is sounding, if any. */
  speakingReplyId: string | null;
  setMuted: (muted: boolean) => void;
  toggleMuted: () => void;
}

export const useSpeech = create<SpeechState>()((set, get) => ({
  muted: readString(StorageKey.soundMuted) === '1',
  speakingReplyId: null,
  setMuted: (muted) => {
    writeString(StorageKey.soundMuted, muted ? '1' : null);
    if (muted) speechQueue.stop();
    set({ muted });
  },
  toggleMuted: () => get().setMuted(!get().muted),
}));

speechQueue.subscribe(() => {
  const snap = speechQueue.getSnapshot();
  useSpeech.setState({ speakingReplyId: snap.playing ? snap.replyId : null });
});

/** A `speech:chunk` of a reply this tab shows: played unless muted. */
export function playSpeechChunk(chunk: SpeechChunkInput): void {
  if (useSpeech.getState().muted) return;
  speechQueue.enqueue(chunk);
}

/** Stops speech at once (barge-in); what was heard, for `chat:cancel`. */
export function stopSpeech(): StopResult | null {
  return speechQueue.stop();
}

/** Browsers start audio only after a user gesture: the first one unlocks the AudioContext. */
export function installAudioUnlock(): () => void {
  const remove = () => {
    window.removeEventListener('pointerdown', unlock, true);
    window.removeEventListener('keydown', unlock, true);
  };
  const unlock = () => {
    speechQueue.unlock();
    remove();
  };
  window.addEventListener('pointerdown', unlock, true);
  window.addEventListener('keydown', unlock, true);
  return remove;
}
