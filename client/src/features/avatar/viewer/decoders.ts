import type { WebGLRenderer } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { DRACOLoader, DRACO_GLTF_CONFIG } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';

/**
 * The glTF loader every viewer shares, able to read each compression the server keeps
 * (`GLTF_EXTENSIONS_SUPPORTED` in protocol/src/avatar-model.ts): meshopt geometry (what
 * processing writes), Draco geometry and KTX2/Basis textures. The Basis transcoder and the Draco
 * decoder (its glTF-only build) are three.js's own files, which the loaders locate with
 * `new URL(…, import.meta.url)`: Vite copies them into our build as hashed assets, so our server
 * serves them with the app — never a CDN. The Draco decoder runs in a worker started from a blob:
 * URL (the security policy's worker-src allows it) and fetches its wasm from our origin. The Basis
 * transcoder needs eval (embind), which the page's policy refuses to a blob: worker: its worker
 * starts from our own `/decoders/basis-worker.js`, served with a policy of its own that allows it
 * (server/src/plugins/security-headers.ts), and runs three.js's worker script from there.
 */

/** The Basis transcoder's worker script (client/public), with its own security policy. */
export const BASIS_WORKER_URL = '/decoders/basis-worker.js';

/** Decoder workers per loader: the avatar engine's own workers share the same few cores. */
const DECODER_WORKERS = 2;

/**
 * Three.js's KTX2Loader with its transcoder worker started from BASIS_WORKER_URL: the loader still
 * fetches the transcoder and builds the worker's script (a blob: URL); each worker is handed that
 * URL to run, then the usual 'init' message with the transcoder's wasm.
 */
export class OwnOriginKTX2Loader extends KTX2Loader {
  private ownWorkers: Promise<void> | null = null;

  override init(): Promise<void> {
    this.ownWorkers ??= super.init().then(() => {
      this.workerPool.setWorkerCreator(() => {
        const worker = new Worker(BASIS_WORKER_URL);
        worker.postMessage({ type: 'alma:script', url: this.workerSourceURL });
        const transcoderBinary = (this.transcoderBinary as ArrayBuffer).slice(0);
        worker.postMessage({ type: 'init', config: this.workerConfig, transcoderBinary }, [transcoderBinary]);
        return worker;
      });
    });
    return this.ownWorkers;
  }
}

let shared: { gltf: GLTFLoader; ktx2: KTX2Loader; ktx2Ready: boolean } | null = null;

function loaders() {
  if (shared) return shared;
  const draco = new DRACOLoader().setDecoderPath(DRACO_GLTF_CONFIG).setWorkerLimit(DECODER_WORKERS);
  const ktx2 = new OwnOriginKTX2Loader().setWorkerLimit(DECODER_WORKERS);
  const gltf = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).setDRACOLoader(draco).setKTX2Loader(ktx2);
  shared = { gltf, ktx2, ktx2Ready: false };
  return shared;
}

/**
 * The shared loader, ready for a model drawn by `renderer`: KTX2 textures are transcoded to a
 * format the GPU takes, asked of the first renderer (every context of a page has the same GPU).
 */
export function gltfLoaderFor(renderer: Pick<WebGLRenderer, 'extensions'> | null): GLTFLoader {
  const l = loaders();
  if (renderer && !l.ktx2Ready) {
    l.ktx2.detectSupport(renderer as WebGLRenderer);
    l.ktx2Ready = true;
  }
  return l.gltf;
}
