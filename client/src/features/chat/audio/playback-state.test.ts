import { describe, expect, it } from 'vitest';
import { PlaybackState, recordPlayed, recordStopped } from './playback-state.ts';

describe('PlaybackState', () => {
  it('tells listeners of real changes only, until they unsubscribe', () => {
    const state = new PlaybackState();
    let calls = 0;
    const off = state.subscribe(() => (calls += 1));
    state.publish({ replyId: 'r', playing: false });
    state.publish({ replyId: 'r', playing: false });
    state.publish({ replyId: 'r', playing: true });
    expect(calls).toBe(2);
    expect(state.get()).toEqual({ replyId: 'r', playing: true });
    off();
    state.publish({ replyId: null, playing: false });
    expect(calls).toBe(2);
  });

  it('the page hook keeps what was played and stopped, the last 500 plays', () => {
    Reflect.deleteProperty(window, '__almaAudio');
    for (let seq = 0; seq < 505; seq++) {
      recordPlayed({
        replyId: 'r',
        seq,
        placedAt: seq,
        startAt: seq,
        length: 1,
        durationMs: 1000,
        decodedMs: 1000,
      });
    }
    recordStopped({ replyId: 'r', heardUntilMs: 10 });
    const played = window.__almaAudio?.played ?? [];
    expect(played).toHaveLength(500);
    expect(played.map((p) => p.seq).slice(0, 2)).toEqual([5, 6]);
    expect(window.__almaAudio?.stopped).toEqual([{ replyId: 'r', heardUntilMs: 10 }]);
  });
});
