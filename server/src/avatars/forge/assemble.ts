import type { BufferAttribute } from 'three';
import {
  BufferGeometry,
  Color,
  Float32BufferAttribute,
  Group,
  Skeleton,
  SkinnedMesh,
  Uint16BufferAttribute,
  Vector3,
  type Bone,
} from 'three';
import type { Rig } from './rig.ts';
import { slotMaterial } from './materials.ts';
import { occlusionGrid, partOcclusion } from './occlusion.ts';
import { createWeigher, type SkinSpec } from './skinning.ts';

/**
 * Collects a character's parts and assembles them into skinned meshes sharing one skeleton:
 * `Body` (clothes, limbs), `Head` (skull, hair, hat) and `Face` (eyes, brows, mouth; the only
 * mesh with morph targets). Parts are grouped by material so each mesh has few primitives.
 */

export type MeshName = 'Body' | 'Head' | 'Face';
export type Slot = 'skin' | 'cloth' | 'gloss' | 'metal' | 'hair' | 'glow' | 'eye';

export interface PartOptions {
  color: string | ((p: Vector3, i: number) => string);
  skin: SkinSpec;
  slot?: Slot;
  mesh?: MeshName;
}

interface Part extends Required<Omit<PartOptions, 'color'>> {
  geometry: BufferGeometry;
  color: (p: Vector3, i: number) => Color;
  /** Morph deltas, per target name, for Face parts. */
  morphs?: Map<string, Float32Array>;
}

export interface MaterialLook {
  glowColor?: string;
  metalness?: number;
}

/** How much baked occlusion darkens each slot (occlusion.ts); glowing parts stay lit. */
const OCCLUSION: Record<Slot, number> = {
  skin: 0.55,
  cloth: 0.6,
  hair: 0.5,
  gloss: 0.5,
  metal: 0.45,
  eye: 0.3,
  glow: 0,
};

const SLOT_ORDER: Slot[] = ['skin', 'cloth', 'hair', 'gloss', 'metal', 'eye', 'glow'];

export class PartList {
  readonly parts: Part[] = [];

  add(geometry: BufferGeometry, opts: PartOptions, morphs?: Map<string, Float32Array>): void {
    const color = opts.color;
    const cache = new Map<string, Color>();
    const toColor = (hex: string) => {
      let c = cache.get(hex);
      if (!c) cache.set(hex, (c = new Color(hex)));
      return c;
    };
    this.parts.push({
      geometry: geometry.index ? geometry : indexed(geometry),
      color: typeof color === 'string' ? () => toColor(color) : (p, i) => toColor(color(p, i)),
      skin: opts.skin,
      slot: opts.slot ?? 'cloth',
      mesh: opts.mesh ?? 'Body',
      ...(morphs ? { morphs } : {}),
    });
  }
}

function indexed(g: BufferGeometry): BufferGeometry {
  const count = g.getAttribute('position').count;
  g.setIndex(Array.from({ length: count }, (_, i) => i));
  return g;
}

