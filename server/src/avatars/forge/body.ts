import { Vector3 } from 'three';
import type { PartList, Slot } from './assemble.ts';
import type { Rig, Side } from './rig.ts';
import { ellipsoid, lathe, mirrorX, tube } from './shapes.ts';
import type { SkinSpec } from './skinning.ts';

/**
 * The body kit: torso, neck, arms with sleeves, hands with five fingers, legs and shoes. Each
 * piece is a smooth surface skinned along its bone chain. Characters pick the pieces and colours
 * and add their own costume on top.
 */

export interface Ctx {
  rig: Rig;
  list: PartList;
}

type ColorFn = string | ((p: Vector3, i: number) => string);

const SPINE_CHAIN = ['Hips', 'Spine', 'Spine1', 'Spine2', 'Neck'];
const spineSkin: SkinSpec = { chain: SPINE_CHAIN, blend: 0.06 };

export const rest = (ctx: Ctx, bone: string): Vector3 => {
  const at = ctx.rig.rest.get(bone);
  if (!at) throw new Error(`forge: no bone ${bone}`);
  return at.clone();
};

export function mirrored(
  ctx: Ctx,
  build: () => ReturnType<typeof ellipsoid>,
  opts: { color: ColorFn; skin: (side: Side) => SkinSpec; slot?: Slot; mesh?: 'Body' | 'Head' },
): void {
  const left = build();
  ctx.list.add(left, { color: opts.color, skin: opts.skin('Left'), slot: opts.slot, mesh: opts.mesh });
  ctx.list.add(mirrorX(left), {
    color: opts.color,
    skin: opts.skin('Right'),
    slot: opts.slot,
    mesh: opts.mesh,
  });
}

export interface TorsoParams {
  /** (half width, y) from the crotch up to the neck base. */
  profile: [number, number][];
  depth?: number;
  color: ColorFn;
  slot?: Slot;
}

export function addTorso(ctx: Ctx, t: TorsoParams): void {
  const g = lathe(t.profile, { depth: t.depth ?? 0.72, segments: 32 });
  ctx.list.add(g, { color: t.color, skin: spineSkin, slot: t.slot ?? 'cloth' });
}

/** Torso outlines, (half width, y) from the crotch to the neck base. */
export const TORSO = {
  female: [
    [0.0, 0.72],
    [0.1, 0.73],
    [0.148, 0.8],
    [0.142, 0.9],
    [0.116, 0.99],
    [0.132, 1.07],
    [0.144, 1.14],
    [0.128, 1.2],
    [0.095, 1.235],
    [0.045, 1.25],
    [0.0, 1.255],
  ] as [number, number][],
  neutral: [
    [0.0, 0.72],
    [0.1, 0.73],
    [0.145, 0.8],
    [0.14, 0.9],
    [0.128, 0.99],
    [0.138, 1.07],
    [0.15, 1.14],
    [0.134, 1.2],
    [0.1, 1.235],
    [0.045, 1.25],
    [0.0, 1.255],
  ] as [number, number][],
};

/** Deterministic value noise in [0, 1) from a position: seeded texture without randomness. */
export function hash3(x: number, y: number, z: number, seed = 0): number {
  const s = Math.sin(x * 127.1 + y * 311.7 + z * 74.7 + seed * 19.19) * 43758.5453;
  return s - Math.floor(s);
}

export function addNeck(ctx: Ctx, radius: number, color: string): void {
  const neck = rest(ctx, 'Neck');
  const head = rest(ctx, 'Head');
  const g = tube(
    [neck.clone().setY(neck.y - 0.05), head.clone().setY(head.y + 0.06)],
    () => [radius, radius * 0.95],
    {
      up: new Vector3(0, 0, 1),
      caps: [false, false],
    },
  );
  ctx.list.add(g, { color, skin: { chain: ['Spine2', 'Neck', 'Head'], blend: 0.03 }, slot: 'skin' });
}

export interface ArmParams {
  skin: string;
  sleeve: string;
  /** Where the sleeve ends: 0 at the shoulder, 1 at the wrist. */
  sleeveEnd: number;
  /** Radii at shoulder, elbow, wrist. */
  radii?: [number, number, number];
  cuff?: string;
  /** Bell sleeve: extra radius at the cuff. */
  flare?: number;
  slot?: Slot;
}

