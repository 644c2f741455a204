import { Vector3 } from 'three';
import { TORSO, addArms, addLegs, addNeck, addShoes, addSkirt, addTorso } from '../body.ts';
import { addHands } from '../hands.ts';
import type { CharacterSpec } from '../character.ts';
import { addEars, addHeadband } from '../accessories.ts';
import { addHair } from '../hair.ts';
import { ellipsoid, lathe } from '../shapes.ts';

const SKIN = '#f7e0cc';
const HAIR = '#e9c45e';
const BLOUSE = '#efe8d0';
const TUNIC = '#3f8f4e';
const GOLD = '#d9b048';

/** The elf: long golden hair, pointed ears, a green tunic with gold trim and a leaf circlet. */
export const elf: CharacterSpec = {
  id: 'elf',
  proportions: { hipsY: 0.82, kneeY: 0.45 },
  head: { radii: [0.146, 0.156, 0.142], chinTaper: 0.34, lift: 0.155, cheek: 0.008 },
  face: {
    skin: SKIN,
    eyeX: 0.058,
    eyeY: -0.02,
    eyeSize: [0.026, 0.031],
    eyeTilt: 0.14,
    iris: ['#14407a', '#5cc0f0'],
    lashes: true,
    brow: { color: '#b8954a', y: 0.036, thickness: 0.005, tilt: 0.004 },
    mouth: { y: -0.087, width: 0.019, smile: 0.35 },
    blush: '#f4b0a8',
    nose: { y: -0.053, size: 0.008, color: '#efcbb4' },
  },
  build(ctx) {
    const { list, head } = ctx;
    addTorso(ctx, {
      profile: TORSO.female,
      color: (p) => (p.y > 1.175 ? BLOUSE : p.y > 1.15 ? GOLD : TUNIC),
    });
    addNeck(ctx, 0.033, SKIN);
    addArms(ctx, {
      skin: SKIN,
      sleeve: BLOUSE,
      sleeveEnd: 0.92,
      flare: 0.025,
      cuff: GOLD,
      radii: [0.038, 0.031, 0.026],
    });
    addHands(ctx, { color: SKIN });
    addLegs(ctx, { color: () => '#6b4a30', radii: [0.062, 0.047, 0.035] });
    addShoes(ctx, { color: '#7a5634', sole: '#4a3220', shaft: 0.22, shaftColor: '#8a6440' });
    addSkirt(ctx, {
      top: 0.99,
      bottom: 0.52,
      topR: 0.13,
      bottomR: 0.22,
      color: (p) => (p.y < 0.56 ? GOLD : TUNIC),
      wave: 0.05,
    });
    const belt = lathe(
      [
        [0.123, 0.975],
        [0.129, 0.99],
        [0.123, 1.005],
      ],
      { depth: 0.78, segments: 32 },
    );
    list.add(belt, { color: '#6b4a30', skin: { rigid: 'Spine' }, slot: 'cloth' });
    addEars(ctx, 'elf', SKIN, '#f0c4b4');
    addHair(list, head, {
      color: HAIR,
      front: 1.08,
      side: 1.7,
      back: 2.0,
      strands: 22,
      tipLength: 0.22,
      volume: 0.014,
      part: 0.5,
      long: { bottom: 0.98, from: 1.55, flare: 0.05, tips: 0.06 },
    });
    addHeadband(ctx, 0.07, GOLD, { width: 0.008, tilt: 0.3, lift: 0.02, slot: 'metal' });
    // Leaves on the circlet, over the forehead.
    for (const [x, rz] of [
      [-0.03, 0.5],
      [0, 0],
      [0.03, -0.5],
    ] as const) {
      const at = head.surface(new Vector3(x * 6, 0.55, 1)).add(new Vector3(0, 0, 0.012));
      const leaf = ellipsoid(
        [0.011, 0.022, 0.004],
        { at: [at.x, at.y + 0.01, at.z], rot: [-0.5, 0, rz] },
        [10, 8],
      );
      list.add(leaf, { color: '#5cb85c', skin: { rigid: 'Head' }, slot: 'gloss', mesh: 'Head' });
    }
  },
};