export function assemble(
  rig: Rig,
  list: PartList,
  morphNames: readonly string[],
  look: MaterialLook,
  name: string,
): Group {
  const bones: Bone[] = [...rig.bones.values()];
  const boneIndex = new Map(bones.map((b, i) => [b.name, i]));
  const weigh = createWeigher(rig, boneIndex);
  const group = new Group();
  group.name = name;
  group.add(rig.root);
  group.updateMatrixWorld(true);
  const skeleton = new Skeleton(bones);
  const occlusion = occlusionGrid(list.parts.map((part) => part.geometry));

  for (const meshName of ['Body', 'Head', 'Face'] as const) {
    const parts = list.parts
      .filter((p) => p.mesh === meshName)
      .sort((a, b) => SLOT_ORDER.indexOf(a.slot) - SLOT_ORDER.indexOf(b.slot));
    if (parts.length === 0) continue;
    const positions: number[] = [];
    const normals: number[] = [];
    const colors: number[] = [];
    const skinIndex: number[] = [];
    const skinWeight: number[] = [];
    const index: number[] = [];
    const withMorphs = meshName === 'Face';
    const morphData = morphNames.map(() => [] as number[]);
    const groups: { start: number; count: number; slot: Slot }[] = [];
    const p = new Vector3();
    const n = new Vector3();
    const tones: Partial<Record<Slot, { r: number; g: number; b: number; n: number }>> = {};
    for (const part of parts) {
      const base = positions.length / 3;
      const pos = part.geometry.getAttribute('position');
      const nor = part.geometry.getAttribute('normal');
      const occluded = partOcclusion(occlusion, part.geometry, (i) => {
        n.fromBufferAttribute(nor, i);
        return n.lengthSq() < 1e-12 ? n.set(0, 1, 0) : n.normalize();
      });
      for (let i = 0; i < pos.count; i++) {
        p.fromBufferAttribute(pos, i);
        positions.push(p.x, p.y, p.z);
        n.fromBufferAttribute(nor, i);
        // Degenerate spots (cap tips, poles) have no normal: point them up rather than nowhere.
        if (n.lengthSq() < 1e-12) n.set(0, 1, 0);
        n.normalize();
        normals.push(n.x, n.y, n.z);
        const c = part.color(p, i);
        const sum = (tones[part.slot] ??= { r: 0, g: 0, b: 0, n: 0 });
        sum.r += c.r;
        sum.g += c.g;
        sum.b += c.b;
        sum.n += 1;
        const shade = 1 - OCCLUSION[part.slot] * (occluded[i] ?? 0);
        colors.push(c.r * shade, c.g * shade, c.b * shade);
        const w = weigh(part.skin, p);
        skinIndex.push(...w.joints);
        skinWeight.push(...w.weights);
      }
      if (withMorphs) {
        morphNames.forEach((m, k) => {
          const delta = part.morphs?.get(m);
          const out = morphData[k] as number[];
          for (let i = 0; i < pos.count * 3; i++) out.push(delta?.[i] ?? 0);
        });
      }
      const idx = part.geometry.getIndex() as BufferAttribute;
      const last = groups[groups.length - 1];
      const start = index.length;
      for (let i = 0; i < idx.count; i++) index.push(base + idx.getX(i));
      if (last && last.slot === part.slot) last.count += idx.count;
      else groups.push({ start, count: idx.count, slot: part.slot });
    }
    const g = new BufferGeometry();
    g.setAttribute('position', new Float32BufferAttribute(positions, 3));
    g.setAttribute('normal', new Float32BufferAttribute(normals, 3));
    g.setAttribute('color', new Float32BufferAttribute(colors, 3));
    g.setAttribute('skinIndex', new Uint16BufferAttribute(skinIndex, 4));
    g.setAttribute('skinWeight', new Float32BufferAttribute(skinWeight, 4));
    g.setIndex(index);
    const materials = groups.map((gr, i) => {
      g.addGroup(gr.start, gr.count, i);
      const t = tones[gr.slot] ?? { r: 1, g: 1, b: 1, n: 1 };
      return slotMaterial(gr.slot, look, { mean: new Color(t.r / t.n, t.g / t.n, t.b / t.n) });
    });
    if (withMorphs) {
      g.morphTargetsRelative = true;
      g.morphAttributes.position = morphData.map((d, k) => {
        const a = new Float32BufferAttribute(d, 3);
        a.name = morphNames[k] ?? '';
        return a;
      });
    }
    const mesh = new SkinnedMesh(g, materials);
    mesh.name = meshName;
    if (withMorphs) {
      mesh.morphTargetDictionary = Object.fromEntries(morphNames.map((m, k) => [m, k]));
      mesh.morphTargetInfluences = morphNames.map(() => 0);
    }
    group.add(mesh);
    mesh.bind(skeleton);
  }
  return group;
}
