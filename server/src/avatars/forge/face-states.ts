/**
 * The facial states the forge draws: each morph target is the face in one of these states
 * (eyes open/wide/squinting, brows raised or lowered, the mouth's opening, width, roundness,
 * smile and frown), so visemes and ARKit shapes share one parametric face.
 */
import { ARKIT_MORPHS, VISEME_MORPHS } from '@alma/protocol';

export const VISEMES = VISEME_MORPHS;

export const FACE_SHAPES = ARKIT_MORPHS;

export const MORPH_NAMES: readonly string[] = [...VISEMES, ...FACE_SHAPES];

export interface EyeState {
  open: number;
  wide: number;
  squint: number;
}
export interface BrowState {
  innerUp: number;
  down: number;
  outerUp: number;
}
export interface MouthState {
  open: number;
  wide: number;
  round: number;
  smileL: number;
  smileR: number;
  frownL: number;
  frownR: number;
  teeth: number;
  tongue: number;
  press: number;
}
export interface FaceState {
  eye: { L: EyeState; R: EyeState };
  brow: { L: BrowState; R: BrowState };
  mouth: MouthState;
}

const MOUTH_SHAPES: Record<string, Partial<MouthState>> = {
  viseme_sil: {},
  viseme_PP: { press: 1 },
  viseme_FF: { open: 0.16, teeth: 0.8, wide: 0.08 },
  viseme_TH: { open: 0.26, tongue: 0.9 },
  viseme_DD: { open: 0.3, teeth: 0.45, wide: 0.1 },
  viseme_kk: { open: 0.38, tongue: 0.5 },
  viseme_CH: { open: 0.3, round: 0.45, teeth: 0.7 },
  viseme_SS: { open: 0.15, wide: 0.28, teeth: 0.9 },
  viseme_nn: { open: 0.22, tongue: 0.6 },
  viseme_RR: { open: 0.3, round: 0.55 },
  viseme_aa: { open: 1 },
  viseme_E: { open: 0.5, wide: 0.3, teeth: 0.45 },
  viseme_I: { open: 0.32, wide: 0.45, teeth: 0.55 },
  viseme_O: { open: 0.75, round: 0.85 },
  viseme_U: { open: 0.35, round: 1 },
  jawOpen: { open: 0.9 },
  mouthOpen: { open: 0.6 },
  mouthPucker: { round: 1, open: 0.04 },
  mouthSmileLeft: { smileL: 1 },
  mouthSmileRight: { smileR: 1 },
  mouthFrownLeft: { frownL: 1 },
  mouthFrownRight: { frownR: 1 },
};

export function neutralState(): FaceState {
  const eye = (): EyeState => ({ open: 1, wide: 0, squint: 0 });
  const brow = (): BrowState => ({ innerUp: 0, down: 0, outerUp: 0 });
  return {
    eye: { L: eye(), R: eye() },
    brow: { L: brow(), R: brow() },
    mouth: {
      open: 0,
      wide: 0,
      round: 0,
      smileL: 0,
      smileR: 0,
      frownL: 0,
      frownR: 0,
      teeth: 0,
      tongue: 0,
      press: 0,
    },
  };
}

export function stateFor(morph: string): FaceState {
  const s = neutralState();
  const side = morph.endsWith('Left') ? 'L' : morph.endsWith('Right') ? 'R' : null;
  if (morph.startsWith('eyeBlink') && side) s.eye[side].open = 0;
  else if (morph.startsWith('eyeWide') && side) s.eye[side].wide = 1;
  else if (morph.startsWith('eyeSquint') && side) s.eye[side].squint = 1;
  else if (morph === 'browInnerUp') s.brow.L.innerUp = s.brow.R.innerUp = 1;
  else if (morph.startsWith('browDown') && side) s.brow[side].down = 1;
  else if (morph.startsWith('browOuterUp') && side) s.brow[side].outerUp = 1;
  else Object.assign(s.mouth, MOUTH_SHAPES[morph] ?? {});
  return s;
}
