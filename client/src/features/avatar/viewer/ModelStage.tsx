import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import { Vector3, type Group, type Object3D, type PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { ANIMATION_INTENT_DURATION_MS, ANIMATION_INTENT_TAIL_MS } from '@alma/protocol';
import type { AvatarAnimator } from '../engine/index.ts';
import type { AvatarViewerHandle, ViewerGesture } from './AvatarViewer.tsx';
import {
  STAGE_FLOOR_Y,
  ease,
  effectiveMode,
  shotFor,
  type FramingMode,
  type Placement,
  type Shot,
} from './framing.ts';

/** Time constants (s): the push-in while speaking is slow, a change of mode quicker. */
const PUSH_IN_SECONDS = 2.2;
const MODE_SECONDS = 0.7;

export interface ModelStageProps {
  scene: Object3D;
  placement: Placement;
  animatorRef: { current: AvatarAnimator | null };
  zoom: { min: number; max: number };
  shadows: boolean;
  handleRef?: Ref<AvatarViewerHandle> | undefined;
  /**
   * The chosen framing (the chat's stage): the camera follows it, pushing in while speaking and
   * backing out for full-body gestures; zoom is the framing's. Without it (a preview) the model is
   * shown whole and the user zooms freely.
   */
  framing?: FramingMode | undefined;
  speaking: boolean;
  gesture: ViewerGesture | null;
}

/** Puts the camera on a shot: looking at its target from its distance along the current view. */
function applyShot(camera: PerspectiveCamera, controls: OrbitControls | null, shot: Shot): void {
  const target = controls?.target ?? new Vector3();
  const direction = camera.position.clone().sub(target);
  if (direction.lengthSq() < 1e-9) direction.set(0, 0, 1);
  direction.normalize();
  target.set(...shot.target);
  camera.position.copy(target).addScaledVector(direction, shot.distance);
  if (Math.abs(camera.fov - shot.fov) > 1e-3) {
    camera.fov = shot.fov;
    camera.updateProjectionMatrix();
  }
}

/**
 * The loaded model on stage (SPEC ST-2, ST-3): placed from its own bounds, lit, with orbit
 * controls, and a camera that frames it. A model with no skin sways gently as a whole.
 */
export function ModelStage({
  scene,
  placement,
  animatorRef,
  zoom,
  shadows,
  handleRef,
  framing,
  speaking,
  gesture,
}: ModelStageProps) {
  const camera = useThree((s) => s.camera) as PerspectiveCamera;
  const domElement = useThree((s) => s.gl.domElement);
  const size = useThree((s) => s.size);
  const turn = useRef<Group>(null);
  const sway = useRef<Group>(null);
  const controlsRef = useRef<OrbitControls | null>(null);
  const current = useRef<Shot | null>(null);
  const fullBodyUntil = useRef(0);
  const inputs = useRef({
    framing,
    speaking,
    gesture: gesture?.name ?? null,
    canvas: { width: size.width, height: size.height },
  });
  useEffect(() => {
    inputs.current = {
      framing,
      speaking,
      gesture: gesture?.name ?? null,
      canvas: { width: size.width, height: size.height },
    };
  }, [framing, speaking, gesture?.name, size.width, size.height]);

  const initialShot = () =>
    shotFor(inputs.current.framing ?? 'full', placement, inputs.current.canvas, false);

  useEffect(() => {
    const controls = new OrbitControls(camera, domElement);
    controls.enablePan = false;
    controls.enableDamping = true;
    controls.minDistance = zoom.min;
    controls.maxDistance = zoom.max;
    controlsRef.current = controls;
    camera.position.set(0, 0.15, 1);
    const shot = initialShot();
    current.current = shot;
    applyShot(camera, controlsRef.current, shot);
    controls.update();
    return () => {
      controlsRef.current = null;
      controls.dispose();
    };
    // The first shot only: later changes ease in from useFrame.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [camera, domElement, zoom.min, zoom.max, placement]);

  // A new canvas size (the layout settling, a turned phone): the shot is redrawn at once — eased,
  // the first seconds on stage would be a slow zoom from a shot made for another shape.
  useEffect(() => {
    const { framing: chosen, speaking: talking, gesture: playing } = inputs.current;
    if (!chosen || !current.current) return;
    const mode = effectiveMode(chosen, playing, performance.now() < fullBodyUntil.current);
    const shot = shotFor(mode, placement, { width: size.width, height: size.height }, talking);
    current.current = shot;
    applyShot(camera, controlsRef.current, shot);
  }, [camera, placement, size.width, size.height]);

  // The framing owns zoom on the chat's stage; a preview zooms freely.
  useEffect(() => {
    if (controlsRef.current) controlsRef.current.enableZoom = framing === undefined;
  }, [framing, camera, domElement]);

  // A full-body gesture: the camera backs out for its length (its delay included).
  const gestureKey = gesture?.key;
  useEffect(() => {
    if (gestureKey === undefined || !gesture) return;
    fullBodyUntil.current =
      performance.now() +
      (gesture.startInMs ?? 0) +
      (gesture.durationMs ?? ANIMATION_INTENT_DURATION_MS) +
      ANIMATION_INTENT_TAIL_MS;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [gestureKey]);

  useEffect(() => {
    scene.traverse((node) => {
      node.castShadow = shadows;
      // Skinned meshes move outside their bind-pose bounds; culling them would blank frames.
      node.frustumCulled = false;
    });
  }, [scene, shadows]);

  useImperativeHandle(
    handleRef,
    () => ({
      resetView() {
        camera.position.set(0, 0.15, 1);
        const shot = initialShot();
        current.current = shot;
        applyShot(camera, controlsRef.current, shot);
        controlsRef.current?.update();
        if (turn.current) turn.current.rotation.y = 0;
      },
      rotate(degrees) {
        if (turn.current) turn.current.rotation.y += (degrees * Math.PI) / 180;
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [camera, placement],
  );

  // Per frame: the engine poses the model, the camera eases toward its shot, the controls ease.
  useFrame((state, delta) => {
    animatorRef.current?.update(performance.now());
    const { framing: chosen, speaking: talking, gesture: playing, canvas } = inputs.current;
    if (chosen && current.current) {
      const mode = effectiveMode(chosen, playing, performance.now() < fullBodyUntil.current);
      const goal = shotFor(mode, placement, canvas, talking);
      const now = current.current;
      const seconds =
        mode === 'portrait' && Math.abs(goal.distance - now.distance) < 1e-3 ? PUSH_IN_SECONDS : MODE_SECONDS;
      const next: Shot = {
        target: [0, ease(now.target[1], goal.target[1], delta, seconds), 0],
        distance: ease(now.distance, goal.distance, delta, seconds),
        fov: ease(now.fov, goal.fov, delta, seconds),
      };
      current.current = next;
      applyShot(state.camera as PerspectiveCamera, controlsRef.current, next);
    }
    if (!placement.skinned && sway.current) {
      // A static mesh cannot breathe or speak: it sways gently as a whole instead.
      const t = performance.now() / 1000;
      sway.current.rotation.z = 0.02 * Math.sin(t * 0.8);
      sway.current.rotation.y = 0.06 * Math.sin(t * 0.45);
    }
    controlsRef.current?.update();
  });

  return (
    <>
      <group ref={turn}>
        <group ref={sway} position={[0, STAGE_FLOOR_Y, 0]}>
          <group
            position={[placement.position[0], placement.position[1] - STAGE_FLOOR_Y, placement.position[2]]}
          >
            <group rotation={[0, placement.turnY, 0]} scale={placement.scale}>
              <primitive object={scene} />
            </group>
          </group>
        </group>
      </group>
      {shadows ? (
        <mesh rotation={[-Math.PI / 2, 0, 0]} position={[0, STAGE_FLOOR_Y, 0]} receiveShadow>
          <circleGeometry args={[1.2, 48]} />
          <shadowMaterial opacity={0.25} />
        </mesh>
      ) : null}
    </>
  );
}
