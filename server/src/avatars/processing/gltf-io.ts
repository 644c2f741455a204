import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import draco3d from 'draco3dgltf';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

/**
 * One NodeIO that reads every Khronos extension — meshopt- and Draco-compressed uploads too — and
 * writes meshopt. Draco is only decoded: processing re-compresses geometry with meshopt.
 */
let io: Promise<NodeIO> | null = null;

export function gltfIO(): Promise<NodeIO> {
  io ??= (async () => {
    const [dracoDecoder] = await Promise.all([
      draco3d.createDecoderModule(),
      MeshoptDecoder.ready,
      MeshoptEncoder.ready,
    ]);
    return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
      'draco3d.decoder': dracoDecoder,
      'meshopt.decoder': MeshoptDecoder,
      'meshopt.encoder': MeshoptEncoder,
    });
  })();
  return io;
}

/** The 12-byte GLB header: magic `glTF`, version 2, and a length that matches the file. */
export function hasGlbHeader(bytes: Uint8Array, fileSize = bytes.length): boolean {
  if (bytes.length < 12) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, 12);
  return (
    view.getUint32(0, true) === 0x46546c67 &&
    view.getUint32(4, true) === 2 &&
    view.getUint32(8, true) === fileSize
  );
}
