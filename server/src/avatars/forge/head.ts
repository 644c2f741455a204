import { BufferGeometry, Float32BufferAttribute, SphereGeometry, Vector3 } from 'three';
import { weld } from './shapes.ts';

/**
 * The skull as a smooth star-shaped surface: a superellipsoid (exponent 2 = egg-round, 4+ =
 * rounded box for robots) with a tapered chin and full cheeks. The same function builds the head
 * mesh and places the face on it, so eyes and mouth sit exactly on the skin.
 */
export interface HeadShapeParams {
  /** Centre of the skull in world space. */
  center: [number, number, number];
  /** Half extents: width, height, depth. */
  radii: [number, number, number];
  /** Superellipsoid exponent: 2 round, 3–5 boxy. */
  exponent?: number;
  /** How much the lower face narrows towards the chin (0–0.5). */
  chinTaper?: number;
  /** Forward push of the lower face (cheeks/muzzle). */
  cheek?: number;
}

export interface HeadShape {
  params: HeadShapeParams;
  center: Vector3;
  surface(dir: Vector3): Vector3;
  /** The front surface point at face coordinates (x, y) relative to the centre, and its normal. */
  project(x: number, y: number): { p: Vector3; n: Vector3 };
  geometry(detail?: [number, number]): BufferGeometry;
}

export function createHeadShape(params: HeadShapeParams): HeadShape {
  const center = new Vector3(...params.center);
  const [a, b, c] = params.radii;
  const n = params.exponent ?? 2;
  const taper = params.chinTaper ?? 0.25;
  const cheek = params.cheek ?? 0;

  /** Local point (relative to centre) on the surface along unit direction d. */
  const local = (d: Vector3): Vector3 => {
    const k = (Math.abs(d.x / a) ** n + Math.abs(d.y / b) ** n + Math.abs(d.z / c) ** n) ** (-1 / n);
    const p = d.clone().multiplyScalar(k);
    if (p.y < 0) {
      const t = Math.min(1, -p.y / b);
      const squeeze = 1 - taper * t * t;
      p.x *= squeeze;
      p.z *= 1 - taper * 0.55 * t * t;
    }
    if (cheek > 0 && p.z > 0) {
      const t = Math.max(0, 1 - ((p.y / b + 0.35) / 0.5) ** 2);
      p.z += cheek * t * (p.z / c) ** 2;
    }
    return p;
  };

  const surface = (dir: Vector3) => local(dir.clone().normalize()).add(center);

  const fromGnomonic = (X: number, Y: number) => local(new Vector3(X, Y, 1).normalize());
  const project = (x: number, y: number) => {
    let X = x / a;
    let Y = y / b;
    for (let i = 0; i < 30; i++) {
      const s = fromGnomonic(X, Y);
      const scale = Math.sqrt(1 + X * X + Y * Y);
      X += ((x - s.x) / a) * scale;
      Y += ((y - s.y) / b) * scale;
    }
    const h = 1e-3;
    const dx = fromGnomonic(X + h, Y).sub(fromGnomonic(X - h, Y));
    const dy = fromGnomonic(X, Y + h).sub(fromGnomonic(X, Y - h));
    const normal = new Vector3().crossVectors(dx, dy).normalize();
    if (normal.z < 0) normal.negate();
    return { p: fromGnomonic(X, Y).add(center), n: normal };
  };

  const geometry = (detail: [number, number] = [44, 32]) => {
    const sphere = new SphereGeometry(1, detail[0], detail[1]);
    const pos = sphere.getAttribute('position');
    const out: number[] = [];
    const d = new Vector3();
    for (let i = 0; i < pos.count; i++) {
      d.fromBufferAttribute(pos, i);
      const p = surface(d);
      out.push(p.x, p.y, p.z);
    }
    const g = new BufferGeometry();
    g.setAttribute('position', new Float32BufferAttribute(out, 3));
    g.setIndex(sphere.getIndex());
    return weld(g);
  };

  return { params, center, surface, project, geometry };
}
