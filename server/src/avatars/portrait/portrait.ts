import type { Document } from '@gltf-transform/core';
import sharp from 'sharp';
import { gltfIO } from '../processing/gltf-io.ts';
import { rasterise, type PortraitCamera } from './raster.ts';
import { portraitScene, type PortraitScene } from './scene.ts';

/**
 * A character's portrait for the avatar picker (SPEC.md AV-7): head and shoulders, drawn on the
 * server by a software rasteriser (raster.ts) from the model's own geometry, colours and
 * base-colour textures, written as a small WebP with a transparent background. One renderer for
 * the system characters (forged, then photographed; store.ts) and for uploads (a step of their
 * processing, in its worker and under its limits) — the browser draws none (a CPU-only browser
 * took 20–30 s per WebGL portrait).
 */

/** The portrait's side in pixels (a 96 px card at 2× density). */
export const PORTRAIT_SIZE = 192;
/** Drawn this many times larger, then scaled down: smooth edges. */
const SUPERSAMPLE = 2;
/** Bumped when the renderer or the framing changes: stored portraits are drawn again. */
export const PORTRAIT_REVISION = 1;
export const PORTRAIT_MIME = 'image/webp';

/**
 * The framing, in the stage's measure (framing.ts in the client: the figure normalised to
 * 2.04 m): the view's height, the room above the top of the head, the camera's distance.
 */
const STAGE_HEIGHT = 2.04;
const VIEW_HEIGHT = 0.78;
const HEAD_MARGIN = 0.07;
const DISTANCE = 2.2;
/** Below the head's centre, at least this much shows (chin, neck, the top of the shoulders). */
const CHIN_ROOM = 0.3;

/** The camera for head and shoulders, or null when the scene has nothing to show. */
export function portraitCamera(scene: PortraitScene): PortraitCamera | null {
  const { min, max, head } = scene;
  const height = max.y - min.y;
  if (!scene.surfaces.length || !Number.isFinite(height) || height <= 1e-6) return null;
  const metre = height / STAGE_HEIGHT;
  // The Head bone sits at the neck's top; the head's centre is a little above it.
  const headInside = head !== null && head.y > min.y && head.y <= max.y;
  const headY = Math.min(headInside ? head.y + 0.06 * height : min.y + 0.9 * height, min.y + 0.95 * height);
  const top =
    scene.headTop !== null && scene.headTop > headY
      ? Math.min(scene.headTop, max.y)
      : Math.min(max.y, headY + 0.45 * metre);
  // The chin and the neck stay in: a tall hat widens the view rather than push the face out.
  const bottom = headY - CHIN_ROOM * metre;
  const view = Math.max(VIEW_HEIGHT * metre, top + HEAD_MARGIN * metre - bottom);
  const centreY = top + HEAD_MARGIN * metre - view / 2;
  const x = headInside ? head.x : (min.x + max.x) / 2;
  const z = headInside ? head.z : (min.z + max.z) / 2;
  const facing = scene.facesMinusZ ? -1 : 1;
  const distance = DISTANCE * metre;
  return {
    position: [x, centreY, z + facing * distance],
    facing,
    fov: 2 * Math.atan(view / 2 / distance),
  };
}

/** The portrait of a document as WebP bytes, or null when it has nothing to show. */
export async function renderPortrait(doc: Document): Promise<Uint8Array | null> {
  const scene = await portraitScene(doc);
  const camera = portraitCamera(scene);
  if (!camera) return null;
  const side = PORTRAIT_SIZE * SUPERSAMPLE;
  const pixels = rasterise(scene, camera, side);
  const webp = await sharp(pixels, { raw: { width: side, height: side, channels: 4 } })
    .resize(PORTRAIT_SIZE, PORTRAIT_SIZE, { kernel: 'lanczos3' })
    .webp({ quality: 86, alphaQuality: 90, effort: 4 })
    .toBuffer();
  return new Uint8Array(webp);
}

/** The portrait of a .glb's bytes (the system characters, read back from their store). */
export async function renderGlbPortrait(glb: Uint8Array): Promise<Uint8Array | null> {
  return renderPortrait(await (await gltfIO()).readBinary(glb));
}
