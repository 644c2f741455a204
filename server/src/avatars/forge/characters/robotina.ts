import { Vector3 } from 'three';
import { TORSO, addArms, addLegs, addNeck, addShoes, addSkirt, addTorso, mirrored, rest } from '../body.ts';
import { addHands } from '../hands.ts';
import type { CharacterSpec } from '../character.ts';
import { addBun, sidePoint } from '../accessories.ts';
import { addHair } from '../hair.ts';
import { ellipsoid, tube } from '../shapes.ts';

const SHELL = '#f3f6f8';
const TEAL = '#22b8aa';
const DEEP = '#17454f';

/** Robotina: a cheerful android with a teal helmet bob, headphones and glowing teal eyes. */
export const robotina: CharacterSpec = {
  id: 'robotina',
  head: {
    radii: [0.15, 0.154, 0.145],
    exponent: 2.3,
    chinTaper: 0.26,
    lift: 0.158,
    slot: 'gloss',
    color: '#f6f2ef',
  },
  face: {
    skin: '#f6f2ef',
    eyeX: 0.058,
    eyeY: -0.02,
    eyeSize: [0.027, 0.032],
    eyeTilt: 0.06,
    iris: ['#1a9d91', '#8ff8ea'],
    outline: DEEP,
    glowEyes: true,
    lashes: true,
    brow: { color: TEAL, y: 0.036, thickness: 0.006 },
    mouth: { y: -0.086, width: 0.022, smile: 0.55, cavity: '#1d3a40', teeth: '#e8fffb', tongue: '#ff8fa8' },
    blush: '#ffa3bc',
    nose: null,
  },
  look: { glowColor: '#5ff5e0', metalness: 0.3 },
  build(ctx) {
    const { list, head } = ctx;
    addTorso(ctx, {
      profile: TORSO.female,
      color: (p) => (p.y > 1.06 && p.y < 1.16 && p.z > 0.02 && Math.abs(p.x) < 0.07 ? TEAL : SHELL),
      slot: 'gloss',
    });
    addNeck(ctx, 0.028, '#9aa7ad');
    addArms(ctx, { skin: SHELL, sleeve: SHELL, sleeveEnd: 1, radii: [0.036, 0.03, 0.027], slot: 'gloss' });
    addHands(ctx, { color: SHELL, slot: 'gloss', nails: null });
    addLegs(ctx, { color: (y) => (y < 0.3 ? TEAL : SHELL), radii: [0.058, 0.045, 0.036], slot: 'gloss' });
    addShoes(ctx, { color: TEAL, sole: DEEP, shaft: 0.16 });
    addSkirt(ctx, {
      top: 0.99,
      bottom: 0.68,
      topR: 0.13,
      bottomR: 0.23,
      color: (p) => (p.y < 0.71 ? '#8ff8ea' : TEAL),
      slot: 'gloss',
    });
    // Joint rings at elbows and knees.
    for (const bone of ['ForeArm', 'Leg']) {
      const at = rest(ctx, `Left${bone}`);
      const r = bone === 'Leg' ? 0.05 : 0.034;
      mirrored(ctx, () => ellipsoid([r, r, r], { at: [at.x, at.y, at.z] }, [14, 10]), {
        color: TEAL,
        skin: (s) => ({ rigid: `${s}${bone}` }),
        slot: 'gloss',
      });
    }
    const heart = ellipsoid([0.022, 0.02, 0.01], { at: [0, 1.11, 0.118] }, [14, 10]);
    list.add(heart, { color: '#ffd0dc', skin: { rigid: 'Spine2' }, slot: 'glow' });

    addHair(list, head, {
      color: TEAL,
      front: 1.0,
      side: 1.8,
      back: 2.05,
      strands: 12,
      tipLength: 0.1,
      volume: 0.022,
      part: 0.26,
      slot: 'gloss',
    });
    // Headphones with glowing rims, and two little antenna buns.
    const ear = sidePoint(ctx, -0.02, 0);
    const phone = tube(
      [ear.clone().add(new Vector3(0.005, 0, 0)), ear.clone().add(new Vector3(0.04, 0, 0))],
      () => [0.042, 0.042],
      {
        radial: 20,
        perSegment: 2,
      },
    );
    mirrored(ctx, () => phone, {
      color: (p) => (Math.abs(p.x) > ear.x + 0.036 ? '#8ff8ea' : SHELL),
      skin: () => ({ rigid: 'Head' }),
      slot: 'gloss',
      mesh: 'Head',
    });
    for (const s of [1, -1]) {
      const bun = addBun(ctx, new Vector3(0.55 * s, 0.85, -0.05), 0.03, TEAL);
      const tip = ellipsoid([0.012, 0.012, 0.012], { at: [bun.x + 0.02 * s, bun.y + 0.035, bun.z] }, [10, 8]);
      list.add(tip, { color: '#bffff5', skin: { rigid: 'Head' }, slot: 'glow', mesh: 'Head' });
    }
  },
};
