import {
  BufferGeometry,
  Float32BufferAttribute,
  LatheGeometry,
  Matrix4,
  Quaternion,
  SphereGeometry,
  Vector2,
  Vector3,
  Euler,
} from 'three';

/**
 * Small geometry vocabulary for the forge: everything is a smooth, indexed BufferGeometry with
 * positions and normals, so parts merge into one mesh. No boxes: stylised soft shapes.
 */

export interface Placement {
  at?: [number, number, number];
  rot?: [number, number, number];
  scale?: [number, number, number] | number;
}

export function place(geometry: BufferGeometry, p: Placement): BufferGeometry {
  const s = p.scale ?? 1;
  const scale = typeof s === 'number' ? new Vector3(s, s, s) : new Vector3(...s);
  const q = new Quaternion().setFromEuler(new Euler(...(p.rot ?? [0, 0, 0])));
  geometry.applyMatrix4(new Matrix4().compose(new Vector3(...(p.at ?? [0, 0, 0])), q, scale));
  return geometry;
}

export function ellipsoid(
  r: [number, number, number],
  p: Placement = {},
  detail: [number, number] = [20, 14],
): BufferGeometry {
  const g = new SphereGeometry(1, detail[0], detail[1]);
  g.scale(...r);
  g.deleteAttribute('uv');
  return place(g, p);
}

/** A surface of revolution around Y from (radius, y) pairs; `depth` squashes it in Z. */
export function lathe(
  profile: [number, number][],
  p: Placement & { depth?: number; segments?: number } = {},
) {
  const g = new LatheGeometry(
    smoothProfile(profile).map(([r, y]) => new Vector2(Math.max(r, 1e-4), y)),
    p.segments ?? 28,
  );
  g.deleteAttribute('uv');
  if (p.depth !== undefined) g.scale(1, 1, p.depth);
  // Lathe seams duplicate vertices: merge them so normals are smooth across the seam.
  const merged = weld(g);
  merged.computeVertexNormals();
  return place(merged, p);
}

/** Catmull-Rom through the profile points, 3 samples per span: smooth silhouettes. */
function smoothProfile(points: [number, number][]): [number, number][] {
  if (points.length < 3) return points;
  const out: [number, number][] = [];
  const at = (i: number) => points[Math.min(points.length - 1, Math.max(0, i))] as [number, number];
  for (let i = 0; i < points.length - 1; i++) {
    const [p0, p1, p2, p3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
    for (let k = 0; k < 3; k++) {
      const t = k / 3;
      const t2 = t * t;
      const t3 = t2 * t;
      const f = (a: number, b: number, c: number, d: number) =>
        0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3);
      out.push([f(p0[0], p1[0], p2[0], p3[0]), f(p0[1], p1[1], p2[1], p3[1])]);
    }
  }
  out.push(at(points.length - 1));
  return out;
}

/**
 * A tube along a polyline with an elliptical cross-section and rounded end caps. `radius(t)`
 * gives [across, depth] radii at t ∈ [0, 1] along the path; `up` fixes the cross-section's
 * orientation (the depth axis).
 */
