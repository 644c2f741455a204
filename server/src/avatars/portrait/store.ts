import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CHARACTERS } from '../forge/characters/index.ts';
import { modelVersion } from '../forge/forge.ts';
import type { ModelStore } from '../forge/model-store.ts';
import { readVersioned, writeVersioned } from '../../lib/versioned-file.ts';
import { startWorker } from '../../lib/worker-thread.ts';
import { PORTRAIT_REVISION, renderGlbPortrait } from './portrait.ts';

/**
 * The system characters' portraits (SPEC.md AV-7) beside their models: `<dir>/<id>.portrait.webp`
 * with its `.portrait.version` (the model's version and the renderer's revision). Drawn from the
 * forged model when missing or out of date — on first request, like the models, or by
 * `npm run avatars:build` — and kept in memory afterwards.
 */

export interface StoredPortrait {
  data: Uint8Array;
  version: string;
}

/** The version a character's portrait has now (its URL carries it); null for an unknown id. */
export function portraitVersion(id: string): string | null {
  const spec = Object.hasOwn(CHARACTERS, id) ? CHARACTERS[id] : undefined;
  if (!spec) return null;
  return createHash('sha256')
    .update(`${modelVersion(spec)}:${PORTRAIT_REVISION}`)
    .digest('hex')
    .slice(0, 16);
}

/** Draws a portrait in a worker thread: a first request never blocks the server. */
export function portraitInWorker(glb: Uint8Array): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(
      { source: new URL('./worker.ts', import.meta.url), bundle: 'portrait-worker.js' },
      { glb },
    );
    worker.once(
      'message',
      (message: { ok: true; portrait: Uint8Array | null } | { ok: false; message: string }) => {
        void worker.terminate();
        if (message.ok) resolve(message.portrait);
        else reject(new Error(message.message));
      },
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`portrait worker stopped (exit ${code})`)));
  });
}

/** `render` draws in this thread by default (the build script), in a worker for the server. */
export function createPortraitStore(
  dir: string,
  models: ModelStore,
  render: (glb: Uint8Array) => Promise<Uint8Array | null> = renderGlbPortrait,
) {
  const memory = new Map<string, StoredPortrait>();
  const building = new Map<string, Promise<StoredPortrait | null>>();
  let drawn = 0;
  /**
   * One portrait at a time, its model forged first if need be: a first visit to the picker on a
   * fresh server asks for nine at once, and nine forges side by side starved the server itself.
   */
  let drawing: Promise<unknown> = Promise.resolve();
  const inTurn = (id: string) => {
    const turn = drawing.then(async () => {
      const model = await models.get(id);
      return model ? render(model.data) : null;
    });
    drawing = turn.catch(() => undefined);
    return turn;
  };
  const paths = (id: string) => ({
    data: join(dir, `${id}.portrait.webp`),
    version: join(dir, `${id}.portrait.version`),
  });

  async function build(id: string, version: string): Promise<StoredPortrait | null> {
    const current = await readVersioned(paths(id), version);
    if (current) return { data: current, version };
    const data = await inTurn(id);
    if (!data) return null;
    await writeVersioned(paths(id), data, version);
    drawn++;
    return { data, version };
  }

  return {
    dir,
    /** The portrait's bytes and version; null for an id the forge does not make. */
    async get(id: string): Promise<StoredPortrait | null> {
      const version = portraitVersion(id);
      if (!version) return null;
      const kept = memory.get(id);
      if (kept?.version === version) return kept;
      let pending = building.get(id);
      if (!pending) {
        pending = build(id, version).finally(() => building.delete(id));
        building.set(id, pending);
      }
      const portrait = await pending;
      if (portrait) memory.set(id, portrait);
      return portrait;
    },
    /**
     * The portrait if it is at hand now (in memory or on disk); otherwise null, with its drawing
     * started. The route answers "not yet" at once instead of holding the request while a model is
     * forged: a browser holds six connections per server, and nine held requests starved the rest.
     */
    async ready(id: string): Promise<StoredPortrait | null> {
      const version = portraitVersion(id);
      if (!version) return null;
      const kept = memory.get(id);
      if (kept?.version === version) return kept;
      const stored = await readVersioned(paths(id), version);
      if (stored) {
        const portrait = { data: stored, version };
        memory.set(id, portrait);
        return portrait;
      }
      void this.get(id).catch(() => undefined);
      return null;
    },
    /** Portraits drawn (not read from disk) by this store. */
    get drawnCount(): number {
      return drawn;
    },
  };
}
export type PortraitStore = ReturnType<typeof createPortraitStore>;
