import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createAvatarAnimator,
  VISEME_MORPHS,
  type MouthSource,
} from '../../client/src/features/avatar/engine/index.ts';
import type {
  CoarticulatedMouthSource,
  MouthFrame,
} from '../../client/src/features/avatar/engine/layers/speech.ts';
import { mouthFrameAt } from '../../client/src/features/chat/audio/mouth.ts';
import {
  buildRig,
  morphWeight,
  READY_PLAYER_ME_MORPHS,
} from '../../client/src/features/avatar/engine/testing/rigs.ts';

/**
 * A recorded reply drives the avatar engine: the `speech:chunk` events of conversation-en.jsonl
 * are laid end to end on the speech timeline, read at simulated playback times by a MouthSource
 * (the speech queue's job in the app) and fed to the animator frame by frame; the viseme morph
 * that dominates the mesh must follow the recorded track.
 */
interface Viseme {
  t: number;
  v: string;
  w: number;
}

function recordedTrack(): { durationMs: number; visemes: Viseme[]; chunks: number } {
  const text = readFileSync(new URL('./conversation-en.jsonl', import.meta.url), 'utf8');
  const visemes: Viseme[] = [];
  let offset = 0;
  let chunks = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { event: string; payload: { durationMs?: number; visemes?: Viseme[] } };
    if (entry.event !== 'speech:chunk') continue;
    chunks += 1;
    for (const v of entry.payload.visemes ?? []) visemes.push({ ...v, t: v.t + offset });
    offset += entry.payload.durationMs ?? 0;
  }
  return { durationMs: offset, visemes, chunks };
}

/** Reads the track at `clock.ms`, as the speech queue reads its chunks at AudioContext time. */
function trackSource(
  visemes: Viseme[],
  durationMs: number,
  clock: { ms: number },
  coarticulated: boolean,
): MouthSource {
  const at = (): MouthFrame =>
    clock.ms >= durationMs
      ? { viseme: 'sil', weight: 0, next: null, nextWeight: 0, blend: 0 }
      : mouthFrameAt(visemes, clock.ms);
  const simple: MouthSource = { getMouthState: () => ({ viseme: at().viseme, weight: at().weight }) };
  if (!coarticulated) return simple;
  const rich: CoarticulatedMouthSource = { ...simple, getMouthFrame: at };
  return rich;
}

function dominantViseme(mesh: Parameters<typeof morphWeight>[0]): { name: string; weight: number } {
  let best = { name: 'none', weight: 0 };
  for (const name of VISEME_MORPHS) {
    if (name === 'viseme_sil') continue;
    const weight = morphWeight(mesh, name);
    if (weight > best.weight) best = { name, weight };
  }
  return best;
}

describe('avatar lip-sync from a recorded reply', () => {
  it.each([
    ['getMouthState', false],
    ['getMouthFrame (coarticulated)', true],
  ])('the dominant viseme morph follows the speech:chunk track (%s)', (_label, coarticulated) => {
    const { durationMs, visemes, chunks } = recordedTrack();
    expect(chunks).toBeGreaterThan(3);
    const { root, mesh } = buildRig({ morphs: READY_PLAYER_ME_MORPHS });
    if (!mesh) throw new Error('no mesh');
    const animator = createAvatarAnimator(root, { pool: null, seed: 1 });
    const clock = { ms: 0 };
    animator.setMouthSource(trackSource(visemes, durationMs, clock, coarticulated));
    animator.setSpeaking(true);
    let checked = 0;
    let matched = 0;
    for (let t = 0; t <= durationMs; t += 1000 / 60) {
      clock.ms = t;
      animator.update(1000 + t);
      const index = visemes.findLastIndex((v) => v.t <= t);
      const current = visemes[index];
      const next = visemes[index + 1];
      // Judge frames at least 35 ms into a spoken viseme (the attack has had its time).
      if (!current || current.v === 'sil' || current.w < 0.3 || t - current.t < 35) continue;
      checked += 1;
      const dominant = dominantViseme(mesh);
      const anticipated = coarticulated && next && next.t - t < 30 ? `viseme_${next.v}` : null;
      const follows = dominant.name === `viseme_${current.v}` || dominant.name === anticipated;
      if (follows && dominant.weight > 0.4 * current.w) matched += 1;
    }
    expect(checked).toBeGreaterThan(40);
    expect(matched / checked).toBeGreaterThan(0.85);
    // After the reply the mouth closes (release).
    clock.ms = durationMs + 1;
    for (let t = 0; t < 400; t += 1000 / 60) animator.update(1000 + durationMs + 100 + t);
    expect(dominantViseme(mesh).weight).toBeLessThan(0.05);
  });
});
