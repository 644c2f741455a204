import { join } from 'node:path';
import { CHARACTERS } from './characters/index.ts';
import { readVersioned, writeVersioned } from '../../lib/versioned-file.ts';
import { startWorker } from '../../lib/worker-thread.ts';
import { forgeModel, modelVersion } from './forge.ts';

/**
 * The forge's models on disk: `<dir>/<id>.glb` beside `<dir>/<id>.version` (the hash of what the
 * bytes depend on). A model missing or out of date is forged on first request — concurrent
 * requests for one id share a single build — and kept in memory afterwards.
 */

export interface StoredModel {
  data: Uint8Array;
  version: string;
}

export const DEFAULT_MODEL_ID = 'default';
const isForgeModelId = (id: string): boolean => Object.hasOwn(CHARACTERS, id);

/** Forges a character's model in a worker thread, so a first request never blocks the server. */
export function forgeInWorker(id: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(
      { source: new URL('./worker.ts', import.meta.url), bundle: 'forge-worker.js' },
      { id },
    );
    worker.once('message', (message: { ok: true; glb: Uint8Array } | { ok: false; message: string }) => {
      void worker.terminate();
      if (message.ok) resolve(message.glb);
      else reject(new Error(message.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`forge worker stopped (exit ${code})`)));
  });
}

/**
 * `forge` makes a model's bytes: in this thread by default (the build script), in a worker thread
 * for the server (`forgeInWorker`).
 */
export function createModelStore(
  dir: string,
  forge: (id: string) => Promise<Uint8Array> = async (id) => {
    const spec = CHARACTERS[id];
    if (!spec) throw new Error(`forge: no character ${id}`);
    return (await forgeModel(spec)).glb;
  },
) {
  const memory = new Map<string, StoredModel>();
  const building = new Map<string, Promise<StoredModel>>();
  let forged = 0;

  const paths = (id: string) => ({ data: join(dir, `${id}.glb`), version: join(dir, `${id}.version`) });

  async function build(id: string): Promise<StoredModel> {
    const spec = CHARACTERS[id];
    if (!spec) throw new Error(`forge: no character ${id}`);
    const version = modelVersion(spec);
    const current = await readVersioned(paths(id), version);
    if (current) return { data: current, version };
    const glb = await forge(id);
    await writeVersioned(paths(id), glb, version);
    forged++;
    return { data: glb, version };
  }

  return {
    dir,
    /** The model's bytes and version; null for an id the forge does not make. */
    async get(id: string): Promise<StoredModel | null> {
      if (!isForgeModelId(id)) return null;
      const spec = CHARACTERS[id];
      const kept = memory.get(id);
      if (kept && spec && kept.version === modelVersion(spec)) return kept;
      let pending = building.get(id);
      if (!pending) {
        pending = build(id).finally(() => building.delete(id));
        building.set(id, pending);
      }
      const model = await pending;
      memory.set(id, model);
      return model;
    },
    /** Models forged (not read from disk) by this store: "generated once" in tests. */
    get forgedCount(): number {
      return forged;
    },
  };
}

export type ModelStore = ReturnType<typeof createModelStore>;
