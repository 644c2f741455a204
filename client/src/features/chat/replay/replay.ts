import { create } from 'zustand';
import type { Emotion } from '@alma/protocol';
import { speechQueue, stopSpeech } from '../audio/speech.ts';
import { visemesFromLoudness } from './loudness-visemes.ts';

/**
 * Replaying a reply ("Listen", SPEC.md ST-5) plays its stored file through the app's one speech
 * queue, as live speech plays: the stage sees the avatar speaking, its mouth follows the queue's
 * visemes (estimated from the file's loudness, which is all a stored file keeps) and its face
 * shows the message's emotion while it sounds. Anything playing stops first.
 */

interface ReplayState {
  /** The file being replayed (loading or sounding), else null. */
  audioUrl: string | null;
  /** Its id in the speech queue: `replay-<n>`, new for every replay (the queue drops a stopped id). */
  replyId: string | null;
  /** The replayed message's emotion, shown on the avatar while it sounds. */
  emotion: Emotion | null;
}

export const useReplay = create<ReplayState>()(() => ({ audioUrl: null, replyId: null, emotion: null }));

const IDLE: ReplayState = { audioUrl: null, replyId: null, emotion: null };

/** The file could not be fetched or decoded: the button says the audio is unavailable. */
export class ReplayUnavailable extends Error {
  constructor(readonly status?: number) {
    super('replay unavailable');
  }
}

let count = 0;
/** Whether the current replay has started sounding (its end is the queue falling silent). */
let sounded = false;

speechQueue.subscribe(() => {
  const { replyId } = useReplay.getState();
  if (!replyId) return;
  const snap = speechQueue.getSnapshot();
  if (snap.replyId === replyId && snap.playing) sounded = true;
  else if (snap.replyId !== replyId || sounded) useReplay.setState(IDLE);
});

function current(replyId: string): boolean {
  return useReplay.getState().replyId === replyId;
}

async function decode(bytes: ArrayBuffer): Promise<AudioBuffer> {
  if (typeof OfflineAudioContext === 'undefined') throw new ReplayUnavailable();
  // An offline context decodes without a user gesture and without an output device.
  const context = new OfflineAudioContext(1, 1, 16_000);
  return context.decodeAudioData(bytes.slice(0));
}

/**
 * Replays `audioUrl`; resolves once it is queued (or was stopped meanwhile). Call it from the
 * user's gesture: the queue's audio is unlocked before the first await.
 */
export async function replay(audioUrl: string, emotion: Emotion | null): Promise<void> {
  stopSpeech();
  speechQueue.unlock();
  const replyId = `replay-${++count}`;
  sounded = false;
  useReplay.setState({ audioUrl, replyId, emotion });
  try {
    const res = await fetch(audioUrl);
    if (!res.ok) throw new ReplayUnavailable(res.status);
    const bytes = await res.arrayBuffer();
    if (!current(replyId)) return;
    const buffer = await decode(bytes);
    if (!current(replyId)) return;
    speechQueue.enqueue({
      replyId,
      seq: 0,
      audio: bytes,
      durationMs: Math.round(buffer.duration * 1000),
      visemes: visemesFromLoudness(buffer.getChannelData(0), buffer.sampleRate),
    });
  } catch (error) {
    if (current(replyId)) useReplay.setState(IDLE);
    throw error instanceof ReplayUnavailable ? error : new ReplayUnavailable();
  }
}

/** Stops the replay of `audioUrl` if it is the one playing. */
export function stopReplay(audioUrl: string): void {
  const state = useReplay.getState();
  if (state.audioUrl !== audioUrl) return;
  if (speechQueue.replyId === state.replyId) stopSpeech();
  useReplay.setState(IDLE);
}
