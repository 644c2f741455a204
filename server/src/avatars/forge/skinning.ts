import { Vector3 } from 'three';
import type { Rig } from './rig.ts';

/**
 * How a part follows the skeleton. `rigid`: one bone. `chain`: bones in order (each runs to the
 * next, the last to its tip); a vertex is weighted by its position along the chain, blending
 * smoothly across each joint over ±`blend` metres — smooth elbows, knees and spine, no tearing.
 * `fixed`: given bones and weights (summing to 1).
 */
export type SkinSpec =
  { rigid: string } | { chain: string[]; blend?: number } | { fixed: [string, number][] };

export interface VertexWeights {
  joints: [number, number, number, number];
  weights: [number, number, number, number];
}

const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

export function createWeigher(rig: Rig, boneIndex: Map<string, number>) {
  const indexOf = (name: string): number => {
    const i = boneIndex.get(name);
    if (i === undefined) throw new Error(`skinning: unknown bone ${name}`);
    return i;
  };
  const restOf = (name: string): Vector3 => {
    const at = rig.rest.get(name);
    if (!at) throw new Error(`skinning: unknown bone ${name}`);
    return at;
  };

  return function weigh(spec: SkinSpec, p: Vector3): VertexWeights {
    if ('rigid' in spec) return { joints: [indexOf(spec.rigid), 0, 0, 0], weights: [1, 0, 0, 0] };
    if ('fixed' in spec) {
      const out: VertexWeights = { joints: [0, 0, 0, 0], weights: [0, 0, 0, 0] };
      spec.fixed.slice(0, 4).forEach(([name, w], k) => {
        out.joints[k] = indexOf(name);
        out.weights[k] = w;
      });
      return out;
    }
    const chain = spec.chain;
    const segs = chain.map((name, i) => {
      const a = restOf(name);
      const next = chain[i + 1] ?? rig.tip.get(name);
      const b = next ? restOf(next) : a.clone().add(new Vector3(0, 0.05, 0));
      return { a, b, len: a.distanceTo(b) };
    });
    // Nearest segment, and the vertex's arc length along the chain.
    let bestD = Infinity;
    let bestS = 0;
    let start = 0;
    const tmp = new Vector3();
    segs.forEach((seg) => {
      const ab = tmp.copy(seg.b).sub(seg.a);
      const t =
        seg.len > 0 ? Math.min(1, Math.max(0, p.clone().sub(seg.a).dot(ab) / (seg.len * seg.len))) : 0;
      const q = seg.a.clone().addScaledVector(ab, t);
      const d = q.distanceTo(p);
      if (d < bestD - 1e-9) {
        bestD = d;
        bestS = start + t * seg.len;
      }
      start += seg.len;
    });
    // Partition of unity: bone i owns [J_i, J_i+1], ramps across each joint.
    const joints: number[] = [0];
    for (const seg of segs) joints.push((joints[joints.length - 1] ?? 0) + seg.len);
    const blend = spec.blend ?? 0.04;
    const raw: number[] = chain.map((_, i) => {
      const lo = joints[i] ?? 0;
      const hi = joints[i + 1] ?? lo;
      const bLo = Math.min(blend, 0.45 * (segs[i - 1]?.len ?? Infinity), 0.45 * (segs[i]?.len ?? Infinity));
      const bHi = Math.min(blend, 0.45 * (segs[i]?.len ?? Infinity), 0.45 * (segs[i + 1]?.len ?? Infinity));
      const up = i === 0 ? 1 : smoothstep(lo - bLo, lo + bLo, bestS);
      const down = i === chain.length - 1 ? 1 : 1 - smoothstep(hi - bHi, hi + bHi, bestS);
      return Math.max(0, Math.min(up, down));
    });
    const ranked = raw
      .map((w, i) => ({ w, j: indexOf(chain[i] ?? '') }))
      .filter((x) => x.w > 1e-4)
      .sort((a, b) => b.w - a.w)
      .slice(0, 4);
    const sum = ranked.reduce((s, x) => s + x.w, 0) || 1;
    const out: VertexWeights = { joints: [0, 0, 0, 0], weights: [0, 0, 0, 0] };
    ranked.forEach((x, k) => {
      out.joints[k] = x.j;
      out.weights[k] = x.w / sum;
    });
    if (ranked.length === 0) {
      out.joints[0] = indexOf(chain[0] ?? '');
      out.weights[0] = 1;
    }
    return out;
  };
}
