import { TORSO, addArms, addLegs, addNeck, addShoes, addTorso } from '../body.ts';
import { addHands } from '../hands.ts';
import type { CharacterSpec } from '../character.ts';
import { addEars } from '../accessories.ts';
import { addHair } from '../hair.ts';
import { lathe } from '../shapes.ts';

const SKIN = '#f0c8a4';
const HAIR = '#4a2c20';
const SWEATER = '#2f9e9a';

/** Alma, the default model (`/model.glb`): a friendly person in a teal sweater and jeans. */
export const alma: CharacterSpec = {
  id: 'default',
  head: { radii: [0.15, 0.156, 0.145], chinTaper: 0.26, lift: 0.155, cheek: 0.01 },
  face: {
    skin: SKIN,
    eyeX: 0.058,
    eyeY: -0.02,
    eyeSize: [0.025, 0.031],
    iris: ['#3a1e0e', '#b07238'],
    brow: { color: '#3d2218', y: 0.034, thickness: 0.006 },
    mouth: { y: -0.086, width: 0.023, smile: 0.45 },
    blush: '#efa89a',
    nose: { y: -0.052, size: 0.0088, color: '#e4b694' },
  },
  build(ctx) {
    const { list, head } = ctx;
    addTorso(ctx, { profile: TORSO.neutral, color: (p) => (p.y < 0.86 ? '#2f4f7f' : SWEATER) });
    addNeck(ctx, 0.036, SKIN);
    addArms(ctx, {
      skin: SKIN,
      sleeve: SWEATER,
      sleeveEnd: 0.9,
      cuff: '#24807c',
      radii: [0.043, 0.035, 0.03],
    });
    addHands(ctx, { color: SKIN });
    addLegs(ctx, { color: () => '#2f4f7f', radii: [0.068, 0.052, 0.042] });
    addShoes(ctx, { color: '#f4f4f0', sole: '#2f9e9a' });
    // Ribbed hem and a rolled collar.
    const hem = lathe(
      [
        [0.147, 0.845],
        [0.152, 0.865],
        [0.148, 0.885],
      ],
      { depth: 0.74, segments: 32 },
    );
    list.add(hem, { color: '#24807c', skin: { chain: ['Hips', 'Spine'], blend: 0.05 }, slot: 'cloth' });
    const collar = lathe(
      [
        [0.05, 1.272],
        [0.062, 1.255],
        [0.07, 1.235],
        [0.09, 1.222],
      ],
      { depth: 0.82 },
    );
    list.add(collar, { color: '#24807c', skin: { chain: ['Spine2', 'Neck'], blend: 0.02 }, slot: 'cloth' });
    addEars(ctx, 'human', SKIN);
    addHair(list, head, {
      color: HAIR,
      front: 1.02,
      side: 1.85,
      back: 2.15,
      strands: 20,
      tipLength: 0.2,
      volume: 0.018,
      part: 0.25,
    });
  },
};
