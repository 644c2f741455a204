import { describe, expect, it } from 'vitest';
import {
  Bone,
  Box3,
  BoxGeometry,
  Float32BufferAttribute,
  Group,
  Mesh,
  Object3D,
  Skeleton,
  SkinnedMesh,
  Uint16BufferAttribute,
  Vector3,
} from 'three';
import {
  STAGE_FLOOR_Y,
  STAGE_HEIGHT,
  HEAD_MARGIN,
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

/** The chat stage's canvas on a desktop (600 × 500) and on a phone (capped at 320 × 240). */
const DESKTOP = { width: 600, height: 500 };
const PHONE = { width: 320, height: 240 };

/**
 * A 1.7 m skinned figure: one box skinned to the hips below the neck, one to the head (a skull
 * 0.25 m tall), and one raised above the head on a hand bone (arms up). `hat` adds a box that tall
 * on the skull, skinned to the head.
 */
function skinnedFigure(hat: number) {
  const hips = new Bone();
  hips.name = 'Hips';
  const head = new Bone();
  head.name = 'Head';
  head.position.set(0, 1.45, 0);
  const hand = new Bone();
  hand.name = 'LeftHand';
  hand.position.set(0.2, 1.5, 0);
  hips.add(head, hand);
  const parts: [BoxGeometry, number, number][] = [
    [new BoxGeometry(0.5, 1.45, 0.3), 1.45 / 2, 0],
    [new BoxGeometry(0.22, 0.25, 0.22), 1.45 + 0.125, 1],
    // The raised hand: 0.25 m above the head's top.
    [new BoxGeometry(0.08, 0.3, 0.08), 1.7 + 0.1, 2],
    ...(hat ? ([[new BoxGeometry(0.3, hat, 0.3), 1.7 + hat / 2, 1]] as [BoxGeometry, number, number][]) : []),
  ];
  const positions: number[] = [];
  const bones: number[] = [];
  for (const [geometry, y, bone] of parts) {
    geometry.translate(0, y, 0);
    const at = geometry.toNonIndexed().getAttribute('position');
    for (let i = 0; i < at.count; i++) {
      positions.push(at.getX(i), at.getY(i), at.getZ(i));
      bones.push(bone, 0, 0, 0);
    }
  }
  const geometry = new BoxGeometry();
  geometry.setIndex(null);
  geometry.setAttribute('position', new Float32BufferAttribute(positions, 3));
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(bones, 4));
  geometry.setAttribute(
    'skinWeight',
    new Float32BufferAttribute(
      bones.map((_, i) => (i % 4 === 0 ? 1 : 0)),
      4,
    ),
  );
  const mesh = new SkinnedMesh(geometry);
  const root = new Group();
  root.add(hips, mesh);
  root.updateMatrixWorld(true);
  mesh.bind(new Skeleton([hips, head, hand]));
  return root;
}

