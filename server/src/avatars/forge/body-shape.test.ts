import { Vector3, type SkinnedMesh } from 'three';
import { describe, expect, it } from 'vitest';
import { analyse } from '../processing/analyse.ts';
import { gltfIO } from '../processing/gltf-io.ts';
import { inspectDocument } from '../processing/inspect.ts';
import { CHARACTERS } from './characters/index.ts';
import { exportGlb } from './export.ts';
import { buildScene } from './forge.ts';
import { FINGER_NAMES } from './rig.ts';

const ids = Object.keys(CHARACTERS);

function bodyOf(id: string): SkinnedMesh {
  const spec = CHARACTERS[id];
  if (!spec) throw new Error(id);
  const scene = buildScene(spec);
  const body = scene.getObjectByName('Body') as SkinnedMesh | undefined;
  if (!body?.isSkinnedMesh) throw new Error(`${id}: no Body`);
  return body;
}

/** Rest (bind) and skinned positions of a mesh's vertices, in the model's space. */
function positions(mesh: SkinnedMesh): Vector3[] {
  mesh.parent?.updateMatrixWorld(true);
  mesh.skeleton.update();
  const count = mesh.geometry.getAttribute('position').count;
  return Array.from({ length: count }, (_, i) => mesh.getVertexPosition(i, new Vector3()));
}

describe('AV-5 bodies that move well', () => {
  it.each(ids)(
    '%s rests in a T-pose with soft elbows, as the server reads it, with fingers',
    async (id) => {
      const spec = CHARACTERS[id];
      if (!spec) throw new Error(id);
      const doc = await (await gltfIO()).readBinary(await exportGlb(buildScene(spec)));
      const { rig, report } = analyse(inspectDocument(doc));
      expect(rig.basePose).toBe('T');
      expect(report.works).toContain('fingers');
      // The forearms turn forward from the elbow, the upper arms stay level.
      const world = inspectDocument(doc).boneWorld;
      for (const side of ['Left', 'Right']) {
        const [arm, elbow, wrist] = ['Arm', 'ForeArm', 'Hand'].map((b) => world[`${side}${b}`]);
        if (!arm || !elbow || !wrist) throw new Error(side);
        expect(Math.abs(elbow[1] - arm[1])).toBeLessThan(1e-6);
        const bend = Math.atan2(wrist[2] - elbow[2], Math.abs(wrist[0] - elbow[0]));
        expect(bend).toBeGreaterThan(0.15);
        expect(bend).toBeLessThan(0.35);
      }
    },
    120_000,
  );

  it.each(ids)('%s bends each finger at its knuckles, and only that finger', (id) => {
    const body = bodyOf(id);
    const bones = body.skeleton.bones;
    const rest = positions(body);
    const palm = rest.reduce((best, p, i) => {
      const hand = bones.find((b) => b.name === 'LeftHand')?.getWorldPosition(new Vector3());
      const middle = bones.find((b) => b.name === 'LeftHandMiddle1')?.getWorldPosition(new Vector3());
      if (!hand || !middle) throw new Error('no hand');
      const centre = hand.lerp(middle, 0.5);
      return p.distanceTo(centre) < (rest[best] ?? p).distanceTo(centre) ? i : best;
    }, 0);
    for (const finger of FINGER_NAMES) {
      const knuckle = bones.find((b) => b.name === `LeftHand${finger}1`);
      if (!knuckle) throw new Error(finger);
      knuckle.rotation.z = -1.2;
      const curled = positions(body);
      knuckle.rotation.z = 0;
      const moved = curled.map((p, i) => p.distanceTo(rest[i] ?? p));
      // The finger's tip swings by centimetres; the palm's centre and the other hand stay put.
      expect(Math.max(...moved), finger).toBeGreaterThan(0.025);
      expect(moved[palm], finger).toBeLessThan(1e-4);
      const right = curled.filter((p, i) => (rest[i]?.x ?? 0) < -0.3 && (moved[i] ?? 0) > 1e-6);
      expect(right, finger).toEqual([]);
    }
  });

  it.each(ids)('%s has a head large enough to read at portrait framing, its face riding with it', (id) => {
    const spec = CHARACTERS[id];
    if (!spec) throw new Error(id);
    const scene = buildScene(spec);
    scene.updateMatrixWorld(true);
    const at = (name: string) => {
      const bone = scene.getObjectByName(name);
      if (!bone) throw new Error(name);
      return bone.getWorldPosition(new Vector3());
    };
    const head = at('Head');
    const top = at('HeadTop_End');
    // About a fifth of the standing height (chibi proportions): a real human's head is an eighth.
    expect((top.y - head.y) / top.y).toBeGreaterThan(0.205);
    // The eyes and jaw were scaled with the head: they stay inside it, in front of the pivot.
    for (const bone of ['LeftEye', 'RightEye', 'Jaw']) {
      const p = at(bone);
      expect(p.y, bone).toBeGreaterThan(head.y - 0.01);
      expect(p.y, bone).toBeLessThan(top.y);
    }
  });
});
