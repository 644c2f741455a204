import type { BufferAttribute } from 'three';
import {
  BufferGeometry,
  Color,
  DoubleSide,
  Float32BufferAttribute,
  Group,
  MeshStandardMaterial,
  Skeleton,
  SkinnedMesh,
  Uint16BufferAttribute,
  Vector3,
  type Bone,
} from 'three';
import type { Rig } from './rig.ts';
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

function material(slot: Slot, look: MaterialLook): MeshStandardMaterial {
  const m = new MeshStandardMaterial({ name: slot, vertexColors: true, color: 0xffffff });
  switch (slot) {
    case 'skin':
      m.roughness = 0.62;
      m.metalness = 0;
      break;
    case 'cloth':
      m.roughness = 0.82;
      m.metalness = 0;
      break;
    case 'hair':
      m.roughness = 0.55;
      m.metalness = 0;
      m.side = DoubleSide;
      break;
    case 'gloss':
      m.roughness = 0.3;
      m.metalness = 0;
      break;
    case 'eye':
      m.roughness = 0.18;
      m.metalness = 0;
      break;
    case 'metal':
      m.roughness = 0.32;
      m.metalness = look.metalness ?? 0.55;
      break;
    case 'glow':
      m.roughness = 0.4;
      m.metalness = 0;
      m.emissive = new Color(look.glowColor ?? '#7fe8ff');
      break;
  }
  return m;
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
    for (const part of parts) {
      const base = positions.length / 3;
      const pos = part.geometry.getAttribute('position');
      const nor = part.geometry.getAttribute('normal');
      for (let i = 0; i < pos.count; i++) {
        p.fromBufferAttribute(pos, i);
        positions.push(p.x, p.y, p.z);
        n.fromBufferAttribute(nor, i);
        // Degenerate spots (cap tips, poles) have no normal: point them up rather than nowhere.
        if (n.lengthSq() < 1e-12) n.set(0, 1, 0);
        n.normalize();
        normals.push(n.x, n.y, n.z);
        const c = part.color(p, i);
        colors.push(c.r, c.g, c.b);
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
      return material(gr.slot, look);
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
