import { BufferGeometry, Float32BufferAttribute } from 'three';
import type { PartList, Slot } from './assemble.ts';
import type { SkinSpec } from './skinning.ts';
import {
  MORPH_NAMES,
  neutralState,
  stateFor,
  type EyeState,
  type FaceState,
  type MouthState,
} from './face-states.ts';
import type { HeadShape } from './head.ts';
import { ellipsoid } from './shapes.ts';

/**
 * The face: big stylised eyes (outline, iris gradient, pupil, highlights, upper lash), brows,
 * mouth (cavity, teeth, tongue), blush and nose, laid on the skull surface as thin decals.
 * Every morph target is the same decals drawn in another facial state: the forge computes each
 * state's shape, projects it onto the skull and stores the difference from neutral — so a blink
 * is the eye closing to a lid line, `viseme_aa` the mouth opening on teeth and tongue.
 */

export interface FaceParams {
  /** Eye centre, relative to the skull centre (x of the left eye). */
  eyeX: number;
  eyeY: number;
  /** Half width and half height of the eye outline. */
  eyeSize: [number, number];
  /** Outer corner lift, radians. */
  eyeTilt?: number;
  iris: [string, string];
  pupil?: string;
  outline?: string;
  /** Longer outer lash flick. */
  lashes?: boolean;
  /** No upper lash line (robots: a plain screen eye). */
  noLashLine?: boolean;
  brow: { color: string; y: number; thickness: number; length?: number; arch?: number; tilt?: number };
  mouth: { y: number; width: number; smile?: number; cavity?: string; teeth?: string; tongue?: string };
  blush?: string;
  skin: string;
  nose?: { y: number; size: number; color: string } | null;
  freckles?: string;
  fangs?: boolean;
  /** Eyes and mouth drawn with the glow material (robots). */
  glowEyes?: boolean;
}

/** A decal: fixed triangles, 2D coordinates per facial state, a layer height above the skin. */
interface Decal {
  index: number[];
  coords: (state: FaceState) => [number, number][];
  layer: number;
  color: (i: number) => string;
  slot: Slot;
  skin: SkinSpec;
}

function discTopology(rings: number, segs: number): { index: number[]; params: [number, number][] } {
  const params: [number, number][] = [[0, 0]];
  for (let r = 1; r <= rings; r++)
    for (let s = 0; s < segs; s++) params.push([r / rings, (s / segs) * Math.PI * 2]);
  const index: number[] = [];
  for (let s = 0; s < segs; s++) index.push(0, 1 + s, 1 + ((s + 1) % segs));
  for (let r = 1; r < rings; r++) {
    for (let s = 0; s < segs; s++) {
      const a = 1 + (r - 1) * segs + s;
      const b = 1 + (r - 1) * segs + ((s + 1) % segs);
      const c = a + segs;
      const d = b + segs;
      index.push(a, c, b, b, c, d);
    }
  }
  return { index, params };
}

function stripTopology(cols: number, rows: number): { index: number[]; params: [number, number][] } {
  const params: [number, number][] = [];
  for (let j = 0; j <= rows; j++) for (let i = 0; i <= cols; i++) params.push([i / cols, j / rows]);
  const index: number[] = [];
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const a = j * (cols + 1) + i;
      const b = a + 1;
      const c = a + cols + 1;
      const d = c + 1;
      index.push(a, b, c, b, d, c);
    }
  }
  return { index, params };
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const HEAD: SkinSpec = { rigid: 'Head' };

/**
 * Brows are drawn this much bolder than their `thickness`, and move further than life: the
 * face must read at portrait and phone sizes (a brow is a pixel or two there).
 */
const BROW_BOLD = 1.35;

/** The iris's share of the eye bone's rotation: 0.3 rad of gaze moves it about 5 mm. */
const IRIS_EYE_SHARE = 0.11;
const flip = (index: number[]) => {
  const out = index.slice();
  for (let i = 0; i < out.length; i += 3) [out[i + 1], out[i + 2]] = [out[i + 2] ?? 0, out[i + 1] ?? 0];
  return out;
};

