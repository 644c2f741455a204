import { Matrix4, Vector3 } from 'three';
import type { Slot } from './assemble.ts';
import { mirrored, rest, type Ctx } from './body.ts';
import { mix } from './face.ts';
import { FINGER_NAMES, forearmBend } from './rig.ts';
import { ellipsoid, tube } from './shapes.ts';

/**
 * Hands: a soft palm slab with a thumb mound, five fingers that taper with a slight swell at
 * each knuckle and end in round tips with nails. Every finger follows its
 * bones (rig.ts lays them in a relaxed curl) and is weighted along them, so the fingers bend at
 * the knuckles when the engine curls them — a fist, an open wave.
 */

export interface HandParams {
  color: string;
  /** Thicker, stubbier fingers (golem, robots), as a factor on their radius. */
  chunky?: number;
  /** Nail colour; `null` for none (gloves, robots). Default: the skin lightened. */
  nails?: string | null;
  slot?: Slot;
}

/** Finger radius (across the finger, metres) before `chunky` and the rig's `handScale`. */
const FINGER_RADIUS: Record<(typeof FINGER_NAMES)[number], number> = {
  Thumb: 0.0086,
  Index: 0.0074,
  Middle: 0.0076,
  Ring: 0.0071,
  Pinky: 0.0062,
};

const bump = (x: number, width: number) => Math.exp(-((x / width) ** 2));

export function addHands(ctx: Ctx, h: HandParams): void {
  const k = h.chunky ?? 1;
  const hs = ctx.rig.proportions.handScale;
  const slot = h.slot ?? 'skin';
  // Built as if the forearm were straight (fingers along +X, palm down), then turned with it.
  const bend = forearmBend(ctx.rig.proportions);
  const straighten = bend.clone().invert();
  const restStraight = (bone: string) => rest(ctx, bone).applyMatrix4(straighten);
  const wrist = restStraight('LeftHand');
  const palmLen = ctx.rig.proportions.palmLength * hs;
  const up = new Vector3(0, 1, 0);

  // The palm: a rounded slab widening from the wrist to the knuckles, a little thinner there,
  // with the thumb's mound swelling its thumb side (+Z) and underside near the heel.
  const palm = tube(
    [
      wrist.clone().add(new Vector3(-0.016 * hs, -0.002 * hs, 0)),
      wrist.clone().add(new Vector3(palmLen * 0.93, 0, 0)),
    ],
    (t) => {
      const s = t * t * (3 - 2 * t);
      // The heel starts inside the wrist, smaller than it, and swells slowly into the palm, so
      // the two meet at a shallow angle rather than in a ridge.
      const h = Math.min(1, t / 0.45);
      const heel = 0.66 + 0.34 * h * h * (3 - 2 * h);
      return [(0.0235 + 0.0055 * s) * hs * Math.sqrt(k) * heel, (0.0145 - 0.0047 * s) * hs * k * heel];
    },
    { radial: 24, perSegment: 6, up, exponent: 2.6, capReach: 0.6, caps: [false, true] },
  );
  const pos = palm.getAttribute('position');
  for (let i = 0; i < pos.count; i++) {
    const u = (pos.getX(i) - wrist.x) / palmLen;
    // Angle around the palm's axis: 0 on the thumb side (+Z), −π/2 on the palm (−Y). The mound
    // swells radially, centred between the two, fading smoothly all round (no folds).
    const dy = (pos.getY(i) - (wrist.y - 0.002 * hs)) / (0.012 * hs * k);
    const dz = pos.getZ(i) / (0.025 * hs * Math.sqrt(k));
    const angle = Math.atan2(dy, dz);
    const mound = 0.007 * hs * Math.sqrt(k) * bump(u - 0.3, 0.26) * bump(angle + 0.45, 0.75);
    const len = Math.hypot(dy, dz) || 1;
    pos.setZ(i, pos.getZ(i) + (mound * dz) / len);
    pos.setY(i, pos.getY(i) + (mound * dy) / len);
  }
  palm.computeVertexNormals();
  palm.applyMatrix4(bend);
  mirrored(ctx, () => palm, { color: h.color, skin: (s) => ({ rigid: `${s}Hand` }), slot });

  for (const finger of FINGER_NAMES) {
    const thumb = finger === 'Thumb';
    const bones = [1, 2, 3, 4].map((i) => restStraight(`LeftHand${finger}${i}`));
    const [b1, b2] = bones as [Vector3, Vector3];
    const dir = b2.clone().sub(b1).normalize();
    // Fingers start inside the palm so the knuckle reads as one shape; the thumb's first bone
    // lies inside the palm's mound, so only the free thumb shows.
    const inside = thumb
      ? b1.clone().addScaledVector(dir, -0.004 * hs)
      : b1.clone().addScaledVector(dir, -0.014 * hs);
    const path = [inside, ...bones];
    const lengths = [0];
    for (let i = 1; i < path.length; i++)
      lengths.push((lengths[i - 1] ?? 0) + (path[i] as Vector3).distanceTo(path[i - 1] as Vector3));
    const total = lengths[lengths.length - 1] ?? 1;
    const joints = lengths.slice(1, -1).map((l) => l / total);
    const r0 = FINGER_RADIUS[finger] * hs * k;
    const radius = (t: number): [number, number] => {
      let r = r0 * (1 - 0.2 * t);
      // A slight swell at each knuckle, a slight waist between them.
      for (const j of joints) r += r0 * 0.07 * bump(t - j, 0.06);
      return [r, r * 0.86];
    };
    const g = tube(path, radius, { radial: 10, perSegment: 3, up }).applyMatrix4(bend);
    const chain = (s: string) => [
      `${s}Hand`,
      `${s}Hand${finger}1`,
      `${s}Hand${finger}2`,
      `${s}Hand${finger}3`,
    ];
    mirrored(ctx, () => g, { color: h.color, skin: (s) => ({ chain: chain(s), blend: 0.005 * hs }), slot });

    const tip = bones[3] as Vector3;
    const last = tip
      .clone()
      .sub(bones[2] as Vector3)
      .normalize();
    if (h.nails !== null) {
      // A nail on the back of the last segment, following the finger's direction.
      const back = up.clone().addScaledVector(last, -up.dot(last)).normalize();
      const r = radius(0.93)[0];
      const at = tip
        .clone()
        .addScaledVector(last, -r * 1.05)
        .addScaledVector(back, r * 0.62);
      const nail = ellipsoid([r * 0.8, r * 0.2, r * 0.62], {}, [10, 6]);
      // Lay the nail's long axis (x) along the finger.
      nail.applyMatrix4(new Matrix4().makeBasis(last, back, new Vector3().crossVectors(last, back)));
      nail.translate(at.x, at.y, at.z).applyMatrix4(bend);
      const color = h.nails ?? mix(h.color, '#ffd8d0', 0.3);
      mirrored(ctx, () => nail, {
        color,
        skin: (s) => ({ rigid: `${s}Hand${finger}3` }),
        slot,
      });
    }
  }
}
