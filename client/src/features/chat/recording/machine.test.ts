import { describe, expect, it } from 'vitest';
import {
  elapsedSeconds,
  initialRecorder,
  isSwipeCancel,
  pickMimeType,
  reduceRecorder,
  SWIPE_CANCEL_PX,
  type RecordedNote,
  type RecorderAction,
  type RecorderState,
} from './machine.ts';

const note: RecordedNote = { blob: new Blob(['x']), mimeType: 'audio/webm', durationMs: 1500, url: 'blob:x' };

function run(actions: RecorderAction[], from: RecorderState = initialRecorder): RecorderState {
  return actions.reduce(reduceRecorder, from);
}

describe('recorder state machine (spec §4 Recording)', () => {
  it('idle → recording (timer) → stopped → sent', () => {
    let s = run([{ type: 'request' }, { type: 'started', at: 1000 }]);
    expect(s.status).toBe('recording');
    s = reduceRecorder(s, { type: 'tick', at: 3500 });
    expect(s.status === 'recording' && elapsedSeconds(s.elapsedMs)).toBe(2);
    s = reduceRecorder(s, { type: 'stopped', note });
    expect(s).toEqual({ status: 'stopped', note });
    s = reduceRecorder(s, { type: 'send' });
    expect(s.status).toBe('sent');
    expect(reduceRecorder(s, { type: 'reset' })).toEqual(initialRecorder);
  });

  it('stopped → deleted', () => {
    const s = run([
      { type: 'request' },
      { type: 'started', at: 0 },
      { type: 'stopped', note },
      { type: 'delete' },
    ]);
    expect(s.status).toBe('deleted');
  });

  it('a refused microphone goes back to idle with the reason', () => {
    expect(run([{ type: 'request' }, { type: 'denied', reason: 'micDenied' }])).toEqual({
      status: 'idle',
      error: 'micDenied',
    });
  });

  it('cancel during recording discards; send and delete only apply to a stopped note', () => {
    const recording = run([{ type: 'request' }, { type: 'started', at: 0 }]);
    expect(reduceRecorder(recording, { type: 'cancel' }).status).toBe('deleted');
    expect(reduceRecorder(recording, { type: 'send' })).toBe(recording);
    expect(reduceRecorder(recording, { type: 'delete' })).toBe(recording);
    expect(reduceRecorder(initialRecorder, { type: 'stopped', note })).toBe(initialRecorder);
  });

  it('a swipe up of more than 50 px cancels; 50 or less does not', () => {
    expect(SWIPE_CANCEL_PX).toBe(50);
    expect(isSwipeCancel(400, 350)).toBe(false);
    expect(isSwipeCancel(400, 349)).toBe(true);
    expect(isSwipeCancel(400, 460)).toBe(false);
  });

  it('prefers webm/opus (spec §9)', () => {
    expect(pickMimeType(() => true)).toBe('audio/webm;codecs=opus');
    expect(pickMimeType((t) => t === 'audio/webm')).toBe('audio/webm');
    expect(pickMimeType(() => false)).toBeUndefined();
  });
});
