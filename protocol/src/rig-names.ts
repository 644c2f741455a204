/**
 * The one bone and morph-name matcher (issue 13 §4), used by the server's upload report and the
 * client's animation engine so both read a model the same way: exact tables for the conventions
 * we know (Mixamo with its three prefix spellings, Ready Player Me, VRM, Unreal, Blender/Rigify),
 * then fuzzy tokens for the rest (`thumb_proximal.L`, `Left knee`). Names only: no three.js, no
 * glTF-Transform; each side hands in the names (and depths) it read.
 */
import { ARKIT_MORPHS, CANONICAL_BONES, FINGERS, VISEME_MORPHS } from './rig.ts';

export type Side = 'Left' | 'Right';

/** Every canonical bone, fingers included (`LeftHandIndex1` …). */
export const ALL_CANONICAL_BONES: readonly string[] = [
  ...CANONICAL_BONES,
  ...(['Left', 'Right'] as const).flatMap((side) =>
    FINGERS.flatMap((finger) => [1, 2, 3].map((n) => `${side}Hand${finger}${n}`)),
  ),
];

const VRM_PARTS: Record<string, string> = {
  Hips: 'C_Hips',
  Spine: 'C_Spine',
  Spine1: 'C_Chest',
  Spine2: 'C_UpperChest',
  Neck: 'C_Neck',
  Head: 'C_Head',
};
const VRM_SIDED: Record<string, string> = {
  Shoulder: 'Shoulder',
  Arm: 'UpperArm',
  ForeArm: 'LowerArm',
  Hand: 'Hand',
  UpLeg: 'UpperLeg',
  Leg: 'LowerLeg',
  Foot: 'Foot',
  ToeBase: 'ToeBase',
};
const HUMANOID_SIDED: Record<string, string[]> = {
  Shoulder: ['Shoulder'],
  Arm: ['UpperArm'],
  ForeArm: ['LowerArm'],
  Hand: ['Hand'],
  UpLeg: ['UpperLeg'],
  Leg: ['LowerLeg'],
  Foot: ['Foot'],
  ToeBase: ['Toes'],
  Eye: ['Eye'],
};
const UNREAL_SIDED: Record<string, string> = {
  Shoulder: 'clavicle',
  Arm: 'upperarm',
  ForeArm: 'lowerarm',
  Hand: 'hand',
  UpLeg: 'thigh',
  Leg: 'calf',
  Foot: 'foot',
  ToeBase: 'ball',
};

/** Exact names by convention: canonical → candidate node names. */
export function exactCandidates(canonical: string): { mixamo: string[]; humanoid: string[] } {
  const mixamo = [`mixamorig:${canonical}`, `mixamorig${canonical}`, `mixamorig_${canonical}`];
  const humanoid: string[] = [];
  const sided = /^(Left|Right)(.+)$/.exec(canonical);
  if (sided) {
    const side = sided[1] as Side;
    const part = sided[2] ?? '';
    const s = side === 'Left' ? 'L' : 'R';
    const lower = side.toLowerCase();
    const vrm = VRM_SIDED[part];
    if (vrm) humanoid.push(`J_Bip_${s}_${vrm}`);
    for (const h of HUMANOID_SIDED[part] ?? []) humanoid.push(`${lower}${h}`);
    const ue = UNREAL_SIDED[part];
    if (ue) humanoid.push(`${ue}_${s.toLowerCase()}`);
    if (part === 'Eye') humanoid.push(`J_Adj_${s}_FaceEye`);
    const finger = /^Hand(Thumb|Index|Middle|Ring|Pinky)([123])$/.exec(part);
    if (finger) {
      const name = finger[1] === 'Pinky' ? 'Little' : (finger[1] ?? '');
      humanoid.push(`J_Bip_${s}_${name}${finger[2] ?? ''}`);
    }
  } else {
    const vrm = VRM_PARTS[canonical];
    if (vrm) humanoid.push(`J_Bip_${vrm}`);
    humanoid.push(canonical.charAt(0).toLowerCase() + canonical.slice(1));
    if (canonical === 'Hips') humanoid.push('pelvis');
    if (canonical === 'Spine1') humanoid.push('chest');
    if (canonical === 'Spine2') humanoid.push('upperChest');
    if (canonical === 'Spine') humanoid.push('spine_01');
    if (canonical === 'Neck') humanoid.push('neck_01');
  }
  return { mixamo: [...mixamo, canonical], humanoid };
}

/** Splits a node name into lowercase tokens: camelCase, separators, `.L` suffixes. */
export function tokenize(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_:.\-|/]+/)
    .map((t) => t.toLowerCase())
    .filter((t) => t.length > 0);
}

const LEFT = new Set(['left', 'l', 'lft', 'lt']);
const RIGHT = new Set(['right', 'r', 'rgt', 'rt']);
const NOISE = new Set([
  'mixamorig',
  'mixamorig1',
  'bip',
  'bip01',
  'bip001',
  'j',
  'c',
  'def',
  'org',
  'jnt',
  'joint',
  'bone',
  'b',
  'adj',
  'cc',
  'base',
  'rig',
  'armature',
  'ctrl',
]);

