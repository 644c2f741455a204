/**
 * Speech: the mouth follows the MouthSource with coarticulation — the next viseme is anticipated
 * before its onset (when the source says which one comes next) and every viseme rises with a
 * short attack and falls with a slower release, so neighbouring shapes overlap as in real speech.
 * Without visemes an audio level opens the jaw. While speaking, the head moves a little.
 */
import { VISEME_NAMES } from '@alma/protocol';
import type { MouthSource } from '../contract';
import type { Vec3 } from '../math';
import { clamp01 } from '../math';

/** The 15 visemes by short name (`viseme_` + name is the morph). */
export const VISEMES = VISEME_NAMES;

/** How far each viseme opens the jaw (0–1), for jawOpen / Jaw bone fallbacks and smile sharing. */
export const OPENNESS: Readonly<Record<string, number>> = {
  sil: 0,
  PP: 0,
  FF: 0.1,
  TH: 0.2,
  DD: 0.3,
  kk: 0.35,
  CH: 0.3,
  SS: 0.15,
  nn: 0.2,
  RR: 0.3,
  aa: 1,
  E: 0.6,
  I: 0.45,
  O: 0.8,
  U: 0.4,
};
/** How much each viseme needs the lips together or rounded (a smile gives way). */
export const LIP_SHAPE: Readonly<Record<string, number>> = { PP: 1, FF: 0.6, U: 0.5, O: 0.35, CH: 0.3 };

export const ATTACK_MS = 30;
export const RELEASE_MS = 70;
/** Jaw bone rotation (rad) at full openness. */
const JAW_BONE_OPEN = 0.22;

/** A richer mouth reading: the current viseme and, when known, the next one and how near it is. */
export type MouthFrame = ReturnType<NonNullable<MouthSource['getMouthFrame']>>;

/** A MouthSource that also says what comes next (chat/audio/queue.ts `getMouthFrame`). */
export type CoarticulatedMouthSource = MouthSource & Required<Pick<MouthSource, 'getMouthFrame'>>;

/** `viseme_aa`, `AA`, `aa` → `aa`; unknown names → null. */
export function shortViseme(name: string): string | null {
  const bare = name.startsWith('viseme_') ? name.slice(7) : name;
  if ((VISEMES as readonly string[]).includes(bare)) return bare;
  const found = VISEMES.find((v) => v.toLowerCase() === bare.toLowerCase());
  return found ?? null;
}

/** The target viseme weights the source asks for now. */
export function mouthTargets(source: MouthSource | null): { targets: Record<string, number>; level: number } {
  const targets: Record<string, number> = {};
  if (!source) return { targets, level: 0 };
  const frame: MouthFrame = source.getMouthFrame?.() ?? source.getMouthState();
  const blend = clamp01(frame.blend ?? 0);
  const current = shortViseme(frame.viseme);
  if (current) targets[current] = clamp01(frame.weight) * (1 - blend);
  const next = frame.next ? shortViseme(frame.next) : null;
  if (next && blend > 0) targets[next] = (targets[next] ?? 0) + clamp01(frame.nextWeight ?? 1) * blend;
  const level = clamp01(source.getLevel?.() ?? 0);
  return { targets, level };
}

/** One smoothing step toward `targets` (attack when rising, release when falling). */
export function smoothMouth(
  previous: Record<string, number>,
  targets: Record<string, number>,
  dtMs: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  const dt = Math.max(0, dtMs);
  const attack = 1 - Math.exp(-dt / ATTACK_MS);
  const release = 1 - Math.exp(-dt / RELEASE_MS);
  for (const v of VISEMES) {
    const from = previous[v] ?? 0;
    const to = targets[v] ?? 0;
    const next = from + (to - from) * (to > from ? attack : release);
    if (next > 1e-3) out[v] = next;
  }
  return out;
}

export interface SpeechOutput {
  /** Viseme weights by short name (after the override and the level fallback). */
  visemes: Record<string, number>;
  /** How open the mouth is 0–1 and how busy it is with speech 0–1. */
  openness: number;
  lipShape: number;
  activity: number;
  /** Head micro-motion while speaking (additive). */
  additive: Record<string, Vec3>;
  jaw: number;
}

export function speechLayer(
  mouth: Record<string, number>,
  level: number,
  override: string | null,
  speaking: number,
  tMs: number,
  still: boolean,
): SpeechOutput {
  let visemes: Record<string, number> = mouth;
  const held = override ? shortViseme(override) : null;
  if (held) visemes = { [held]: 1 };
  let spoken = 0;
  for (const v of VISEMES) if (v !== 'sil') spoken += visemes[v] ?? 0;
  if (!held && spoken < 0.05 && level > 0) {
    // No visemes in this chunk: the audio envelope opens the mouth on a neutral vowel.
    visemes = { ...visemes, aa: 0.7 * level, E: 0.2 * level };
    spoken = 0.9 * level;
  }
  let openness = 0;
  let lipShape = 0;
  for (const v of VISEMES) {
    const w = visemes[v] ?? 0;
    openness += w * (OPENNESS[v] ?? 0);
    lipShape += w * (LIP_SHAPE[v] ?? 0);
  }
  openness = clamp01(openness);
  const additive: Record<string, Vec3> = {};
  if (speaking > 0 && !still) {
    const beat = Math.sin((Math.PI * 2 * tMs) / 590);
    const drift = Math.sin((Math.PI * 2 * tMs) / 1700);
    additive.Head = [
      (0.025 * beat + 0.04 * openness) * speaking,
      0.03 * drift * speaking,
      0.015 * beat * speaking,
    ];
    additive.Neck = [0.012 * openness * speaking, 0, 0];
    additive.Spine2 = [0.01 * beat * speaking, 0.012 * drift * speaking, 0];
  }
  return {
    visemes,
    openness,
    lipShape: clamp01(lipShape),
    activity: clamp01(spoken),
    additive,
    jaw: openness * JAW_BONE_OPEN,
  };
}
