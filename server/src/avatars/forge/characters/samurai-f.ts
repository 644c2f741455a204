import { Vector3 } from 'three';
import { TORSO, addArms, addLegs, addNeck, addShoes, addSkirt, addTorso, mirrored } from '../body.ts';
import { addHands } from '../hands.ts';
import type { CharacterSpec } from '../character.ts';
import { addBun, addEars, addHeadband, addPonytail } from '../accessories.ts';
import { addHair } from '../hair.ts';
import { ellipsoid, lathe, tube } from '../shapes.ts';

const SKIN = '#f3d3b6';
const HAIR = '#1e1b26';
const RED = '#b3212b';
const GOLD = '#e0b450';
const KIMONO = '#f3ede2';

/** The samurai: black ponytail, red headband, red lacquered armour over a white kimono, hakama. */
export const samuraiF: CharacterSpec = {
  id: 'samuraiF',
  head: { radii: [0.148, 0.156, 0.144], chinTaper: 0.32, lift: 0.155, cheek: 0.008 },
  face: {
    skin: SKIN,
    eyeX: 0.058,
    eyeY: -0.02,
    eyeSize: [0.026, 0.029],
    eyeTilt: 0.18,
    iris: ['#3a1410', '#c0603e'],
    lashes: true,
    brow: { color: HAIR, y: 0.033, thickness: 0.0068, tilt: 0.006, arch: 0.003 },
    mouth: { y: -0.087, width: 0.021, smile: 0.3 },
    blush: '#eea49a',
    nose: { y: -0.053, size: 0.0082, color: '#e9c3a4' },
  },
  build(ctx) {
    const { list, head } = ctx;
    // Kimono with red lapels crossing into a V.
    addTorso(ctx, {
      profile: TORSO.female,
      color: (p) => (p.z > 0 && Math.abs(Math.abs(p.x) - (1.25 - p.y) * 0.55) < 0.014 ? RED : KIMONO),
    });
    addNeck(ctx, 0.034, SKIN);
    addArms(ctx, {
      skin: SKIN,
      sleeve: KIMONO,
      sleeveEnd: 0.86,
      flare: 0.045,
      cuff: KIMONO,
      radii: [0.041, 0.034, 0.028],
    });
    addHands(ctx, { color: SKIN });
    addLegs(ctx, { color: () => '#2b3050', radii: [0.06, 0.046, 0.034] });
    addShoes(ctx, { color: '#f4efe6', sole: '#6b4a2b' });
    addSkirt(ctx, { top: 1.0, bottom: 0.07, topR: 0.135, bottomR: 0.27, color: '#2b3050', wave: 0.07 });
    // Breastplate (dō): lacquered red with gold lacing rows.
    const plate = lathe(
      [
        [0.129, 1.0],
        [0.142, 1.06],
        [0.152, 1.12],
        [0.146, 1.165],
        [0.12, 1.18],
      ],
      { depth: 0.78, segments: 36 },
    );
    list.add(plate, {
      color: (p) => ((p.y - 1.0) % 0.045 < 0.006 ? GOLD : RED),
      skin: { chain: ['Spine', 'Spine1', 'Spine2'], blend: 0.05 },
      slot: 'gloss',
    });
    const obi = lathe(
      [
        [0.13, 0.965],
        [0.136, 0.985],
        [0.13, 1.005],
      ],
      { depth: 0.78, segments: 32 },
    );
    list.add(obi, { color: GOLD, skin: { rigid: 'Spine' }, slot: 'cloth' });
    // Shoulder guards (sode), following the upper arm.
    const guard = ellipsoid([0.085, 0.018, 0.07], { at: [0.205, 1.235, 0], rot: [0, 0, -0.38] }, [20, 10]);
    mirrored(ctx, () => guard, {
      color: (p) => (p.y < 1.205 ? GOLD : RED),
      skin: (s) => ({ rigid: `${s}Arm` }),
      slot: 'gloss',
    });
    // Katana at the left hip.
    const sheath = tube(
      [new Vector3(0.15, 0.98, 0.13), new Vector3(0.2, 0.72, -0.12)],
      () => [0.012, 0.009],
      {
        radial: 10,
        perSegment: 4,
      },
    );
    list.add(sheath, { color: '#17141c', skin: { rigid: 'Hips' }, slot: 'gloss' });
    const hilt = tube(
      [new Vector3(0.14, 0.995, 0.15), new Vector3(0.125, 1.08, 0.25)],
      () => [0.011, 0.011],
      {
        radial: 10,
        perSegment: 4,
      },
    );
    list.add(hilt, {
      color: (p) => (Math.floor(p.y * 60) % 2 ? '#f3ede2' : '#26222c'),
      skin: { rigid: 'Hips' },
      slot: 'cloth',
    });
    const tsuba = ellipsoid(
      [0.026, 0.006, 0.026],
      { at: [0.137, 0.993, 0.145], rot: [0.6, 0, 0.1] },
      [14, 6],
    );
    list.add(tsuba, { color: GOLD, skin: { rigid: 'Hips' }, slot: 'metal' });

    addEars(ctx, 'human', SKIN);
    addHair(list, head, {
      color: HAIR,
      front: 1.05,
      side: 1.8,
      back: 1.95,
      strands: 16,
      tipLength: 0.17,
      volume: 0.013,
      part: 0.3,
    });
    const c = head.center;
    const bun = addBun(ctx, new Vector3(0, 0.75, -0.66), 0.042, HAIR);
    addPonytail(ctx, bun.clone().add(new Vector3(0, -0.01, -0.02)), 0.42, 0.05, HAIR);
    addHeadband(ctx, 0.085, RED, { width: 0.02, tilt: 0.22, lift: 0.02 });
    // Headband tails fluttering at the back.
    for (const s of [1, -1]) {
      const tail = tube(
        [
          new Vector3(0.01 * s, c.y + 0.07, c.z - 0.15),
          new Vector3(0.04 * s, c.y + 0.01, c.z - 0.2),
          new Vector3(0.08 * s, c.y - 0.08, c.z - 0.21),
        ],
        () => [0.016, 0.003],
        { radial: 8, perSegment: 4, up: new Vector3(0, 0, 1) },
      );
      list.add(tail, { color: RED, skin: { rigid: 'Head' }, slot: 'cloth', mesh: 'Head' });
    }
  },
};
