import { parentPort, workerData } from 'node:worker_threads';
import { CHARACTERS } from './characters/index.ts';
import { forgeModel } from './forge.ts';

/**
 * Forges one system avatar off the server's event loop (model-store.ts starts it when a model is
 * missing on first request): building and compressing a character takes 0.5–3 s of CPU.
 */
const { id } = workerData as { id: string };
const spec = CHARACTERS[id];
try {
  if (!spec) throw new Error(`forge: no character ${id}`);
  const model = await forgeModel(spec);
  parentPort?.postMessage({ ok: true, glb: model.glb }, [model.glb.buffer as ArrayBuffer]);
} catch (error) {
  parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