export function addArms(ctx: Ctx, a: ArmParams): void {
  const [r0, r1, r2] = a.radii ?? [0.04, 0.032, 0.027];
  const L = (name: string) => rest(ctx, `Left${name}`);
  const start = L('Arm')
    .clone()
    .setX(L('Arm').x - 0.035);
  const elbow = L('ForeArm');
  const wrist = L('Hand');
  // The forearm may bend forward at rest (rig.ts elbowBend): everything below goes by the
  // distance along the arm, not by x.
  const upper = elbow.distanceTo(start);
  const length = upper + wrist.distanceTo(elbow);
  const e = upper / length;
  const flare = a.flare ?? 0;
  const radius = (t: number): [number, number] => {
    const d = (t - a.sleeveEnd) * length;
    let r = t < e ? r0 + (r1 - r0) * (t / e) : r1 + (r2 - r1) * ((t - e) / (1 - e));
    if (flare > 0 && d < 0) r += flare * Math.max(0, (d + 0.12) / 0.12) ** 2;
    if (d < 0) r += 0.004;
    // The wrist flattens towards the palm's slab (thinner across Y than Z), so the arm's end
    // stays inside the hand rather than bulging out of its back.
    const w = Math.min(1, Math.max(0, (t - 0.8) / 0.2)) ** 2;
    // The last few centimetres narrow into the wrist, which ends inside the palm's heel: no lip
    // where the arm meets the hand.
    const n = Math.min(1, Math.max(0, ((t - 1) * length + 0.03) / 0.03));
    const wristIn = 1 - 0.2 * n * n * (3 - 2 * n);
    return [r * (1 - 0.34 * w) * wristIn, r * (1.02 - 0.12 * w) * wristIn];
  };
  const forearm = wrist.clone().sub(elbow).normalize();
  const g = tube([start, elbow, wrist.clone().addScaledVector(forearm, 0.002)], radius, {
    radial: 16,
    perSegment: 8,
    capReach: 0.3,
  });
  const along = (p: Vector3) => {
    const q = p.clone().setX(Math.abs(p.x));
    const onUpper = q.clone().sub(start).dot(elbow.clone().sub(start)) / upper;
    return onUpper < upper ? onUpper / length : e + q.clone().sub(elbow).dot(forearm) / length;
  };
  const color = (p: Vector3) => (along(p) < a.sleeveEnd ? a.sleeve : a.skin);
  const chain = (side: Side): SkinSpec => ({
    chain: [`${side}Shoulder`, `${side}Arm`, `${side}ForeArm`, `${side}Hand`],
    blend: 0.065,
  });
  mirrored(ctx, () => g, { color, skin: chain, slot: a.slot ?? 'cloth' });
  if (a.cuff && a.sleeveEnd < 1) {
    const rc = radius(a.sleeveEnd)[0] + 0.004;
    const at = (t: number) =>
      t < e ? start.clone().lerp(elbow, t / e) : elbow.clone().addScaledVector(forearm, (t - e) * length);
    const cuff = tube([at(a.sleeveEnd - 0.012 / length), at(a.sleeveEnd + 0.004 / length)], () => [rc, rc], {
      radial: 16,
      perSegment: 2,
      caps: [false, false],
    });
    mirrored(ctx, () => cuff, { color: a.cuff, skin: chain, slot: 'cloth' });
  }
}

export interface LegParams {
  /** Colour by height: pants, skin, socks… */
  color: (y: number) => string;
  /** Radii at hip, knee, ankle. */
  radii?: [number, number, number];
  slot?: Slot;
}

