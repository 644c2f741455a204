import type { Document } from '@gltf-transform/core';
import { getSceneVertexCount, VertexCountMethod } from '@gltf-transform/functions';

export type Vec3 = [number, number, number];

/** What a model holds, read with glTF-Transform: the facts the rig analysis and the report use. */
export interface ModelInspection {
  meshes: number;
  skins: number;
  /** Joint node names across all skins, in file order. */
  bones: string[];
  /** Each joint's depth in the node hierarchy (orders a spine chain for the rig matcher). */
  boneDepth: Record<string, number>;
  /** World-space rest positions of the joints, by name. */
  boneWorld: Record<string, Vec3>;
  /** Morph target names (`extras.targetNames`) across all meshes, deduplicated. */
  morphTargets: string[];
  textures: { name: string; mimeType: string; width: number | null; height: number | null; bytes: number }[];
  vertexCount: number;
  animations: string[];
}

export function inspectDocument(doc: Document): ModelInspection {
  const root = doc.getRoot();
  const bones: string[] = [];
  const boneWorld: Record<string, Vec3> = {};
  const boneDepth: Record<string, number> = {};
  for (const skin of root.listSkins()) {
    for (const joint of skin.listJoints()) {
      const name = joint.getName();
      if (name in boneWorld) continue;
      bones.push(name);
      boneWorld[name] = joint.getWorldTranslation();
      let depth = 0;
      for (let n = joint.getParentNode(); n; n = n.getParentNode()) depth += 1;
      boneDepth[name] = depth;
    }
  }
  const morphs = new Set<string>();
  for (const mesh of root.listMeshes()) {
    const names = (mesh.getExtras() as { targetNames?: unknown }).targetNames;
    if (Array.isArray(names)) for (const n of names) if (typeof n === 'string' && n) morphs.add(n);
    for (const prim of mesh.listPrimitives())
      for (const target of prim.listTargets()) if (target.getName()) morphs.add(target.getName());
  }
  const textures = root.listTextures().map((t) => {
    const size = t.getSize();
    return {
      name: t.getName() || t.getURI() || 'texture',
      mimeType: t.getMimeType(),
      width: size?.[0] ?? null,
      height: size?.[1] ?? null,
      bytes: t.getImage()?.byteLength ?? 0,
    };
  });
  const vertexCount = root
    .listScenes()
    .reduce((n, scene) => n + getSceneVertexCount(scene, VertexCountMethod.UPLOAD), 0);
  return {
    meshes: root.listMeshes().length,
    skins: root.listSkins().length,
    bones,
    boneDepth,
    boneWorld,
    morphTargets: [...morphs],
    textures,
    vertexCount,
    animations: root.listAnimations().map((a) => a.getName()),
  };
}