/** Parts (side-less canonical suffixes) keyed by the joined tokens that name them. */
const PART_BY_KEY: Record<string, string> = {
  hips: 'Hips',
  hip: 'Hips',
  pelvis: 'Hips',
  neck: 'Neck',
  neck1: 'Neck',
  head: 'Head',
  jaw: 'Jaw',
  lowerjaw: 'Jaw',
  eye: 'Eye',
  faceeye: 'Eye',
  eyeball: 'Eye',
  shoulder: 'Shoulder',
  clavicle: 'Shoulder',
  collar: 'Shoulder',
  collarbone: 'Shoulder',
  arm: 'Arm',
  upperarm: 'Arm',
  uparm: 'Arm',
  forearm: 'ForeArm',
  lowerarm: 'ForeArm',
  loarm: 'ForeArm',
  elbow: 'ForeArm',
  hand: 'Hand',
  wrist: 'Hand',
  upleg: 'UpLeg',
  upperleg: 'UpLeg',
  thigh: 'UpLeg',
  leg: 'Leg',
  lowerleg: 'Leg',
  calf: 'Leg',
  shin: 'Leg',
  knee: 'Leg',
  foot: 'Foot',
  ankle: 'Foot',
  toebase: 'ToeBase',
  toe: 'ToeBase',
  toes: 'ToeBase',
  ball: 'ToeBase',
};
const SPINE_KEYS = /^(spine\d*|chest|upperchest|upperbody|torso)$/;
const FINGER_RE =
  /^(?:hand|finger)?(thumb|index|middle|ring|pinky|little)(?:finger)?(\d|proximal|intermediate|distal|metacarpal)$/;
const SEGMENT: Record<string, number> = { proximal: 1, intermediate: 2, distal: 3 };

export interface FuzzyName {
  side: Side | null;
  /** Side-less part (`Arm`, `HandIndex1`), `Spine*` for a spine-chain node, or null. */
  part: string | null;
  key: string;
}