export function addLegs(ctx: Ctx, l: LegParams): void {
  const [r0, r1, r2] = l.radii ?? [0.07, 0.05, 0.036];
  const hip = rest(ctx, 'LeftUpLeg');
  const knee = rest(ctx, 'LeftLeg');
  const ankle = rest(ctx, 'LeftFoot');
  const top = hip.clone().add(new Vector3(-0.01, 0.06, 0));
  const length = top.y - ankle.y;
  const kneeT = (top.y - knee.y) / length;
  const g = tube(
    [top, knee, ankle.clone().setY(ankle.y - 0.01)],
    (t) => {
      const r =
        t < kneeT
          ? r0 + (r1 - r0) * Math.sin((t / kneeT) * Math.PI * 0.5)
          : r1 + (r2 - r1) * ((t - kneeT) / (1 - kneeT));
      return [r, r];
    },
    { radial: 16, perSegment: 8 },
  );
  mirrored(ctx, () => g, {
    color: (p) => l.color(p.y),
    skin: (s) => ({ chain: ['Hips', `${s}UpLeg`, `${s}Leg`, `${s}Foot`], blend: 0.06 }),
    slot: l.slot ?? 'cloth',
  });
}

export interface ShoeParams {
  color: string;
  sole?: string;
  /** Boot shaft height above the ankle (0 = shoe). */
  shaft?: number;
  shaftColor?: string;
  size?: number;
  slot?: Slot;
}

export function addShoes(ctx: Ctx, s: ShoeParams): void {
  const k = s.size ?? 1;
  const ankle = rest(ctx, 'LeftFoot');
  const skin = (side: Side): SkinSpec => ({ chain: [`${side}Foot`, `${side}ToeBase`], blend: 0.03 });
  const shoe = ellipsoid([0.048 * k, 0.042 * k, 0.1 * k], { at: [ankle.x, 0.042 * k, 0.04] }, [18, 12]);
  // Flatten the underside so the shoe stands on the floor.
  const pos = shoe.getAttribute('position');
  for (let i = 0; i < pos.count; i++)
    if (pos.getY(i) < 0.012) pos.setY(i, 0.012 - (0.012 - pos.getY(i)) * 0.15);
  shoe.computeVertexNormals();
  mirrored(ctx, () => shoe, { color: s.color, skin, slot: s.slot ?? 'gloss' });
  if (s.sole) {
    const sole = ellipsoid([0.05 * k, 0.012, 0.104 * k], { at: [ankle.x, 0.011, 0.04] }, [18, 8]);
    mirrored(ctx, () => sole, { color: s.sole, skin, slot: 'cloth' });
  }
  if (s.shaft) {
    const h = s.shaft;
    const boot = tube(
      [new Vector3(ankle.x, 0.03, 0.0), new Vector3(ankle.x, ankle.y + h, 0)],
      (t) => [0.045 * k + 0.006 * t, 0.048 * k + 0.006 * t],
      { radial: 16, perSegment: 4 },
    );
    mirrored(ctx, () => boot, {
      color: s.shaftColor ?? s.color,
      skin: (side) => ({ chain: [`${side}Leg`, `${side}Foot`], blend: 0.04 }),
      slot: s.slot ?? 'gloss',
    });
  }
}

/** A skirt or dress hem: a flared surface of revolution on the hips. */
export function addSkirt(
  ctx: Ctx,
  k: {
    top: number;
    bottom: number;
    topR: number;
    bottomR: number;
    color: ColorFn;
    depth?: number;
    wave?: number;
    slot?: Slot;
  },
): void {
  const steps = 10;
  const profile: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const y = k.top + (k.bottom - k.top) * t;
    const r = k.topR + (k.bottomR - k.topR) * Math.sin((t * Math.PI) / 2) ** 1.3;
    profile.push([r, y]);
  }
  profile.reverse();
  const g = lathe(profile, { depth: k.depth ?? 0.85, segments: 40 });
  if (k.wave) {
    // Soft folds towards the hem.
    const pos = g.getAttribute('position');
    for (let i = 0; i < pos.count; i++) {
      const x = pos.getX(i);
      const z = pos.getZ(i);
      const y = pos.getY(i);
      const t = (k.top - y) / (k.top - k.bottom);
      const a = Math.atan2(z, x);
      const f = 1 + k.wave * t * t * Math.sin(a * 9);
      pos.setX(i, x * f);
      pos.setZ(i, z * f);
    }
    g.computeVertexNormals();
  }
  ctx.list.add(g, {
    color: k.color,
    skin: { chain: ['Hips', 'Spine'], blend: 0.05 },
    slot: k.slot ?? 'cloth',
  });
}
