import {
  AVATAR_CAPABILITIES as CAPABILITIES,
  EXPRESSION_MORPHS,
  FULL_FINGER_BONES,
  VISEME_MORPHS,
  judgeRig,
  type AnimationConfig,
  type AvatarCapability as Capability,
  type AvatarReportWarning,
  type CompatibilityReport,
  type RigMetadata,
} from '@alma/protocol';
import type { ModelInspection, Vec3 } from './inspect.ts';

/**
 * From an inspection to what the avatar can do: the rig type and base pose (spec §3, §4), a
 * compatibility score 0–100 and a report of what works and what is missing (issue #7). The score
 * weighs what the animation engine drives: body, lip sync, blinks, expressions, hands, eyes, jaw.
 * What the model can do is the protocol's `judgeRig`, the judge the client's engine asks too.
 */

type BasePose = RigMetadata['basePose'];

const WEIGHTS: Record<Capability, number> = {
  skeleton: 35,
  visemes: 20,
  blink: 10,
  expressions: 10,
  fingers: 10,
  eyes: 5,
  jaw: 5,
  pose: 5,
};

export interface Analysis {
  rig: RigMetadata;
  report: CompatibilityReport;
  /** What the client's animation engine should do with this model. */
  animationConfig: AnimationConfig;
}

/** T-pose when the upper arm points within 20° of horizontal, A-pose down to 65°. */
export function detectPose(world: Record<string, Vec3>, map: ReadonlyMap<string, string>): BasePose {
  const angles: number[] = [];
  for (const side of ['Left', 'Right']) {
    const arm = world[map.get(`${side}Arm`) ?? ''];
    const fore = world[map.get(`${side}ForeArm`) ?? ''];
    if (!arm || !fore) continue;
    const [dx, dy, dz] = [fore[0] - arm[0], fore[1] - arm[1], fore[2] - arm[2]];
    const horizontal = Math.hypot(dx, dz);
    if (horizontal + Math.abs(dy) === 0) continue;
    angles.push((Math.atan2(-dy, horizontal) * 180) / Math.PI);
  }
  if (!angles.length) return 'unknown';
  const mean = angles.reduce((a, b) => a + b, 0) / angles.length;
  if (Math.abs(mean) <= 20) return 'T';
  if (mean > 20 && mean <= 65) return 'A';
  return 'unknown';
}

/** What processing did to the model before the analysis, for the report (SPEC.md AU-12). */
export interface ProcessingNotes {
  repaired: { code: string; count: number }[];
  removedAnimations: number;
  droppedExtensions: string[];
}

const NO_NOTES: ProcessingNotes = { repaired: [], removedAnimations: 0, droppedExtensions: [] };

export function analyse(model: ModelInspection, notes: ProcessingNotes = NO_NOTES): Analysis {
  const skinned = model.skins > 0 && model.bones.length > 0;
  const judged = judgeRig({
    bones: model.bones.map((name) => ({ name, depth: model.boneDepth[name] ?? 0 })),
    morphs: model.morphTargets,
    skinned,
  });
  const map = judged.boneMap;
  const { rigType, missingCoreBones, coreCoverage, visemes } = judged;
  const basePose = skinned ? detectPose(model.boneWorld, map) : 'unknown';

  const coverage: Record<Capability, number> = {
    skeleton: coreCoverage,
    visemes: visemes.length / VISEME_MORPHS.length,
    blink: judged.blinkingEyes / 2,
    expressions: judged.expressions.length / EXPRESSION_MORPHS.length,
    fingers: Math.min(1, judged.fingerBones / FULL_FINGER_BONES),
    eyes: judged.eyes === 'bones' ? 1 : judged.eyes === 'morphs' ? 0.5 : 0,
    jaw: judged.jaw ? 1 : 0,
    pose: basePose === 'unknown' ? 0 : 1,
  };
  const capabilities = CAPABILITIES.map((id) => ({
    id,
    coverage: round2(coverage[id]),
    works: coverage[id] >= 0.5,
  }));
  const score = Math.round(CAPABILITIES.reduce((sum, id) => sum + WEIGHTS[id] * coverage[id], 0));

  // What the avatar cannot do, said plainly (AU-14): nothing to pose and nothing to shape is a
  // static mesh — it neither speaks nor gestures.
  const warnings: AvatarReportWarning[] = [];
  if (!skinned && model.morphTargets.length === 0) warnings.push('static_mesh');
  if (!skinned) warnings.push('no_skeleton');
  else if (missingCoreBones.length) warnings.push('missing_core_bones');
  if (judged.lipSync === 'none') warnings.push('no_lip_sync');
  if (model.vertexCount > 100_000) warnings.push('heavy_mesh');
  if (model.textures.some((t) => (t.width ?? 0) > 2048 || (t.height ?? 0) > 2048))
    warnings.push('large_textures');

  return {
    rig: {
      rigType,
      skinned,
      basePose,
      boneMap: Object.fromEntries(map),
      missingCoreBones,
      boneCount: model.bones.length,
      morphTargets: model.morphTargets,
      visemes,
      vertexCount: model.vertexCount,
      textures: model.textures.length,
    },
    report: {
      score,
      capabilities,
      works: capabilities.filter((c) => c.works).map((c) => c.id),
      missing: capabilities.filter((c) => !c.works).map((c) => c.id),
      warnings,
      repaired: notes.repaired,
      removedAnimations: notes.removedAnimations,
      droppedExtensions: notes.droppedExtensions,
    },
    animationConfig: {
      lipSync: judged.lipSync,
      blink: judged.blinkingEyes > 0,
      expressions: judged.expressions.length > 0,
      gestures: judged.gestures,
      fingers: judged.fingers,
      armsDownFromPose: basePose,
    },
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
