import { Box3, Vector3, type Object3D } from 'three';
import type { Gesture } from '@alma/protocol';

/**
 * Framing from the model's own bounds (SPEC ST-2): any model — 0.2 m or 200 m tall, its origin at
 * its feet, its centre or anywhere, facing +Z or −Z — is scaled to one standing height, stood on
 * the stage's floor, centred and turned to face the camera. The camera then frames a region of
 * that normalised figure: head and shoulders (portrait) or the whole body, pushing in slowly while
 * the avatar speaks and backing out for full-body gestures (SPEC ST-3). Pure maths, no React.
 */

/** The normalised figure: this tall, feet on this floor (the stage's old fixed 1.7 m × 1.2 placement). */
export const STAGE_HEIGHT = 2.04;
export const STAGE_FLOOR_Y = -1.2;

export type FramingMode = 'portrait' | 'full';

/** Where a loaded model is placed: a uniform scale, then a turn about Y, then a shift. */
export interface Placement {
  scale: number;
  /** 0 or π: a model facing −Z is turned to face the camera. */
  turnY: number;
  position: [number, number, number];
  /** The head's centre height in stage space (from a Head bone, else estimated from the bounds). */
  headY: number;
  /** Whether the model has a skin (a static mesh idles by swaying as a whole). */
  skinned: boolean;
}

const LEFT = /(^|[^a-z])(left|l)([^a-z]|$)|left|^l[A-Z_]/;
const RIGHT = /(^|[^a-z])(right|r)([^a-z]|$)|right|^r[A-Z_]/;
const ARM = /hand|arm|shoulder|clavicle|wrist/i;

/** The world X of the first node whose name matches side and arm, or null. */
function sideX(root: Object3D, side: RegExp): number | null {
  let found: number | null = null;
  root.traverse((node) => {
    if (found !== null || !node.name || !ARM.test(node.name)) return;
    const name = node.name.replace(/^mixamorig:?/i, '');
    if (side.test(name) || side.test(name.toLowerCase())) found = node.getWorldPosition(new Vector3()).x;
  });
  return found;
}

/**
 * Measures a loaded scene and answers where to place it, or null when it has nothing to show (no
 * mesh, or bounds that are empty, flat to a point or not finite).
 */
export function placeModel(scene: Object3D): Placement | null {
  scene.updateMatrixWorld(true);
  let meshes = 0;
  let skinned = false;
  let head: Object3D | null = null;
  scene.traverse((node) => {
    const mesh = node as Object3D & { isMesh?: boolean; isSkinnedMesh?: boolean };
    if (mesh.isMesh && node.visible) meshes += 1;
    if (mesh.isSkinnedMesh) skinned = true;
    if (!head && /(^|[^a-z])head$/i.test(node.name.replace(/^mixamorig:?/i, ' '))) head = node;
  });
  if (meshes === 0) return null;
  const box = new Box3().setFromObject(scene);
  const size = box.getSize(new Vector3());
  const height = size.y;
  if (box.isEmpty() || !Number.isFinite(height) || height <= 1e-6 || Math.max(size.x, size.z) <= 1e-6)
    return null;
  const scale = STAGE_HEIGHT / height;
  // Mixamo, VRM and every humanoid rig: the figure's left arm is on +X when it faces +Z.
  const left = sideX(scene, LEFT);
  const right = sideX(scene, RIGHT);
  const centre = box.getCenter(new Vector3());
  const turnY = left !== null && right !== null && left < right - 1e-6 ? Math.PI : 0;
  const sign = turnY ? -1 : 1;
  const position: [number, number, number] = [
    -centre.x * scale * sign,
    STAGE_FLOOR_Y - box.min.y * scale,
    -centre.z * scale * sign,
  ];
  const headNode = head as Object3D | null;
  const headWorld = headNode ? headNode.getWorldPosition(new Vector3()).y : null;
  const headY =
    headWorld !== null && headWorld > box.min.y && headWorld <= box.max.y
      ? // The Head bone sits at the neck's top; the head's centre is a little above it.
        STAGE_FLOOR_Y + (headWorld - box.min.y) * scale + 0.06 * STAGE_HEIGHT
      : STAGE_FLOOR_Y + 0.9 * STAGE_HEIGHT;
  return { scale, turnY, position, headY: Math.min(headY, STAGE_FLOOR_Y + 0.95 * STAGE_HEIGHT), skinned };
}

/** Gestures that use the whole body: the camera backs out to show them (SPEC ST-3). */
export const FULL_BODY_GESTURES: readonly Gesture[] = ['kneeling', 'celebration'];

/** What the camera should show now, as a point to look at and the height of the view there. */
export interface Shot {
  target: [number, number, number];
  /** Distance from the target to the camera. */
  distance: number;
  /** Vertical field of view in degrees. */
  fov: number;
}

/** Camera distances per mode; the view's size comes from the field of view (a portrait lens). */
const DISTANCE: Record<FramingMode, number> = { portrait: 2.2, full: 4.2 };
/** How much of the figure each mode shows, in stage metres, and how wide (for narrow canvases). */
const REGION = {
  portrait: { height: 0.95, width: 0.9 },
  full: { height: STAGE_HEIGHT + 0.3, width: 1.4 },
};
/** Speaking: the portrait closes in to this share of its region. */
export const SPEAKING_PUSH_IN = 0.82;

/**
 * The shot for a mode: a portrait centres a little below the head's centre (the shoulders show), a
 * full shot the whole figure. `aspect` (width / height) keeps the region's width in a tall canvas.
 */
export function shotFor(
  mode: FramingMode,
  placement: Pick<Placement, 'headY'>,
  aspect: number,
  speaking = false,
): Shot {
  const region = REGION[mode];
  const push = mode === 'portrait' && speaking ? SPEAKING_PUSH_IN : 1;
  const halfHeight = (Math.max(region.height, region.width / Math.max(aspect, 0.1)) / 2) * push;
  const distance = DISTANCE[mode];
  const fov = (2 * Math.atan(halfHeight / distance) * 180) / Math.PI;
  // A portrait hangs from just above the top of the head (hair and ears stay in), the shoulders
  // below; a head well under the figure's top (raised arms, a hat) is framed by the head instead.
  const top = Math.min(STAGE_FLOOR_Y + STAGE_HEIGHT, placement.headY + 0.45) + 0.06;
  const y = mode === 'portrait' ? top - halfHeight : STAGE_FLOOR_Y + STAGE_HEIGHT / 2 + 0.05;
  return { target: [0, y, 0], distance, fov };
}

/** The mode in force: a full-body gesture playing shows the full body whatever was chosen. */
export function effectiveMode(
  chosen: FramingMode,
  gesture: Gesture | null,
  gesturePlaying: boolean,
): FramingMode {
  return gesturePlaying && gesture && FULL_BODY_GESTURES.includes(gesture) ? 'full' : chosen;
}

/**
 * Eases a value toward its goal with a time constant (seconds): frame-rate independent, so the
 * push-in is as slow on a 30 fps phone as on a 60 fps desktop.
 */
export function ease(current: number, goal: number, dtSeconds: number, timeConstant: number): number {
  const k = 1 - Math.exp(-Math.max(0, dtSeconds) / timeConstant);
  return current + (goal - current) * k;
}