/** Mixes two #rrggbb colours. */
export function mix(a: string, b: string, t: number): string {
  const pa = parseInt(a.slice(1), 16);
  const pb = parseInt(b.slice(1), 16);
  const ch = (p: number, s: number) => (p >> s) & 255;
  const c = [16, 8, 0].map((s) => Math.round(lerp(ch(pa, s), ch(pb, s), Math.min(1, Math.max(0, t)))));
  return `#${c.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

function eyeDecals(f: FaceParams, sideName: 'L' | 'R'): Decal[] {
  const side = sideName === 'L' ? 1 : -1;
  const [ew, eh] = f.eyeSize;
  const tilt = f.eyeTilt ?? 0.06;
  // The iris follows the eye bone a little: the bone sits at the skull's centre of curvature, so a
  // small share of its rotation slides the iris along the skin — a flat decal turned rigidly
  // about a nearby pivot would tilt into the skin.
  const eyeBone = sideName === 'L' ? 'LeftEye' : 'RightEye';
  const iris: SkinSpec = {
    fixed: [
      [eyeBone, IRIS_EYE_SHARE],
      ['Head', 1 - IRIS_EYE_SHARE],
    ],
  };
  const outline = f.outline ?? '#1e1420';
  /** Unit eye coordinates (x outward) → face coordinates, in a given eye state. */
  const toFace = (ux: number, uy: number, st: EyeState, closedThick: number): [number, number] => {
    let y = uy * (1 + 0.22 * st.wide);
    y *= uy < 0 ? 1 - 0.55 * st.squint : 1 - 0.1 * st.squint;
    y -= 0.06 * st.squint;
    const line = -0.3 - 0.12 * (1 - ux * ux);
    y = lerp(line + uy * closedThick, y, st.open);
    const x = ux * ew;
    const yy = y * eh + tilt * ux * ew;
    return [side * (f.eyeX + x), f.eyeY + yy];
  };
  const disc = discTopology(6, 28);
  const index = side > 0 ? disc.index : flip(disc.index);
  const layer = (
    scale: [number, number],
    offset: [number, number],
    closedThick: number,
    depth: number,
    color: (uy: number) => string,
    slot: Slot,
    layerSkin: SkinSpec,
    collapse = false,
  ): Decal => ({
    index,
    layer: depth,
    slot,
    skin: layerSkin,
    color: (i) => {
      const [rho, th] = disc.params[i] ?? [0, 0];
      return color(rho * Math.sin(th));
    },
    coords: (state) => {
      const st = state.eye[sideName];
      return disc.params.map(([rho, th]) => {
        const ux = offset[0] + rho * Math.cos(th) * scale[0];
        const uy = offset[1] + rho * Math.sin(th) * scale[1];
        if (!collapse) return toFace(ux, uy, st, closedThick);
        // Highlights shrink to nothing as the lid closes.
        const k = st.open;
        return toFace(offset[0] + (ux - offset[0]) * k, offset[1] + (uy - offset[1]) * k, st, 0);
      });
    },
  });
  const [irisTop, irisBottom] = f.iris;
  const eyeSlot: Slot = f.glowEyes ? 'glow' : 'eye';
  const decals: Decal[] = [
    layer([1, 1], [0, 0], 0.1, 0.0008, () => outline, 'eye', HEAD),
    layer(
      [0.8, 0.85],
      [0, -0.04],
      0,
      0.0028,
      (uy) => mix(irisTop, irisBottom, (0.6 - uy) / 1.2),
      eyeSlot,
      iris,
    ),
  ];
  if (!f.glowEyes)
    decals.push(
      layer([0.4, 0.48], [0, -0.08], 0, 0.0035, () => f.pupil ?? mix(irisTop, '#000000', 0.6), 'eye', iris),
    );
  decals.push(
    layer([0.26, 0.24], [0.28, 0.36], 0, 0.0046, () => '#ffffff', 'eye', iris, true),
    layer([0.12, 0.11], [-0.3, -0.42], 0, 0.0046, () => '#ffffff', 'eye', iris, true),
  );
  if (f.noLashLine) return decals;
  // Upper lash line: a thick arc over the top, with a flick at the outer corner.
  const strip = stripTopology(20, 2);
  const flick = f.lashes ? 0.35 : 0.12;
  decals.push({
    index: side > 0 ? strip.index : flip(strip.index),
    layer: 0.0042,
    slot: 'eye',
    skin: HEAD,
    color: () => outline,
    coords: (state) => {
      const st = state.eye[sideName];
      return strip.params.map(([u, v]) => {
        const th = lerp(-0.05, Math.PI + 0.12, u);
        const thick =
          0.1 + 0.16 * Math.sin(Math.min(Math.PI, Math.max(0, th))) + (u < 0.12 ? flick * (0.12 - u) * 3 : 0);
        const rho = 0.93 + v * thick;
        let ux = Math.cos(th) * rho;
        let uy = Math.sin(th) * rho * 1.0;
        if (u < 0.12) {
          // the outer flick sweeps out and up
          ux += flick * (0.12 - u) * 2.2;
          uy += flick * (0.12 - u) * 2.5;
        }
        const [x, y] = toFace(ux, uy, st, 0);
        const closedY = toFace(ux, 0, { open: 0, wide: 0, squint: 0 }, 0)[1] + (v - 0.4) * eh * 0.2;
        return [x, lerp(closedY, y, st.open)];
      });
    },
  });
  return decals;
}

function browDecal(f: FaceParams, sideName: 'L' | 'R'): Decal {
  const side = sideName === 'L' ? 1 : -1;
  const [ew] = f.eyeSize;
  const b = f.brow;
  const strip = stripTopology(14, 2);
  const length = b.length ?? 1.9;
  return {
    index: side > 0 ? strip.index : flip(strip.index),
    layer: 0.0018,
    slot: 'eye',
    skin: HEAD,
    color: () => b.color,
    coords: (state) => {
      const st = state.brow[sideName];
      return strip.params.map(([s, t]) => {
        const x = f.eyeX - 0.8 * ew + s * length * ew;
        const thick = b.thickness * BROW_BOLD * (1 - 0.5 * s) * Math.min(1, 0.35 + 3 * s) * (t - 0.5);
        const dy =
          st.innerUp * 0.026 * (1 - s) ** 1.5 +
          st.outerUp * 0.02 * s * s -
          st.down * (0.006 + 0.016 * (1 - s));
        const y = b.y + (b.arch ?? 0.006) * Math.sin(Math.PI * s) + (b.tilt ?? 0) * (s - 0.5) + dy + thick;
        return [side * x, y];
      });
    },
  };
}

function mouthDecals(f: FaceParams): Decal[] {
  const m = f.mouth;
  const base = m.smile ?? 0.25;
  const curve = (st: MouthState) => {
    const hw =
      m.width * (1 + 0.32 * st.wide - 0.5 * st.round + 0.08 * (st.smileL + st.smileR) - 0.06 * st.press);
    const openH = m.width * 1.0 * st.open;
    const line = 0.0056 * (1 - 0.5 * st.press);
    const k = lerp(0.85, 0.5, st.round);
    const lift = (u: number) =>
      m.width *
      (base * 0.28 * u * u +
        (st.smileL * 0.62 - st.frownL * 0.55) * Math.max(0, u) ** 2 +
        (st.smileR * 0.62 - st.frownR * 0.55) * Math.max(0, -u) ** 2 -
        0.16 * (st.frownL + st.frownR) * (1 - u * u));
    const top = (u: number) => lift(u) + (1 - u * u) ** k * (line * 0.5 + openH * 0.26);
    const bottom = (u: number) => lift(u) - (1 - u * u) ** k * (line * 0.5 + openH * 0.74);
    return { hw, top, bottom };
  };
  const strip = stripTopology(28, 6);
  const small = stripTopology(18, 3);
  const at = (x: number, y: number): [number, number] => [x, m.y + y];
  const decals: Decal[] = [
    {
      index: strip.index,
      layer: 0.0012,
      slot: 'eye',
      skin: HEAD,
      color: () => m.cavity ?? '#5a1426',
      coords: (state) => {
        const c = curve(state.mouth);
        return strip.params.map(([s, t]) => {
          const u = s * 2 - 1;
          return at(u * c.hw, lerp(c.bottom(u), c.top(u), t));
        });
      },
    },
    {
      index: small.index,
      layer: 0.0022,
      slot: 'eye',
      skin: HEAD,
      color: () => m.teeth ?? '#fbf7f2',
      coords: (state) => {
        const c = curve(state.mouth);
        const frac = 0.24 + 0.36 * state.mouth.teeth;
        return small.params.map(([s, t]) => {
          const u = (s * 2 - 1) * 0.66;
          const top = c.top(u) - 0.0006;
          const h = (c.top(u) - c.bottom(u)) * frac;
          return at(u * c.hw, top - (1 - t) * h);
        });
      },
    },
    {
      index: small.index,
      layer: 0.0018,
      slot: 'eye',
      skin: HEAD,
      color: () => m.tongue ?? '#d8606e',
      coords: (state) => {
        const c = curve(state.mouth);
        const frac = 0.32 + 0.4 * state.mouth.tongue;
        return small.params.map(([s, t]) => {
          const u = (s * 2 - 1) * 0.6;
          const bottom = c.bottom(u) + 0.0006;
          const h = (c.top(u) - c.bottom(u)) * frac * Math.sqrt(Math.max(0, 1 - (u / 0.6) ** 2));
          return at(u * c.hw, bottom + t * h);
        });
      },
    },
  ];
  if (f.fangs) {
    const tri = {
      index: [0, 1, 2],
      params: [[0, 0] as [number, number], [1, 0] as [number, number], [0.5, 1] as [number, number]],
    };
    for (const side of [1, -1]) {
      decals.push({
        index: side > 0 ? [0, 2, 1] : tri.index,
        layer: 0.0026,
        slot: 'eye',
        skin: HEAD,
        color: () => '#ffffff',
        coords: (state) => {
          const c = curve(state.mouth);
          const u = side * 0.42;
          const y0 = c.top(u) - 0.0004;
          const w = 0.0042;
          return [
            at(u * c.hw - w, y0 + 0.0006),
            at(u * c.hw + w, y0 + 0.0006),
            at(u * c.hw + side * 0.0008, y0 - 0.0085),
          ];
        },
      });
    }
  }
  return decals;
}

function spotDecal(
  f: FaceParams,
  x: number,
  y: number,
  r: [number, number],
  color: string,
  fade: boolean,
): Decal {
  const disc = discTopology(4, 20);
  return {
    index: disc.index,
    layer: 0.0006,
    slot: 'skin',
    skin: HEAD,
    color: (i) => (fade ? mix(color, f.skin, (disc.params[i]?.[0] ?? 0) ** 1.6) : color),
    coords: () =>
      disc.params.map(([rho, th]) => [x + rho * Math.cos(th) * r[0], y + rho * Math.sin(th) * r[1]]),
  };
}

/** Builds every face decal with its morph targets and adds them to the Face mesh. */
export function buildFace(list: PartList, head: HeadShape, f: FaceParams): void {
  const decals: Decal[] = [
    ...eyeDecals(f, 'L'),
    ...eyeDecals(f, 'R'),
    browDecal(f, 'L'),
    browDecal(f, 'R'),
    ...mouthDecals(f),
  ];
  const [ew, eh] = f.eyeSize;
  if (f.blush) {
    for (const s of [1, -1])
      decals.push(spotDecal(f, s * (f.eyeX + ew * 0.35), f.eyeY - eh - 0.016, [0.021, 0.012], f.blush, true));
  }
  if (f.freckles) {
    const dots: [number, number][] = [
      [0.9, -1.55],
      [1.35, -1.4],
      [1.1, -1.85],
      [0.55, -1.75],
    ];
    for (const s of [1, -1])
      for (const [dx, dy] of dots)
        decals.push(
          spotDecal(
            f,
            s * (f.eyeX + (dx - 0.8) * ew),
            f.eyeY + dy * eh * 0.7,
            [0.0022, 0.0022],
            f.freckles,
            false,
          ),
        );
  }
  const neutral = neutralState();
  const morphStates = MORPH_NAMES.map((name) => stateFor(name));
  for (const decal of decals) {
    const placeAll = (state: FaceState) =>
      decal.coords(state).map(([x, y]) => {
        const { p, n } = head.project(x, y);
        return { p: p.addScaledVector(n, decal.layer), n };
      });
    const rest = placeAll(neutral);
    const g = new BufferGeometry();
    g.setAttribute(
      'position',
      new Float32BufferAttribute(
        rest.flatMap(({ p }) => [p.x, p.y, p.z]),
        3,
      ),
    );
    g.setAttribute(
      'normal',
      new Float32BufferAttribute(
        rest.flatMap(({ n }) => [n.x, n.y, n.z]),
        3,
      ),
    );
    g.setIndex(decal.index);
    const morphs = new Map<string, Float32Array>();
    MORPH_NAMES.forEach((name, k) => {
      const state = morphStates[k];
      if (!state) return;
      const moved = placeAll(state);
      const delta = new Float32Array(rest.length * 3);
      let any = false;
      moved.forEach(({ p }, i) => {
        const r = rest[i]?.p ?? p;
        const d = [p.x - r.x, p.y - r.y, p.z - r.z];
        d.forEach((v, j) => {
          // Sub-0.01 mm moves are noise from the projection: store exact zeros.
          const q = Math.abs(v) < 1e-5 ? 0 : v;
          delta[i * 3 + j] = q;
          if (q !== 0) any = true;
        });
      });
      if (any) morphs.set(name, delta);
    });
    list.add(
      g,
      { color: (_p, i) => decal.color(i), skin: decal.skin, slot: decal.slot, mesh: 'Face' },
      morphs,
    );
  }
  if (f.nose) {
    const { p, n } = head.project(0, f.nose.y);
    const s = f.nose.size;
    const g = ellipsoid([s * 1.25, s * 0.8, s * 0.7], {}, [12, 8]);
    const q = p.clone().addScaledVector(n, s * 0.1);
    g.translate(q.x, q.y, q.z);
    list.add(g, { color: f.nose.color, skin: { rigid: 'Head' }, slot: 'skin', mesh: 'Head' });
  }
}