export function tube(
  path: Vector3[],
  radius: (t: number) => [number, number],
  opts: {
    radial?: number;
    up?: Vector3;
    caps?: [boolean, boolean];
    perSegment?: number;
    /** Cross-section superellipse exponent: 2 an ellipse, 3–4 a rounded rectangle (a palm). */
    exponent?: number;
    /** How far the end caps reach, as a share of the end's smaller radius (0.9: a dome). */
    capReach?: number;
  } = {},
): BufferGeometry {
  const radial = opts.radial ?? 14;
  const e = 2 / (opts.exponent ?? 2);
  const se = (v: number) => Math.sign(v) * Math.abs(v) ** e;
  const up = opts.up ?? new Vector3(0, 0, 1);
  const caps = opts.caps ?? [true, true];
  const perSegment = opts.perSegment ?? 4;
  // Resample the path evenly.
  const pts: Vector3[] = [];
  for (let i = 0; i < path.length - 1; i++) {
    const a = path[i] as Vector3;
    const b = path[i + 1] as Vector3;
    for (let k = 0; k < perSegment; k++) pts.push(a.clone().lerp(b, k / perSegment));
  }
  pts.push((path[path.length - 1] as Vector3).clone());
  const lengths = [0];
  for (let i = 1; i < pts.length; i++)
    lengths.push((lengths[i - 1] ?? 0) + (pts[i] as Vector3).distanceTo(pts[i - 1] as Vector3));
  const total = lengths[lengths.length - 1] ?? 1;

  const rings: { c: Vector3; n: Vector3; b: Vector3; t: Vector3; r: [number, number] }[] = [];
  pts.forEach((c, i) => {
    const prev = pts[Math.max(0, i - 1)] as Vector3;
    const next = pts[Math.min(pts.length - 1, i + 1)] as Vector3;
    const t = next.clone().sub(prev).normalize();
    const b = up.clone().addScaledVector(t, -up.dot(t)).normalize();
    const n = new Vector3().crossVectors(b, t).normalize();
    rings.push({ c, n, b, t, r: radius((lengths[i] ?? 0) / total) });
  });
  // Dome caps: extra shrinking rings beyond each end.
  const capRings = 4;
  const expand = (ring: (typeof rings)[number], dir: number) => {
    const out: typeof rings = [];
    for (let k = 1; k <= capRings; k++) {
      const a = (k / capRings) * (Math.PI / 2);
      const reach = Math.min(ring.r[0], ring.r[1]) * (opts.capReach ?? 0.9);
      out.push({
        ...ring,
        c: ring.c.clone().addScaledVector(ring.t, dir * Math.sin(a) * reach),
        r: [ring.r[0] * Math.cos(a) + 1e-4, ring.r[1] * Math.cos(a) + 1e-4],
      });
    }
    return out;
  };
  const first = rings[0];
  const last = rings[rings.length - 1];
  const all = [
    ...(caps[0] && first ? expand(first, -1).reverse() : []),
    ...rings,
    ...(caps[1] && last ? expand(last, 1) : []),
  ];
  const positions: number[] = [];
  for (const ring of all) {
    for (let j = 0; j < radial; j++) {
      const a = (j / radial) * Math.PI * 2;
      const p = ring.c
        .clone()
        .addScaledVector(ring.n, se(Math.cos(a)) * ring.r[0])
        .addScaledVector(ring.b, se(Math.sin(a)) * ring.r[1]);
      positions.push(p.x, p.y, p.z);
    }
  }
  const index: number[] = [];
  for (let i = 0; i < all.length - 1; i++) {
    for (let j = 0; j < radial; j++) {
      const a = i * radial + j;
      const b = i * radial + ((j + 1) % radial);
      const c = (i + 1) * radial + j;
      const d = (i + 1) * radial + ((j + 1) % radial);
      index.push(a, c, b, b, c, d);
    }
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(positions, 3));
  g.setIndex(index);
  g.computeVertexNormals();
  return g;
}

/** A flat-ish ribbon (open surface) from a grid function; both sides are drawn by the material. */
export function grid(
  cols: number,
  rows: number,
  at: (u: number, v: number) => Vector3,
  opts: { wrapU?: boolean; flip?: boolean } = {},
): BufferGeometry {
  const positions: number[] = [];
  const ucount = opts.wrapU ? cols : cols + 1;
  for (let j = 0; j <= rows; j++) {
    for (let i = 0; i < ucount; i++) {
      const p = at(i / cols, j / rows);
      positions.push(p.x, p.y, p.z);
    }
  }
  const index: number[] = [];
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const i1 = opts.wrapU ? (i + 1) % cols : i + 1;
      const a = j * ucount + i;
      const b = j * ucount + i1;
      const c = (j + 1) * ucount + i;
      const d = (j + 1) * ucount + i1;
      if (opts.flip) index.push(a, c, b, b, c, d);
      else index.push(a, b, c, b, d, c);
    }
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(positions, 3));
  g.setIndex(index);
  g.computeVertexNormals();
  return g;
}

/** Merges vertices at the same position (within 1e-5), keeping only positions. */
export function weld(g: BufferGeometry): BufferGeometry {
  const pos = g.getAttribute('position');
  const index = g.getIndex();
  const key = (i: number) =>
    `${Math.round(pos.getX(i) * 1e5)},${Math.round(pos.getY(i) * 1e5)},${Math.round(pos.getZ(i) * 1e5)}`;
  const map = new Map<string, number>();
  const remap: number[] = [];
  const out: number[] = [];
  for (let i = 0; i < pos.count; i++) {
    const k = key(i);
    let n = map.get(k);
    if (n === undefined) {
      n = out.length / 3;
      map.set(k, n);
      out.push(pos.getX(i), pos.getY(i), pos.getZ(i));
    }
    remap.push(n);
  }
  const src = index ? Array.from(index.array) : remap.map((_, i) => i);
  const tris: number[] = [];
  for (let i = 0; i < src.length; i += 3) {
    const a = remap[src[i] ?? 0] ?? 0;
    const b = remap[src[i + 1] ?? 0] ?? 0;
    const c = remap[src[i + 2] ?? 0] ?? 0;
    if (a !== b && b !== c && a !== c) tris.push(a, b, c);
  }
  const g2 = new BufferGeometry();
  g2.setAttribute('position', new Float32BufferAttribute(out, 3));
  g2.setIndex(tris);
  g2.computeVertexNormals();
  return g2;
}

/** Mirrors a geometry across X (left ↔ right), fixing the winding. */
export function mirrorX(g: BufferGeometry): BufferGeometry {
  const m = g.clone();
  m.scale(-1, 1, 1);
  const index = m.getIndex();
  if (index) {
    const a = index.array;
    for (let i = 0; i < a.length; i += 3) {
      const t = a[i + 1] ?? 0;
      a[i + 1] = a[i + 2] ?? 0;
      a[i + 2] = t;
    }
    index.needsUpdate = true;
  }
  return m;
}
