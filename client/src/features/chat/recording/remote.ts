import { create } from 'zustand';

/**
 * The avatar view's control bar records through the composer's one recorder (spec §2: "record
 * voice note or stop"): the recorder publishes what it is doing here, and the control bar asks it
 * to start or stop with a window event, so there is still a single microphone owner.
 */
export type RemoteRecording = 'idle' | 'recording' | 'busy';

export const useRecordingStatus = create<{ status: RemoteRecording }>()(() => ({ status: 'idle' }));

export const RECORDING_TOGGLE_EVENT = 'alma:toggle-recording';

export function requestRecordingToggle(): void {
  window.dispatchEvent(new Event(RECORDING_TOGGLE_EVENT));
}