/** Reads side and part from a node name by tokens. */
export function fuzzyName(name: string): FuzzyName {
  let side: Side | null = null;
  const rest: string[] = [];
  for (const token of tokenize(name)) {
    if (LEFT.has(token)) side = 'Left';
    else if (RIGHT.has(token)) side = 'Right';
    else if (!NOISE.has(token)) rest.push(token.replace(/^0+(\d)/, '$1'));
  }
  const key = rest.join('').replace(/(\D)0+(\d)/g, '$1$2');
  if (SPINE_KEYS.test(key)) return { side, part: 'Spine*', key };
  const finger = FINGER_RE.exec(key);
  if (finger) {
    const fingerName = finger[1] === 'little' ? 'Pinky' : capitalise(finger[1] ?? '');
    const seg = finger[2] ?? '';
    const n = SEGMENT[seg] ?? Number(seg);
    if (n >= 1 && n <= 3) return { side, part: `Hand${fingerName}${n}`, key };
    return { side, part: null, key };
  }
  return { side, part: PART_BY_KEY[key] ?? null, key };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Normalises a morph target name for lookup: lowercase, no separators. */
export const morphKey = (name: string): string => name.toLowerCase().replace(/[\s_.:-]/g, '');

/** Canonical morph → extra keys some exporters use (VRM `Fcl_*`, `_L` suffixes, short visemes). */
export function morphAliases(canonical: string): string[] {
  const keys = [morphKey(canonical)];
  const sided = /^(.*)(Left|Right)$/.exec(canonical);
  if (sided) {
    const base = morphKey(sided[1] ?? '');
    const s = sided[2] === 'Left' ? 'l' : 'r';
    keys.push(`${base}${s}`);
  }
  const viseme = /^viseme_(.+)$/.exec(canonical);
  if (viseme) {
    const v = (viseme[1] ?? '').toLowerCase();
    keys.push(`v${v}`);
    const vowel: Record<string, string> = { aa: 'a', e: 'e', i: 'i', o: 'o', u: 'u' };
    const vrm = vowel[v];
    if (vrm)
      keys.push(
        `fclmth${vrm}`,
        vrm === 'a' ? 'aa' : vrm === 'o' ? 'oh' : vrm === 'u' ? 'ou' : vrm === 'e' ? 'ee' : 'ih',
      );
  }
  if (canonical === 'eyeBlinkLeft') keys.push('blinkl', 'blinkleft', 'fcleyeclosel');
  if (canonical === 'eyeBlinkRight') keys.push('blinkr', 'blinkright', 'fcleyecloser');
  if (canonical === 'jawOpen') keys.push('mouthopenjaw');
  return keys;
}

/** Morphs that close both eyes at once; they stand in for eyeBlinkLeft/Right. */
export const COMBINED_BLINK_KEYS = ['blink', 'eyesclosed', 'fcleyeclose', 'eyeblink'];
/** A smile on both sides at once (Ready Player Me's `mouthSmile`); stands in for mouthSmileLeft/Right. */
export const COMBINED_SMILE_KEYS = ['mouthsmile', 'smile', 'fclmthjoy'];

const MIXAMO_PREFIX = /^mixamorig\d*[:_]?/i;

/** True when the model was exported from Mixamo (its bones carry the `mixamorig` prefix). */
export const isMixamoName = (name: string): boolean => MIXAMO_PREFIX.test(name);

/** A bone as a model names it, with its depth in the node hierarchy (orders a spine chain). */
export interface NamedBone {
  name: string;
  depth: number;
}

/** Parts that sit on the body's centre line: a side in their name means they are something else. */
const CENTRE_PARTS = new Set(['Hips', 'Neck', 'Head', 'Jaw']);
const SPINES = ['Spine', 'Spine1', 'Spine2'];

/**
 * Canonical bone → the model's bone name: exact names by convention first, then fuzzy tokens over
 * the bones not taken yet. A spine is matched as a chain (spine_01, spine_02, chest …, ordered by
 * depth) unless Mixamo names it. The first bone of a name wins.
 */
export function matchBones(bones: readonly NamedBone[]): Map<string, string> {
  const depth = new Map<string, number>();
  for (const bone of bones) if (!depth.has(bone.name)) depth.set(bone.name, bone.depth);
  const map = new Map<string, string>();
  for (const canonical of ALL_CANONICAL_BONES) {
    const { mixamo, humanoid } = exactCandidates(canonical);
    const hit = mixamo.find((n) => depth.has(n)) ?? humanoid.find((n) => depth.has(n));
    if (hit) map.set(canonical, hit);
  }
  const mixamoSpine = SPINES.some((c) => {
    const name = map.get(c);
    return name !== undefined && exactCandidates(c).mixamo.includes(name);
  });
  if (!mixamoSpine) for (const c of SPINES) map.delete(c);
  const taken = new Set(map.values());
  const fuzzy = [...depth.keys()].filter((n) => !taken.has(n)).map((n) => ({ n, name: fuzzyName(n) }));
  const kneeSides = new Set(
    fuzzy.flatMap(({ name }) => (name.key === 'knee' && name.side ? [name.side] : [])),
  );
  const spineChain: string[] = [];
  for (const { n, name } of fuzzy) {
    if (!name.part) continue;
    if (name.part === 'Spine*') {
      if (!name.side) spineChain.push(n);
      continue;
    }
    // "Left leg / Left knee / Left ankle": with a knee, `leg` is the thigh.
    const part =
      name.part === 'Leg' && name.key === 'leg' && name.side && kneeSides.has(name.side)
        ? 'UpLeg'
        : name.part;
    const centre = CENTRE_PARTS.has(part);
    const canonical = centre ? (name.side ? null : part) : name.side ? `${name.side}${part}` : null;
    if (canonical && !map.has(canonical)) map.set(canonical, n);
  }
  spineChain.sort((a, b) => (depth.get(a) ?? 0) - (depth.get(b) ?? 0));
  for (const [i, canonical] of SPINES.entries()) {
    const name = spineChain[i];
    if (name && !map.has(canonical)) map.set(canonical, name);
  }
  return map;
}

const FACE_MORPHS: readonly string[] = [...VISEME_MORPHS, ...ARKIT_MORPHS];
const MORPH_ALIASES = new Map<string, string>();
for (const canonical of FACE_MORPHS)
  for (const key of morphAliases(canonical)) if (!MORPH_ALIASES.has(key)) MORPH_ALIASES.set(key, canonical);

/**
 * Canonical morph → the model's morph names that play it (a name may sit on several meshes; the
 * caller binds each). Stand-ins when the model has no own shape: a combined blink for each eye,
 * a combined smile for each side, `mouthOpen` for `jawOpen`.
 */
export function matchMorphs(names: readonly string[]): Map<string, string[]> {
  const morphs = new Map<string, string[]>();
  const add = (canonical: string, name: string) => {
    const list = morphs.get(canonical) ?? [];
    if (!list.includes(name)) list.push(name);
    morphs.set(canonical, list);
  };
  const blink: string[] = [];
  const smile: string[] = [];
  for (const name of names) {
    const key = morphKey(name);
    const canonical = MORPH_ALIASES.get(key);
    if (canonical) add(canonical, name);
    else if (COMBINED_BLINK_KEYS.includes(key)) blink.push(name);
    else if (COMBINED_SMILE_KEYS.includes(key)) smile.push(name);
  }
  const standIn = (canonical: string, by: readonly string[]) => {
    if (!morphs.has(canonical) && by.length) morphs.set(canonical, [...by]);
  };
  for (const side of ['Left', 'Right']) {
    standIn(`eyeBlink${side}`, blink);
    standIn(`mouthSmile${side}`, smile);
  }
  standIn('jawOpen', morphs.get('mouthOpen') ?? []);
  return morphs;
}
