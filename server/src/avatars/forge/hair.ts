import { Vector3 } from 'three';
import type { PartList, Slot } from './assemble.ts';
import { hash3 } from './body.ts';
import { mix } from './face.ts';
import type { HeadShape } from './head.ts';
import { grid } from './shapes.ts';
import type { SkinSpec } from './skinning.ts';

/**
 * Hair as soft shells over the skull, made of locks: a cap whose lower edge ends in rounded,
 * tapering locks of varied length (short bangs in front, longer at the sides and back), each
 * lock a gentle swell of the shell with a groove between it and the next, so light runs along
 * them; the edge rolls under into a thin rim instead of ending paper-thin. An optional curtain
 * falls from under the cap to the shoulders or the back, made of the same locks.
 */

export interface HairParams {
  color: string | ((p: Vector3) => string);
  /** Polar angle (radians from the crown) of the fringe, the sides and the back. */
  front: number;
  side: number;
  back: number;
  /** Locks around the full circle, and how far their tips reach below the edge (radians). */
  strands?: number;
  tipLength?: number;
  /** Extra puff of the shell over the skull (metres). */
  volume?: number;
  /** Parting: shifts the fringe's locks sideways (radians). */
  part?: number;
  /** A curtain down to this height (world y), starting this far from the front (radians). */
  long?: { bottom: number; from: number; flare?: number; tips?: number };
  slot?: Slot;
  skin?: SkinSpec;
}

const smooth = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/**
 * Locks along a circle: at angle-like coordinate `x` (one unit per lock), the lock's reach
 * 0–1 — a rounded, tapering tip in the middle of each lock, smooth valleys between them, no
 * corners — and the swell across it (1 at its centre, down to −1 in the deepest grooves).
 */
export function locks(x: number, seed: number): { reach: number; swell: number } {
  const k = Math.floor(x);
  const f = x - k;
  const length = 0.7 + 0.45 * hash3(k, seed, 3);
  // A smoothstep of sin: a broad, rounded end (flat at its tip like a clump of hair, not a
  // point), and a narrow valley that still meets the next lock without a corner.
  const s = Math.sin(Math.PI * f);
  const reach = length * s * s * (3 - 2 * s);
  // The groove at each lock's edge has its own depth, so the locks gather into a few clumps
  // with deep partings between them and faint ones inside, not a row of even stripes.
  const depth = (edge: number) => 0.2 + 0.8 * hash3(edge, seed, 5) ** 2;
  const d = depth(f < 0.5 ? k : k + 1);
  const swell = ((1 - Math.cos(2 * Math.PI * f)) / 2) * (1 + d) - d;
  return { reach, swell };
}

/**
 * The cap's lower edge: polar angle from the crown at each angle round the head (0 in front).
 * Smooth all the way round — locks, not teeth.
 */
export function hairEdge(h: HairParams): { edge: (phi: number) => number; base: (phi: number) => number } {
  const strands = h.strands ?? 22;
  const tip = h.tipLength ?? 0.12;
  const part = h.part ?? 0;
  const base = (phi: number) => {
    const a = Math.abs(phi);
    const theta = h.front + (h.side - h.front) * smooth(0.25, 1.45, a);
    return theta + (h.back - h.side) * smooth(1.5, 2.8, a);
  };
  // Locks are longest at the sides; at the nape they are shorter, so short hair tapers there.
  const edge = (phi: number) =>
    base(phi) +
    tip *
      (1 - 0.45 * smooth(1.6, 2.9, Math.abs(phi))) *
      locks(((phi + part) * strands) / (Math.PI * 2) + 0.5, 11).reach;
  return { edge, base };
}

