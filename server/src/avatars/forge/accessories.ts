import { Vector3 } from 'three';
import type { Slot } from './assemble.ts';
import type { CharacterCtx } from './character.ts';
import { ellipsoid, grid, mirrorX, tube } from './shapes.ts';

/** Ears, antlers, hair buns and head bands: pieces several characters share. */

const v = (x: number, y: number, z: number) => new Vector3(x, y, z);

/** The skull surface point on the character's left side at a given height (relative to centre). */
export function sidePoint(ctx: CharacterCtx, y: number, z = 0): Vector3 {
  return ctx.head.surface(v(1, y / ctx.head.params.radii[1], z));
}

function addMirroredHead(
  ctx: CharacterCtx,
  g: ReturnType<typeof tube>,
  color: string | ((p: Vector3) => string),
  slot: Slot,
) {
  ctx.list.add(g, { color, skin: { rigid: 'Head' }, slot, mesh: 'Head' });
  ctx.list.add(mirrorX(g), { color, skin: { rigid: 'Head' }, slot, mesh: 'Head' });
}

export function addEars(
  ctx: CharacterCtx,
  kind: 'human' | 'elf' | 'deer',
  color: string,
  inner?: string,
): void {
  const root = sidePoint(ctx, -0.035, -0.05);
  if (kind === 'human') {
    const g = ellipsoid(
      [0.014, 0.028, 0.02],
      { at: [root.x - 0.002, root.y, root.z], rot: [0, 0, -0.15] },
      [12, 10],
    );
    addMirroredHead(ctx, g, color, 'skin');
    return;
  }
  const path =
    kind === 'elf'
      ? [
          root.clone().add(v(-0.012, 0, 0)),
          root.clone().add(v(0.04, 0.03, -0.02)),
          root.clone().add(v(0.09, 0.085, -0.05)),
        ]
      : [
          root.clone().add(v(-0.01, 0.01, 0)),
          root.clone().add(v(0.04, 0.006, -0.02)),
          root.clone().add(v(0.088, -0.01, -0.035)),
        ];
  const width = kind === 'elf' ? 0.024 : 0.032;
  const ear = tube(path, (t) => [width * Math.sin(Math.PI * Math.min(1, 0.25 + t * 0.85)) + 0.002, 0.008], {
    radial: 12,
    perSegment: 6,
    up: v(0, 0, 1).applyAxisAngle(v(0, 1, 0), 0.3),
  });
  addMirroredHead(ctx, ear, color, 'skin');
  if (inner) {
    const lining = tube(
      path.map((p) => p.clone().add(v(0, 0, 0.0065))),
      (t) => [width * 0.6 * Math.sin(Math.PI * Math.min(1, 0.3 + t * 0.8)) + 0.001, 0.003],
      { radial: 10, perSegment: 6, up: v(0, 0, 1).applyAxisAngle(v(0, 1, 0), 0.3) },
    );
    addMirroredHead(ctx, lining, inner, 'skin');
  }
}

/** Branching antlers: a beam with three tines each side. */
export function addAntlers(ctx: CharacterCtx, color: string): void {
  const base = ctx.head.surface(v(0.42, 0.85, 0.12));
  const beam = [
    base.clone().add(v(-0.01, -0.02, 0)),
    base.clone().add(v(0.025, 0.045, -0.01)),
    base.clone().add(v(0.07, 0.1, -0.025)),
    base.clone().add(v(0.1, 0.17, -0.02)),
    base.clone().add(v(0.09, 0.23, 0.0)),
  ];
  const tines: Vector3[][] = [
    [beam[1] as Vector3, (beam[1] as Vector3).clone().add(v(-0.015, 0.07, 0.025))],
    [beam[2] as Vector3, (beam[2] as Vector3).clone().add(v(0.0, 0.075, 0.03))],
    [beam[3] as Vector3, (beam[3] as Vector3).clone().add(v(0.06, 0.04, 0.0))],
  ];
  const g = tube(beam, (t) => [0.013 * (1 - 0.6 * t) + 0.004, 0.013 * (1 - 0.6 * t) + 0.004], {
    radial: 10,
    perSegment: 4,
  });
  addMirroredHead(ctx, g, color, 'gloss');
  for (const t of tines) {
    const tine = tube(t, (s) => [0.009 * (1 - 0.7 * s) + 0.002, 0.009 * (1 - 0.7 * s) + 0.002], {
      radial: 8,
      perSegment: 4,
    });
    addMirroredHead(ctx, tine, color, 'gloss');
  }
}

