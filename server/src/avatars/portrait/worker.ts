import { parentPort, workerData } from 'node:worker_threads';
import { renderGlbPortrait } from './portrait.ts';

/**
 * Draws one system character's portrait off the server's event loop (store.ts starts it when a
 * portrait is missing on first request): reading the model and rasterising take 0.2–0.5 s.
 */
const { glb } = workerData as { glb: Uint8Array };
try {
  const portrait = await renderGlbPortrait(glb);
  parentPort?.postMessage({ ok: true, portrait });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
