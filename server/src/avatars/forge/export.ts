import { Logger, NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMaterialsSheen, KHRMeshQuantization } from '@gltf-transform/extensions';
import { dedup, meshopt, prune } from '@gltf-transform/functions';
import { validateBytes, type ValidatorReport } from 'gltf-validator';
import { MeshoptEncoder } from 'meshoptimizer';
import type { Object3D } from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import { installNodeShims } from './node-shims.ts';

/**
 * three.js scene → GLB → Khronos validator (must report 0 errors; it cannot look inside meshopt
 * data, so it runs first) → meshopt compression with quantisation.
 */

export async function exportGlb(root: Object3D): Promise<Uint8Array> {
  installNodeShims();
  const result = await new GLTFExporter().parseAsync(root, { binary: true, onlyVisible: false });
  if (!(result instanceof ArrayBuffer)) throw new Error('forge: exporter did not return a GLB');
  return new Uint8Array(result);
}

export async function validateGlb(glb: Uint8Array): Promise<ValidatorReport> {
  return validateBytes(glb, { maxIssues: 50, format: 'glb' });
}

let io: Promise<NodeIO> | null = null;
function gltfIO(): Promise<NodeIO> {
  io ??= MeshoptEncoder.ready.then(() =>
    new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.WARN))
      .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization, KHRMaterialsSheen])
      .registerDependencies({ 'meshopt.encoder': MeshoptEncoder }),
  );
  return io;
}

export async function compressGlb(glb: Uint8Array): Promise<Uint8Array> {
  const nodeIO = await gltfIO();
  const doc = await nodeIO.readBinary(glb);
  doc.setLogger(new Logger(Logger.Verbosity.WARN));
  await doc.transform(
    prune({ keepAttributes: true }),
    dedup(),
    meshopt({ encoder: MeshoptEncoder, level: 'medium' }),
  );
  return nodeIO.writeBinary(doc);
}
