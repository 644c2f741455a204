import { describe, expect, it } from 'vitest';
import { audioButtonReducer as next, audioFileName, type AudioButtonState } from './audio-button.ts';

describe('bot audio button (spec §4)', () => {
  it('checking → available or unavailable from the existence check', () => {
    expect(next('checking', { type: 'checked', exists: true })).toBe('available');
    expect(next('checking', { type: 'checked', exists: false })).toBe('unavailable');
    expect(next('checking', { type: 'checkFailed' })).toBe('unavailable');
  });

  it('available → playing → available when the file ends or is stopped', () => {
    expect(next('available', { type: 'play' })).toBe('playing');
    expect(next('playing', { type: 'ended' })).toBe('available');
    expect(next('playing', { type: 'stop' })).toBe('available');
  });

  it('a file removed since the check (cleanup) makes it unavailable', () => {
    expect(next('playing', { type: 'loadFailed' })).toBe('unavailable');
  });

  it('unavailable and checking do not play; a late check answer changes nothing', () => {
    const stays: [AudioButtonState, Parameters<typeof next>[1]][] = [
      ['unavailable', { type: 'play' }],
      ['checking', { type: 'play' }],
      ['playing', { type: 'checked', exists: false }],
      ['available', { type: 'ended' }],
    ];
    for (const [state, event] of stays) expect(next(state, event)).toBe(state);
  });

  it('takes the file name from audioUrl', () => {
    expect(audioFileName('/audio/0190a-b_c.mp3')).toBe('0190a-b_c.mp3');
    expect(audioFileName(null)).toBeNull();
    expect(audioFileName('/audio/../x')).toBeNull();
  });
});