describe('the head’s top with what it wears (issue 12: a hat touched the frame’s edge)', () => {
  /** The portrait's top edge in stage space. */
  const topEdge = (shot: ReturnType<typeof shotFor>) =>
    shot.target[1] + shot.distance * Math.tan((shot.fov * Math.PI) / 360);

  it('a hat skinned to the head is in the portrait, with a margin; a hand raised above it is not', () => {
    const bare = placeModel(skinnedFigure(0))!;
    const hatted = placeModel(skinnedFigure(0.3))!;
    // Without a hat the raised hand (2 m up) is the figure's top, not the head's: 1.7 m of 1.95.
    const scaleBare = STAGE_HEIGHT / 1.95;
    expect(bare.headTop).toBeCloseTo(STAGE_FLOOR_Y + 1.7 * scaleBare, 3);
    // The hat's top (2 m) is the figure's top and the head's.
    expect(hatted.headTop).toBeCloseTo(STAGE_FLOOR_Y + STAGE_HEIGHT, 3);
    for (const placement of [bare, hatted]) {
      const shot = shotFor('portrait', placement, PHONE);
      expect(topEdge(shot) - placement.headTop).toBeCloseTo(HEAD_MARGIN, 5);
      // Speaking pushes in from the same top edge.
      expect(topEdge(shotFor('portrait', placement, PHONE, true))).toBeCloseTo(topEdge(shot), 5);
    }
  });

  it('a mesh hung under the head node counts as the head’s (a rigid hat)', () => {
    const model = figure(1.7);
    const hat = new Mesh(new BoxGeometry(0.3, 0.4, 0.3));
    hat.position.set(0, 0.35, 0);
    model.getObjectByName('Head')!.add(hat);
    const placement = placeModel(model)!;
    // The hat's top (1.7 × 0.85 + 0.35 + 0.2 = 1.995 m) is the figure's top.
    expect(placement.headTop).toBeCloseTo(STAGE_FLOOR_Y + STAGE_HEIGHT, 3);
  });

  it('a static T-posed mesh’s portrait holds its whole width; a skinned one lowers its arms and is not widened', () => {
    const tpose = new Group();
    tpose.add(new Mesh(new BoxGeometry(1.7, 1.7, 0.2)));
    const placement = placeModel(tpose)!;
    expect(placement.skinned).toBe(false);
    expect(placement.width).toBeCloseTo(STAGE_HEIGHT, 5);
    for (const mode of ['portrait', 'full'] as const) {
      const shot = shotFor(mode, placement, PHONE);
      const visibleWidth = 2 * shot.distance * Math.tan((shot.fov * Math.PI) / 360) * (320 / 240);
      expect(visibleWidth).toBeGreaterThan(placement.width);
    }
    expect(shotFor('portrait', { ...placement, skinned: true }, PHONE).fov).toBeLessThan(
      shotFor('portrait', placement, PHONE).fov,
    );
  });

  it('a static mesh’s wide portrait keeps room above its head in proportion (issue 12: its head touched the edge at 375 px)', () => {
    const tpose = new Group();
    tpose.add(new Mesh(new BoxGeometry(1.7, 1.7, 0.2)));
    const placement = placeModel(tpose)!;
    const shot = shotFor('portrait', placement, PHONE);
    const viewHeight = 2 * shot.distance * Math.tan((shot.fov * Math.PI) / 360);
    // As large a share of the view as a skinned figure's portrait leaves (0.08 of 0.72 on a phone).
    expect((topEdge(shot) - placement.headTop) / viewHeight).toBeGreaterThan(HEAD_MARGIN / 0.72 - 1e-6);
  });
});

describe('the camera’s shots (SPEC ST-3)', () => {
  const placement = placeModel(figure(1.7))!;

  it('portrait frames the head and shoulders, full the whole figure', () => {
    const portrait = shotFor('portrait', placement, DESKTOP);
    const full = shotFor('full', placement, DESKTOP);
    const visible = (s: typeof portrait) => 2 * s.distance * Math.tan((s.fov * Math.PI) / 360);
    expect(visible(full)).toBeGreaterThan(STAGE_HEIGHT);
    expect(visible(portrait)).toBeLessThan(STAGE_HEIGHT / 2);
    // The head is in the portrait's upper half, inside the frame.
    const top = portrait.target[1] + visible(portrait) / 2;
    expect(placement.headY).toBeGreaterThan(portrait.target[1]);
    expect(placement.headY).toBeLessThan(top);
  });

  it('a phone’s small canvas gets a closer portrait, the head still whole in it', () => {
    const visible = (s: ReturnType<typeof shotFor>) => 2 * s.distance * Math.tan((s.fov * Math.PI) / 360);
    const desktop = shotFor('portrait', placement, DESKTOP);
    const phone = shotFor('portrait', placement, PHONE);
    // The face is drawn larger per canvas pixel of height: 240 / 0.72 m against 240 / 0.95 m.
    expect(visible(desktop) / visible(phone)).toBeGreaterThan(1.25);
    const top = phone.target[1] + visible(phone) / 2;
    expect(placement.headY).toBeLessThan(top);
    expect(placement.headY).toBeGreaterThan(phone.target[1]);
    // Full body is the same shot on any canvas of the same shape.
    expect(shotFor('full', placement, PHONE).fov).toBeCloseTo(
      shotFor('full', placement, { width: 640, height: 480 }).fov,
      5,
    );
  });

  it('speaking pushes the portrait in; a narrow canvas keeps the shoulders in frame', () => {
    const still = shotFor('portrait', placement, DESKTOP);
    const talking = shotFor('portrait', placement, DESKTOP, true);
    expect(Math.tan((talking.fov * Math.PI) / 360)).toBeCloseTo(
      Math.tan((still.fov * Math.PI) / 360) * SPEAKING_PUSH_IN,
      5,
    );
    expect(shotFor('portrait', placement, { width: 300, height: 600 }).fov).toBeGreaterThan(still.fov);
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
