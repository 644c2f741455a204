import type { MaterialLook, PartList, Slot } from './assemble.ts';
import type { Ctx } from './body.ts';
import type { FaceParams } from './face.ts';
import type { HeadShape, HeadShapeParams } from './head.ts';
import type { Proportions } from './rig.ts';

/** One character of the forge: measurements, skull, face and the costume it builds. */
export interface CharacterSpec {
  id: string;
  proportions?: Partial<Proportions>;
  /** The skull; its centre is relative to the Head bone. */
  head: Omit<HeadShapeParams, 'center'> & { lift: number; forward?: number; slot?: Slot; color?: string };
  face: FaceParams;
  look?: MaterialLook;
  /** Head scale about the neck; forge.ts HEAD_SCALE by default. */
  headScale?: number;
  build(ctx: CharacterCtx): void;
}

export interface CharacterCtx extends Ctx {
  head: HeadShape;
  list: PartList;
}
