import { describe, expect, it } from 'vitest';
import { Box3, BoxGeometry, Group, Mesh, Object3D, Vector3 } from 'three';
import {
  STAGE_FLOOR_Y,
  STAGE_HEIGHT,
  SPEAKING_PUSH_IN,
  ease,
  effectiveMode,
  placeModel,
  shotFor,
  type Placement,
} from './framing.ts';

/**
 * A figure `height` tall whose feet are at `origin` below its own origin, arms named the Mixamo
 * way; `facing` −1 mirrors it (left arm on −X), as a model facing −Z is.
 */
function figure(height: number, feetAt: [number, number, number] = [0, 0, 0], facing: 1 | -1 = 1) {
  const root = new Group();
  const body = new Mesh(new BoxGeometry(height * 0.3, height, height * 0.15));
  body.position.set(feetAt[0], feetAt[1] + height / 2, feetAt[2]);
  root.add(body);
  for (const [name, side] of [
    ['LeftHand', 1],
    ['RightHand', -1],
  ] as const) {
    const hand = new Object3D();
    hand.name = name;
    hand.position.set(feetAt[0] + side * facing * height * 0.4, feetAt[1] + height * 0.55, feetAt[2]);
    root.add(hand);
  }
  const head = new Object3D();
  head.name = 'Head';
  head.position.set(feetAt[0], feetAt[1] + height * 0.85, feetAt[2]);
  root.add(head);
  return root;
}

/** The placed figure's bounds in stage space, as ModelStage nests it. */
function placedBounds(model: Object3D, p: Placement): Box3 {
  const outer = new Group();
  outer.position.set(...p.position);
  const inner = new Group();
  inner.rotation.y = p.turnY;
  inner.scale.setScalar(p.scale);
  outer.add(inner);
  inner.add(model);
  outer.updateMatrixWorld(true);
  return new Box3().setFromObject(outer);
}

describe('framing from the model’s bounds (SPEC ST-2)', () => {
  it.each([
    ['0.2 m, origin at the feet', 0.2, [0, 0, 0]],
    ['200 m, origin at the feet', 200, [0, 0, 0]],
    ['1.7 m, origin at its centre', 1.7, [0, -0.85, 0]],
    ['3 m, origin far away', 3, [40, -12, -7]],
  ] as const)('a %s model stands on the floor, centred, at one height', (_, height, feetAt) => {
    const model = figure(height, [...feetAt]);
    const placement = placeModel(model);
    expect(placement).not.toBeNull();
    const box = placedBounds(model, placement!);
    expect(box.max.y - box.min.y).toBeCloseTo(STAGE_HEIGHT, 5);
    expect(box.min.y).toBeCloseTo(STAGE_FLOOR_Y, 5);
    const centre = box.getCenter(new Vector3());
    expect(centre.x).toBeCloseTo(0, 5);
    expect(centre.z).toBeCloseTo(0, 5);
    // The head: from the Head node, between the shoulders and the top of the figure.
    expect(placement!.headY).toBeGreaterThan(STAGE_FLOOR_Y + 0.75 * STAGE_HEIGHT);
    expect(placement!.headY).toBeLessThan(STAGE_FLOOR_Y + STAGE_HEIGHT);
  });

  it('a model facing −Z is turned to face the camera; one facing +Z is not', () => {
    expect(placeModel(figure(1.7))!.turnY).toBe(0);
    const back = figure(1.7, [5, 0, 2], -1);
    const placement = placeModel(back)!;
    expect(placement.turnY).toBeCloseTo(Math.PI);
    const centre = placedBounds(back, placement).getCenter(new Vector3());
    expect(centre.x).toBeCloseTo(0, 5);
    expect(centre.z).toBeCloseTo(0, 5);
    // Its left hand is now on +X, as a figure facing the camera has it.
    expect(back.getObjectByName('LeftHand')!.getWorldPosition(new Vector3()).x).toBeGreaterThan(0);
  });

  it('a model without a skin is placed and marked static (it sways); one with nothing to show is null', () => {
    expect(placeModel(figure(1.7))!.skinned).toBe(false);
    expect(placeModel(new Group())).toBeNull();
    const flat = new Group();
    flat.add(new Mesh(new BoxGeometry(0, 0, 0)));
    expect(placeModel(flat)).toBeNull();
  });
});

describe('the camera’s shots (SPEC ST-3)', () => {
  const placement = placeModel(figure(1.7))!;

  it('portrait frames the head and shoulders, full the whole figure', () => {
    const portrait = shotFor('portrait', placement, 6 / 5);
    const full = shotFor('full', placement, 6 / 5);
    const visible = (s: typeof portrait) => 2 * s.distance * Math.tan((s.fov * Math.PI) / 360);
    expect(visible(full)).toBeGreaterThan(STAGE_HEIGHT);
    expect(visible(portrait)).toBeLessThan(STAGE_HEIGHT / 2);
    // The head is in the portrait's upper half, inside the frame.
    const top = portrait.target[1] + visible(portrait) / 2;
    expect(placement.headY).toBeGreaterThan(portrait.target[1]);
    expect(placement.headY).toBeLessThan(top);
  });

  it('speaking pushes the portrait in; a narrow canvas keeps the shoulders in frame', () => {
    const still = shotFor('portrait', placement, 1.2);
    const talking = shotFor('portrait', placement, 1.2, true);
    expect(Math.tan((talking.fov * Math.PI) / 360)).toBeCloseTo(
      Math.tan((still.fov * Math.PI) / 360) * SPEAKING_PUSH_IN,
      5,
    );
    expect(shotFor('portrait', placement, 0.5).fov).toBeGreaterThan(still.fov);
  });

  it('a full-body gesture shows the full body while it plays, then the chosen framing again', () => {
    expect(effectiveMode('portrait', 'kneeling', true)).toBe('full');
    expect(effectiveMode('portrait', 'celebration', true)).toBe('full');
    expect(effectiveMode('portrait', 'nodding', true)).toBe('portrait');
    expect(effectiveMode('portrait', 'kneeling', false)).toBe('portrait');
    expect(effectiveMode('full', null, false)).toBe('full');
  });

  it('eases toward a goal at the same pace whatever the frame rate', () => {
    let at60 = 0;
    for (let i = 0; i < 60; i++) at60 = ease(at60, 1, 1 / 60, 1);
    let at30 = 0;
    for (let i = 0; i < 30; i++) at30 = ease(at30, 1, 1 / 30, 1);
    expect(at60).toBeCloseTo(at30, 6);
    expect(at60).toBeCloseTo(1 - Math.exp(-1), 6);
  });
});
