import { Box3, Vector3, type Object3D, type SkinnedMesh } from 'three';
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
  /**
   * The top of the head in stage space with what it wears: hair, ears, a hat (the highest point
   * skinned to the Head bone or hung under it), else the figure's top.
   */
  headTop: number;
  /** The figure's width in stage space: a static mesh keeps its pose, so its portrait fits it. */
  width: number;
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

/** The bones and nodes at and under `head`: what moves with the head (hair, hat, ears, eyes). */
function subtree(head: Object3D): Set<Object3D> {
  const nodes = new Set<Object3D>();
  head.traverse((node) => nodes.add(node));
  return nodes;
}

/**
 * The highest world Y of what moves with the head: the vertices of skinned meshes whose strongest
 * weight is on the head or a bone under it, and every mesh hung under the head node. Null when
 * nothing is (a head bone with no geometry of its own).
 */
function headTopY(scene: Object3D, head: Object3D): number | null {
  const under = subtree(head);
  const point = new Vector3();
  let top = -Infinity;
  scene.traverse((node) => {
    const mesh = node as SkinnedMesh & { isMesh?: boolean; isSkinnedMesh?: boolean };
    if (!mesh.isMesh || !node.visible) return;
    if (under.has(node)) {
      top = Math.max(top, new Box3().setFromObject(node).max.y);
      return;
    }
    if (!mesh.isSkinnedMesh || !mesh.skeleton) return;
    const onHead = mesh.skeleton.bones.map((bone) => under.has(bone));
    if (!onHead.some(Boolean)) return;
    const index = mesh.geometry.getAttribute('skinIndex');
    const weight = mesh.geometry.getAttribute('skinWeight');
    const count = mesh.geometry.getAttribute('position')?.count ?? 0;
    if (!index || !weight) return;
    for (let i = 0; i < count; i++) {
      let strongest = 0;
      for (let k = 1; k < 4; k++)
        if (weight.getComponent(i, k) > weight.getComponent(i, strongest)) strongest = k;
      if (!onHead[index.getComponent(i, strongest)]) continue;
      mesh.getVertexPosition(i, point).applyMatrix4(mesh.matrixWorld);
      top = Math.max(top, point.y);
    }
  });
  return Number.isFinite(top) ? top : null;
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
  const toStage = (y: number) => STAGE_FLOOR_Y + (y - box.min.y) * scale;
  const topOfHead = headNode && headWorld !== null ? headTopY(scene, headNode) : null;
  const figureTop = STAGE_FLOOR_Y + STAGE_HEIGHT;
  const placedHeadY = Math.min(headY, STAGE_FLOOR_Y + 0.95 * STAGE_HEIGHT);
  // What hangs from the head, if it reaches above the head's centre; else the old estimate (the
  // head's centre + 0.45 m, never above the figure), which leaves raised arms out of a portrait.
  const headTop =
    topOfHead !== null && toStage(topOfHead) > placedHeadY
      ? Math.min(toStage(topOfHead), figureTop)
      : Math.min(figureTop, placedHeadY + 0.45);
  return { scale, turnY, position, headY: placedHeadY, headTop, width: size.x * scale, skinned };
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
/**
 * A canvas shorter than this (CSS px) gets a closer portrait: a phone's canvas is capped at
 * 320 × 240 (spec §9), where head and shoulders left a face ~90 px wide; head and neck give ~120.
 */
export const COMPACT_CANVAS_PX = 320;
const COMPACT_PORTRAIT = { height: 0.72, width: 0.7 };

/** The canvas the shot is for, in CSS pixels. */
export interface CanvasSize {
  width: number;
  height: number;
}
/** Speaking: the portrait closes in to this share of its region. */
export const SPEAKING_PUSH_IN = 0.82;

/** Room above the top of the head (hair, hat) in a portrait, in stage metres. */
export const HEAD_MARGIN = 0.08;

/**
 * The shot for a mode: a portrait hangs from just above the top of the head — hair, ears and hat
 * in, with a margin — the shoulders below (the neck on a phone's small canvas); a full shot the
 * whole figure. The canvas's shape keeps the region's width in a tall canvas; a static mesh cannot lower its arms, so its shot
 * holds its whole width (a T-pose's arms stay in frame).
 */
export function shotFor(
  mode: FramingMode,
  placement: Pick<Placement, 'headTop' | 'width' | 'skinned'>,
  canvas: CanvasSize,
  speaking = false,
): Shot {
  const aspect = canvas.height > 0 ? canvas.width / canvas.height : 1;
  const region = mode === 'portrait' && canvas.height < COMPACT_CANVAS_PX ? COMPACT_PORTRAIT : REGION[mode];
  // A static mesh's sway turns it a little: its width gets 10 % of room on each side.
  const width = placement.skinned ? region.width : Math.max(region.width, placement.width * 1.2);
  const push = mode === 'portrait' && speaking ? SPEAKING_PUSH_IN : 1;
  const view = Math.max(region.height, width / Math.max(aspect, 0.1));
  const halfHeight = (view / 2) * push;
  const distance = DISTANCE[mode];
  const fov = (2 * Math.atan(halfHeight / distance) * 180) / Math.PI;
  // The room above the head keeps its share of the view: a static mesh's view, as wide as its arm
  // span, is taller than a portrait's, and a fixed margin left its head at the frame's edge.
  const top = placement.headTop + HEAD_MARGIN * (view / region.height);
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