export function addHair(list: PartList, head: HeadShape, h: HairParams): void {
  const volume = h.volume ?? 0.012;
  const strands = h.strands ?? 22;
  const part = h.part ?? 0;
  const lockAt = (phi: number) => ((phi + part) * strands) / (Math.PI * 2) + 0.5;
  const { edge, base: baseEdge } = hairEdge(h);
  /** Groove depth, relative to the lock width: shallow, so the cap stays one soft shape. */
  const groove = Math.min(0.006, (Math.PI * 2 * 0.11) / strands / 6);
  const point = (phi: number, theta: number, extra = 0) => {
    const dir = new Vector3(
      Math.sin(theta) * Math.sin(phi),
      Math.cos(theta),
      Math.sin(theta) * Math.cos(phi),
    );
    const s = head.surface(dir);
    const out = s.clone().sub(head.center);
    // Locks swell out of the shell towards the edge; the crown stays smooth.
    const lockSwell = locks(lockAt(phi), 11).swell * groove * smooth(0.15, 0.9, theta / baseEdge(phi));
    const lift =
      volume * (0.55 + 0.45 * Math.cos(Math.min(theta, Math.PI) * 0.8)) + 0.004 + extra + lockSwell;
    return s.add(out.normalize().multiplyScalar(lift));
  };
  const skin = h.skin ?? { rigid: 'Head' };
  // Shading in the colour: darker in the grooves and towards the ends, a soft sheen band over
  // the crown where light would catch.
  const base = h.color;
  const color =
    typeof base === 'string'
      ? (p: Vector3) => {
          const phi = Math.atan2(p.x - head.center.x, p.z - head.center.z);
          const { swell } = locks(lockAt(phi), 11);
          const rel = p.clone().sub(head.center);
          const depth = Math.min(1, Math.max(0, -rel.y / 0.4));
          const crown = Math.max(0, rel.y / head.params.radii[1]);
          const shade = mix(base, '#000000', 0.1 * (1 - swell) * 0.5 + 0.14 * depth);
          return mix(shade, '#ffffff', 0.1 * Math.exp(-(((crown - 0.62) / 0.14) ** 2)));
        }
      : base;
  const slot = h.slot ?? 'hair';
  const cols = Math.min(180, Math.max(96, strands * 7));
  // Rows: crown to edge on the outer shell, then a short roll under the edge (its thickness).
  const rows = 13;
  const rim = 2;
  const thickness = Math.max(0.0035, volume * 0.35);
  const cap = grid(
    cols,
    rows + rim,
    (u, v) => {
      const phi = -Math.PI + u * Math.PI * 2;
      const j = v * (rows + rim);
      const e = edge(phi);
      if (j <= rows) return point(phi, e * Math.sin(((j / rows) * Math.PI) / 2));
      const r = (j - rows) / rim;
      return point(phi, e * (1 - 0.06 * r * r), -thickness * Math.sin((r * Math.PI) / 2));
    },
    { wrapU: true, flip: true },
  );
  list.add(cap, { color, skin, slot, mesh: 'Head' });

  if (h.long)
    addCurtain(list, head, h.long, { strands, part, color, skin, slot, point, baseEdge, thickness });
}

function addCurtain(
  list: PartList,
  head: HeadShape,
  L: NonNullable<HairParams['long']>,
  c: {
    strands: number;
    part: number;
    color: string | ((p: Vector3) => string);
    skin: SkinSpec;
    slot: Slot;
    point: (phi: number, theta: number, extra?: number) => Vector3;
    baseEdge: (phi: number) => number;
    thickness: number;
  },
): void {
  const span = Math.PI * 2 - 2 * L.from;
  const flare = L.flare ?? 0.05;
  const tips = L.tips ?? 0.04;
  // The curtain's locks are wider than the cap's, offset from them.
  const perLock = (Math.PI * 2) / (c.strands * 0.8);
  const cols = Math.max(48, Math.round((span / perLock) * 7));
  const rows = 13;
  const rim = 3;
  /**
   * A slab, not a sheet: one closed loop around each row — the outer face from one edge of the
   * curtain to the other, then the inner face back — so the hair has a thickness, its front
   * edges are rounded and its ends roll under into the inner face.
   */
  const depth = Math.max(0.006, c.thickness * 1.8);
  const curtain = grid(
    cols * 2,
    rows + rim,
    (u, v) => {
      const outer = u < 0.5;
      const s = outer ? u * 2 : 2 - u * 2;
      const phi = L.from + s * span;
      const j = v * (rows + rim);
      const t = Math.min(1, j / rows);
      // Starts under the cap, above its lock tips, so the cap's locks lie over it.
      const start = c.point(phi, c.baseEdge(phi) * 0.96, -0.002);
      const lock = locks(phi / perLock + 0.5, 23);
      const bottom = L.bottom + tips * (1 - lock.reach);
      const radial = new Vector3(start.x - head.center.x, 0, start.z - head.center.z);
      const r0 = radial.length();
      radial.normalize();
      // Falls straight down, swelling out over the shoulders, the ends curling in a little;
      // each lock a soft ridge.
      const y = start.y + (bottom - start.y) * t;
      const swell = flare * Math.sin(Math.min(1, t * 1.6) * Math.PI * 0.5) - 0.014 * t ** 2;
      const ridge = 0.005 * lock.swell * smooth(0, 0.3, t);
      // Half the slab's thickness: round at the curtain's side edges, thinner near the scalp.
      const half = (depth / 2) * Math.sqrt(Math.sin(Math.PI * s)) * (0.4 + 0.6 * smooth(0, 0.25, t));
      const mid = r0 + swell + ridge - half;
      let r = mid + (outer ? half : -half);
      let yy = y;
      if (j > rows) {
        // The ends: both faces meet in a rounded edge a little above the tips.
        const k = (j - rows) / rim;
        r = mid + (outer ? half : -half) * Math.cos((k * Math.PI) / 2);
        yy += half * (1 - Math.cos((k * Math.PI) / 2)) * 0.2 - half * Math.sin((k * Math.PI) / 2) * 0.6;
      }
      return new Vector3(head.center.x + radial.x * r, yy, head.center.z + radial.z * r);
    },
    { flip: true, wrapU: true },
  );
  list.add(curtain, { color: c.color, skin: c.skin, slot: c.slot, mesh: 'Head' });
}
