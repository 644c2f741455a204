import { Vector3 } from 'three';
import { TORSO, addArms, addLegs, addNeck, addShoes, addSkirt, addTorso, hash3 } from '../body.ts';
import { addHands } from '../hands.ts';
import type { CharacterSpec } from '../character.ts';
import { addAntlers, addEars } from '../accessories.ts';
import { addHair } from '../hair.ts';
import { ellipsoid } from '../shapes.ts';

const SKIN = '#ebc19a';
const HAIR = '#7a3b1e';
const MOSS = '#5e7d3a';
const BARK = '#8a5a32';

/** The deer woman: antlers and soft deer ears, auburn hair, moss bodice with a leaf collar. */
export const deerWoman: CharacterSpec = {
  id: 'deerWoman',
  head: { radii: [0.15, 0.156, 0.146], chinTaper: 0.3, lift: 0.155, cheek: 0.01 },
  face: {
    skin: SKIN,
    eyeX: 0.059,
    eyeY: -0.02,
    eyeSize: [0.027, 0.032],
    eyeTilt: 0.05,
    iris: ['#4a2808', '#e6a545'],
    lashes: true,
    brow: { color: '#5a2a12', y: 0.036, thickness: 0.0055 },
    mouth: { y: -0.088, width: 0.021, smile: 0.45 },
    blush: '#e8967c',
    nose: { y: -0.053, size: 0.0095, color: '#6a3c2a' },
  },
  build(ctx) {
    const { list, head } = ctx;
    addTorso(ctx, { profile: TORSO.female, color: (p) => (p.y < 0.99 ? BARK : MOSS) });
    addNeck(ctx, 0.034, SKIN);
    addArms(ctx, { skin: SKIN, sleeve: MOSS, sleeveEnd: 0.3, cuff: '#7fa64a', radii: [0.04, 0.031, 0.026] });
    addHands(ctx, { color: SKIN });
    addLegs(ctx, { color: () => '#5b3a22', radii: [0.06, 0.046, 0.034] });
    addShoes(ctx, { color: '#4a3020', sole: '#2e1d12', shaft: 0.06 });
    addSkirt(ctx, {
      top: 0.99,
      bottom: 0.1,
      topR: 0.13,
      bottomR: 0.28,
      color: (p) => (p.y < 0.2 ? '#6f4526' : BARK),
      wave: 0.05,
    });
    // Leaf collar around the neckline.
    for (let i = 0; i < 14; i++) {
      const a = (i / 14) * Math.PI * 2;
      const r = 0.085;
      const leaf = ellipsoid(
        [0.014, 0.03, 0.005],
        {
          at: [Math.sin(a) * r, 1.225, Math.cos(a) * r * 0.8],
          rot: [Math.cos(a) * 0.9, 0, -Math.sin(a) * 0.9],
        },
        [10, 8],
      );
      const tone = hash3(i, 2, 3) < 0.5 ? '#6f9a3e' : '#4f7a30';
      list.add(leaf, { color: tone, skin: { chain: ['Spine2', 'Neck'], blend: 0.02 }, slot: 'gloss' });
    }
    addEars(ctx, 'deer', '#c8926a', '#f2b8a0');
    addAntlers(ctx, '#d8c29a');
    addHair(list, head, {
      color: HAIR,
      front: 1.0,
      side: 1.72,
      back: 2.0,
      strands: 18,
      tipLength: 0.2,
      volume: 0.015,
      part: -0.2,
      long: { bottom: 1.0, from: 1.35, flare: 0.055, tips: 0.05 },
    });
    // A small pink flower above the right ear.
    const at = head.surface(new Vector3(-0.75, 0.45, 0.35)).add(new Vector3(-0.012, 0.004, 0.008));
    for (let i = 0; i < 5; i++) {
      const a = (i / 5) * Math.PI * 2;
      const petal = ellipsoid(
        [0.011, 0.011, 0.004],
        { at: [at.x + Math.cos(a) * 0.011, at.y + Math.sin(a) * 0.011, at.z], rot: [0, -0.6, 0] },
        [8, 6],
      );
      list.add(petal, { color: '#f49ab4', skin: { rigid: 'Head' }, slot: 'gloss', mesh: 'Head' });
    }
    const center = ellipsoid([0.006, 0.006, 0.005], { at: [at.x, at.y, at.z + 0.003] }, [8, 6]);
    list.add(center, { color: '#f5d34a', skin: { rigid: 'Head' }, slot: 'gloss', mesh: 'Head' });
  },
};
