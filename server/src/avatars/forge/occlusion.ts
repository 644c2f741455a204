import { Vector3, type BufferAttribute, type BufferGeometry } from 'three';

/**
 * Ambient occlusion baked into the vertex colours: creases and covered skin (under the fringe
 * and the hat brim, beneath the chin, between the fingers, inside collars and skirts) darken
 * softly, so the characters read as shaded volumes rather than flat colour under any light.
 *
 * The character (rest pose) is rasterised into a voxel grid; from each vertex a fixed fan of
 * rays over the normal's hemisphere marches through it. Deterministic: no random sampling.
 */

const VOXEL = 0.008;
/** How far occluders count (metres): local creases, not the whole body. */
const REACH = 0.11;

/** A fixed, evenly spread fan of directions around +Z (a spiral), cosine-weighted. */
const FAN: Vector3[] = (() => {
  const n = 20;
  const out: Vector3[] = [];
  for (let i = 0; i < n; i++) {
    const r = Math.sqrt((i + 0.5) / n);
    const a = i * 2.399963; // golden angle
    out.push(new Vector3(r * Math.cos(a), r * Math.sin(a), Math.sqrt(Math.max(0, 1 - r * r))));
  }
  return out;
})();

export interface OcclusionGrid {
  /** Occlusion 0 (open) – 1 (covered) seen from a surface point along its normal. */
  at(p: Vector3, n: Vector3): number;
}

export function occlusionGrid(geometries: BufferGeometry[]): OcclusionGrid {
  const min = new Vector3(Infinity, Infinity, Infinity);
  const max = new Vector3(-Infinity, -Infinity, -Infinity);
  for (const g of geometries) {
    g.computeBoundingBox();
    if (g.boundingBox) {
      min.min(g.boundingBox.min);
      max.max(g.boundingBox.max);
    }
  }
  min.subScalar(REACH);
  max.addScalar(REACH);
  const nx = Math.ceil((max.x - min.x) / VOXEL);
  const ny = Math.ceil((max.y - min.y) / VOXEL);
  const nz = Math.ceil((max.z - min.z) / VOXEL);
  const cells = new Uint8Array(nx * ny * nz);
  const cell = (x: number, y: number, z: number) => {
    const i = Math.floor((x - min.x) / VOXEL);
    const j = Math.floor((y - min.y) / VOXEL);
    const k = Math.floor((z - min.z) / VOXEL);
    if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return -1;
    return (k * ny + j) * nx + i;
  };
  // Rasterise every triangle by sampling it finer than a voxel.
  const a = new Vector3();
  const b = new Vector3();
  const c = new Vector3();
  for (const g of geometries) {
    const pos = g.getAttribute('position') as BufferAttribute;
    const index = g.getIndex();
    const count = index ? index.count : pos.count;
    for (let t = 0; t < count; t += 3) {
      const ia = index ? index.getX(t) : t;
      const ib = index ? index.getX(t + 1) : t + 1;
      const ic = index ? index.getX(t + 2) : t + 2;
      a.fromBufferAttribute(pos, ia);
      b.fromBufferAttribute(pos, ib);
      c.fromBufferAttribute(pos, ic);
      const longest = Math.max(a.distanceTo(b), b.distanceTo(c), c.distanceTo(a));
      const steps = Math.max(1, Math.ceil(longest / (VOXEL * 0.5)));
      for (let u = 0; u <= steps; u++) {
        for (let v = 0; v <= steps - u; v++) {
          const s = u / steps;
          const r = v / steps;
          const x = a.x + (b.x - a.x) * s + (c.x - a.x) * r;
          const y = a.y + (b.y - a.y) * s + (c.y - a.y) * r;
          const z = a.z + (b.z - a.z) * s + (c.z - a.z) * r;
          const i = cell(x, y, z);
          if (i >= 0) cells[i] = 1;
        }
      }
    }
  }

  const tangent = new Vector3();
  const bitangent = new Vector3();
  const dir = new Vector3();
  const o = new Vector3();
  return {
    at(p, n) {
      tangent
        .set(Math.abs(n.x) < 0.9 ? 1 : 0, Math.abs(n.x) < 0.9 ? 0 : 1, 0)
        .cross(n)
        .normalize();
      bitangent.crossVectors(n, tangent);
      o.copy(p).addScaledVector(n, VOXEL * 1.5);
      let occluded = 0;
      for (const f of FAN) {
        dir.copy(tangent).multiplyScalar(f.x).addScaledVector(bitangent, f.y).addScaledVector(n, f.z);
        // From just off the surface (clear of its own voxels, even for grazing rays); nearer
        // hits shade more.
        for (let d = 0; d <= REACH; d += VOXEL) {
          const i = cell(o.x + dir.x * d, o.y + dir.y * d, o.z + dir.z * d);
          if (i >= 0 && cells[i]) {
            occluded += 1 - (d / REACH) ** 2;
            break;
          }
        }
      }
      return occluded / FAN.length;
    },
  };
}

/**
 * Occlusion for each vertex of a part, smoothed over the part's own surface (a few rounds of
 * neighbour averaging): the voxel rays are coarse, the shading they give should not be.
 */
export function partOcclusion(
  grid: OcclusionGrid,
  g: BufferGeometry,
  normalAt: (i: number) => Vector3,
): Float32Array {
  const pos = g.getAttribute('position') as BufferAttribute;
  const values = new Float32Array(pos.count);
  const p = new Vector3();
  for (let i = 0; i < pos.count; i++) values[i] = grid.at(p.fromBufferAttribute(pos, i), normalAt(i));
  const index = g.getIndex();
  if (!index) return values;
  const neighbours: number[][] = Array.from({ length: pos.count }, () => []);
  for (let t = 0; t < index.count; t += 3) {
    const [a, b, c] = [index.getX(t), index.getX(t + 1), index.getX(t + 2)];
    neighbours[a]?.push(b, c);
    neighbours[b]?.push(a, c);
    neighbours[c]?.push(a, b);
  }
  let current = values;
  for (let round = 0; round < 3; round++) {
    const next = new Float32Array(current.length);
    for (let i = 0; i < current.length; i++) {
      const near = neighbours[i] ?? [];
      let sum = current[i] ?? 0;
      for (const j of near) sum += current[j] ?? 0;
      next[i] = sum / (near.length + 1);
    }
    current = next;
  }
  return current;
}
