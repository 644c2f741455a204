import { Vector3 } from 'three';
import { TORSO, addArms, addLegs, addNeck, addShoes, addSkirt, addTorso } from '../body.ts';
import { addHands } from '../hands.ts';
import type { CharacterSpec } from '../character.ts';
import { addEars } from '../accessories.ts';
import { addHair } from '../hair.ts';
import { ellipsoid, grid, lathe } from '../shapes.ts';

const SKIN = '#f1e6ee';
const HAIR = '#201828';
const WINE = '#6a1030';
const CRIMSON = '#b0122e';
const BLACK = '#17121c';

/** The vampire: a sleek black bob, red eyes, little fangs, wine dress and a high-collared cape. */
export const vampireF: CharacterSpec = {
  id: 'vampireF',
  head: { radii: [0.148, 0.156, 0.144], chinTaper: 0.34, lift: 0.155, cheek: 0.006 },
  face: {
    skin: SKIN,
    eyeX: 0.058,
    eyeY: -0.02,
    eyeSize: [0.026, 0.03],
    eyeTilt: 0.16,
    iris: ['#5a0012', '#ff4a5a'],
    lashes: true,
    brow: { color: HAIR, y: 0.035, thickness: 0.005, tilt: 0.006 },
    mouth: { y: -0.087, width: 0.021, smile: 0.5, cavity: '#4a0818' },
    blush: '#e9a6c0',
    nose: { y: -0.053, size: 0.0078, color: '#e6d2de' },
    fangs: true,
  },
  look: {},
  build(ctx) {
    const { list, head } = ctx;
    addTorso(ctx, { profile: TORSO.female, color: (p) => (p.y > 0.95 && p.y < 1.04 ? BLACK : WINE) });
    addNeck(ctx, 0.033, SKIN);
    addArms(ctx, {
      skin: SKIN,
      sleeve: BLACK,
      sleeveEnd: 0.95,
      flare: 0.035,
      cuff: CRIMSON,
      radii: [0.038, 0.031, 0.026],
    });
    addHands(ctx, { color: SKIN, nails: '#5a1426' });
    addLegs(ctx, { color: () => BLACK, radii: [0.06, 0.046, 0.034] });
    addShoes(ctx, { color: BLACK, sole: CRIMSON, shaft: 0.05 });
    addSkirt(ctx, {
      top: 0.99,
      bottom: 0.09,
      topR: 0.128,
      bottomR: 0.27,
      color: (p) => (p.y < 0.16 ? BLACK : WINE),
      wave: 0.045,
    });
    // Choker with a ruby.
    const choker = lathe(
      [
        [0.036, 1.262],
        [0.039, 1.272],
        [0.036, 1.282],
      ],
      { depth: 0.96, segments: 24 },
    );
    list.add(choker, { color: BLACK, skin: { rigid: 'Neck' }, slot: 'cloth' });
    const ruby = ellipsoid([0.008, 0.01, 0.005], { at: [0, 1.262, 0.036] }, [10, 8]);
    list.add(ruby, { color: CRIMSON, skin: { rigid: 'Neck' }, slot: 'gloss' });
    // Cape: black outside, crimson lining, hanging behind the arms; a tall fan collar.
    const cape = (inset: number) =>
      grid(40, 16, (u, v) => {
        const phi = Math.PI * 0.6 + u * Math.PI * 0.8;
        const y = 1.235 - v * 1.1;
        const r =
          0.15 + 0.2 * Math.sin(Math.min(1, v * 1.3) * Math.PI * 0.5) - inset + 0.01 * Math.sin(u * 40) * v;
        return new Vector3(Math.sin(phi) * r * 1.05, y, Math.cos(phi) * r * 0.75 - 0.02);
      });
    list.add(cape(0), { color: BLACK, skin: { rigid: 'Spine2' }, slot: 'hair' });
    list.add(cape(0.008), { color: CRIMSON, skin: { rigid: 'Spine2' }, slot: 'hair' });
    const collar = (inset: number) =>
      grid(30, 6, (u, v) => {
        const phi = Math.PI * 0.45 + u * Math.PI * 1.1;
        const r = 0.1 + 0.1 * v - inset;
        return new Vector3(Math.sin(phi) * r, 1.225 + v * 0.2, Math.cos(phi) * r * 0.8 - 0.01);
      });
    list.add(collar(0), { color: BLACK, skin: { rigid: 'Spine2' }, slot: 'hair' });
    list.add(collar(0.006), { color: CRIMSON, skin: { rigid: 'Spine2' }, slot: 'hair' });

    addEars(ctx, 'elf', SKIN, '#ecc8d8');
    addHair(list, head, {
      color: HAIR,
      front: 1.12,
      side: 1.95,
      back: 2.05,
      strands: 30,
      tipLength: 0.06,
      volume: 0.016,
      part: 0,
    });
  },
};
