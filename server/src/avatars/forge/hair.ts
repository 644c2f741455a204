import { Vector3 } from 'three';
import type { PartList, Slot } from './assemble.ts';
import { mix } from './face.ts';
import type { HeadShape } from './head.ts';
import { grid } from './shapes.ts';
import type { SkinSpec } from './skinning.ts';

/**
 * Hair as soft shells over the skull: a cap whose lower edge is a function of the angle around
 * the head (short bangs in front, longer at the sides and back, pointed strand tips), and an
 * optional curtain falling from that edge to the shoulders or the back.
 */

export interface HairParams {
  color: string | ((p: Vector3) => string);
  /** Polar angle (radians from the crown) of the fringe, the sides and the back. */
  front: number;
  side: number;
  back: number;
  /** Strand tips along the edge: how many around the full circle, and how long (radians). */
  strands?: number;
  tipLength?: number;
  /** Extra puff of the shell over the skull (metres). */
  volume?: number;
  /** Parting: shifts the fringe's tips sideways (radians). */
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

function tri(x: number): number {
  const f = x - Math.floor(x);
  return 1 - Math.abs(2 * f - 1);
}

export function addHair(list: PartList, head: HeadShape, h: HairParams): void {
  const volume = h.volume ?? 0.012;
  const strands = h.strands ?? 22;
  const tip = h.tipLength ?? 0.12;
  const edge = (phi: number) => {
    const a = Math.abs(phi);
    let theta = h.front + (h.side - h.front) * smooth(0.25, 1.45, a);
    theta += (h.back - h.side) * smooth(1.5, 2.8, a);
    return theta + tip * tri(((phi + (h.part ?? 0)) * strands) / (Math.PI * 2)) ** 1.4;
  };
  const point = (phi: number, theta: number, extra = 0) => {
    const dir = new Vector3(
      Math.sin(theta) * Math.sin(phi),
      Math.cos(theta),
      Math.sin(theta) * Math.cos(phi),
    );
    const s = head.surface(dir);
    const out = s.clone().sub(head.center);
    const lift = volume * (0.55 + 0.45 * Math.cos(Math.min(theta, Math.PI) * 0.8)) + 0.004 + extra;
    return s.add(out.normalize().multiplyScalar(lift));
  };
  const skin = h.skin ?? { rigid: 'Head' };
  // Strand shading: fine darker streaks around the head, darker towards the ends.
  const base = h.color;
  const color =
    typeof base === 'string'
      ? (p: Vector3) => {
          const phi = Math.atan2(p.x - head.center.x, p.z - head.center.z);
          const streak = 0.5 + 0.5 * Math.sin(phi * 37 + Math.sin(phi * 11) * 2);
          const depth = Math.min(1, Math.max(0, (head.center.y - p.y) / 0.4));
          return mix(base, '#000000', 0.1 * streak + 0.12 * depth);
        }
      : base;
  const slot = h.slot ?? 'hair';
  const cap = grid(
    96,
    18,
    (u, v) => {
      const phi = -Math.PI + u * Math.PI * 2;
      return point(phi, edge(phi) * Math.sin((v * Math.PI) / 2));
    },
    { wrapU: true, flip: true },
  );
  list.add(cap, { color, skin, slot, mesh: 'Head' });

  if (h.long) {
    const L = h.long;
    const span = Math.PI * 2 - 2 * L.from;
    const flare = L.flare ?? 0.05;
    const curtain = grid(
      72,
      14,
      (u, v) => {
        const phi = L.from + u * span;
        const start = point(phi, edge(phi));
        const bottom = L.bottom + (L.tips ?? 0.04) * tri((phi * strands) / (Math.PI * 2) + 0.5);
        const radial = new Vector3(start.x - head.center.x, 0, start.z - head.center.z);
        const r0 = radial.length();
        radial.normalize();
        // Falls straight down, swelling out over the shoulders, with a slight inward curl at the end.
        const y = start.y + (bottom - start.y) * v;
        const swell = flare * Math.sin(Math.min(1, v * 1.6) * Math.PI * 0.5) - 0.012 * v * v;
        const r = r0 + swell;
        return new Vector3(head.center.x + radial.x * r, y, head.center.z + radial.z * r);
      },
      { flip: true },
    );
    list.add(curtain, { color, skin, slot, mesh: 'Head' });
  }
}