/**
 * A band around the head, e.g. a headband or circlet: it lies on the hair, `lift` above the
 * skull all the way round, in a plane through the given height (relative to the skull centre)
 * tipped back by `tilt` — following the head's own shape, never floating off its sides.
 */
export function addHeadband(
  ctx: CharacterCtx,
  y: number,
  color: string,
  opts: { width?: number; tilt?: number; lift?: number; slot?: Slot } = {},
): void {
  const { head } = ctx;
  const c = head.center;
  const w = opts.width ?? 0.016;
  const lift = opts.lift ?? 0.018;
  const tilt = opts.tilt ?? 0.12;
  const origin = new Vector3(0, y, 0).applyAxisAngle(v(1, 0, 0), tilt).add(c);
  const across = v(0, 1, 0).applyAxisAngle(v(1, 0, 0), tilt);
  const inside = (p: Vector3) => p.distanceTo(c) < head.surface(p.clone().sub(c)).distanceTo(c);
  /** Where the band's plane meets the skull at angle phi round it (0 in front), and outward. */
  const ring = (phi: number) => {
    const out = v(Math.sin(phi), 0, Math.cos(phi)).applyAxisAngle(v(1, 0, 0), tilt);
    let lo = 0;
    let hi = head.params.radii[0] * 2;
    for (let i = 0; i < 24; i++) {
      const mid = (lo + hi) / 2;
      if (inside(origin.clone().addScaledVector(out, mid))) lo = mid;
      else hi = mid;
    }
    return { at: origin.clone().addScaledVector(out, lo), out };
  };
  const g = grid(
    48,
    4,
    (u, t) => {
      const { at, out } = ring(u * Math.PI * 2);
      // Across the band: flat on the hair with rounded edges.
      const bulge = 0.003 * Math.sin(Math.PI * t) ** 0.5;
      return at.addScaledVector(out, lift + bulge).addScaledVector(across, (t - 0.5) * w);
    },
    { wrapU: true },
  );
  ctx.list.add(g, { color, skin: { rigid: 'Head' }, slot: opts.slot ?? 'cloth', mesh: 'Head' });
}

/** A round hair bun (or several), at a point on the skull given by a direction. */
export function addBun(ctx: CharacterCtx, dir: Vector3, radius: number, color: string): Vector3 {
  const at = ctx.head.surface(dir).add(
    dir
      .clone()
      .normalize()
      .multiplyScalar(radius * 0.55),
  );
  const g = ellipsoid([radius, radius * 0.92, radius], { at: [at.x, at.y, at.z] }, [16, 12]);
  ctx.list.add(g, { color, skin: { rigid: 'Head' }, slot: 'hair', mesh: 'Head' });
  return at;
}

/** A tail of hair hanging from a point behind the head, swinging down the back. */
export function addPonytail(
  ctx: CharacterCtx,
  from: Vector3,
  length: number,
  radius: number,
  color: string,
): void {
  const path = [
    from.clone(),
    from.clone().add(v(0, -0.03, -0.07)),
    from.clone().add(v(0, -length * 0.45, -0.1)),
    from.clone().add(v(0, -length, -0.07)),
  ];
  const g = tube(
    path,
    (t) => {
      const r = radius * (0.7 + 0.6 * Math.sin(Math.PI * Math.min(1, t * 1.3))) * (1 - 0.6 * t * t);
      return [r, r * 0.85];
    },
    { radial: 14, perSegment: 6, up: v(1, 0, 0) },
  );
  ctx.list.add(g, { color, skin: { rigid: 'Head' }, slot: 'hair', mesh: 'Head' });
}
