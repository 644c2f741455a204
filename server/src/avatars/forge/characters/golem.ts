import { ConeGeometry, DodecahedronGeometry, Vector3 } from 'three';
import { addArms, addLegs, addNeck, addShoes, addTorso, hash3, mirrored, rest } from '../body.ts';
import { addHands } from '../hands.ts';
import type { CharacterSpec } from '../character.ts';
import { mix } from '../face.ts';
import { addHair } from '../hair.ts';
import { ellipsoid, lathe, place, tube } from '../shapes.ts';

const STONE = '#a09583';
const STONE_DARK = '#766b5b';
const MOSS = '#6c9a3c';

/** Blotchy stone: light and dark patches from seeded noise, moss on upward faces. */
const stone = (p: Vector3) => {
  const n = hash3(Math.floor(p.x * 18), Math.floor(p.y * 18), Math.floor(p.z * 18), 7);
  return mix(STONE, STONE_DARK, n * 0.7);
};

/** The golem: a broad stone giant with glowing amber eyes, moss on his head and shoulder rocks. */
export const golem: CharacterSpec = {
  id: 'golem',
  proportions: {
    armX: 0.2,
    elbowX: 0.41,
    wristX: 0.6,
    handScale: 1.4,
    shoulderX: 0.05,
    hipX: 0.105,
    shoulderY: 1.19,
    hipsY: 0.66,
    kneeY: 0.35,
    headY: 1.27,
  },
  head: { radii: [0.158, 0.146, 0.148], exponent: 2.7, chinTaper: 0.08, lift: 0.14, cheek: 0.012 },
  face: {
    skin: '#a39884',
    eyeX: 0.06,
    eyeY: -0.012,
    eyeSize: [0.025, 0.027],
    eyeTilt: 0,
    iris: ['#ffd27a', '#ff9a2e'],
    outline: '#2a241f',
    glowEyes: true,
    noLashLine: false,
    brow: { color: '#4a443c', y: 0.038, thickness: 0.013, arch: 0.002, tilt: -0.004 },
    mouth: { y: -0.078, width: 0.026, smile: 0.5, cavity: '#2a1a10', teeth: '#d8d2c4', tongue: '#8a4a3a' },
    blush: '#b88a78',
    nose: { y: -0.045, size: 0.014, color: '#7f796e' },
  },
  look: { glowColor: '#ffa640' },
  build(ctx) {
    const { list, head } = ctx;
    addTorso(ctx, {
      profile: [
        [0.0, 0.6],
        [0.13, 0.62],
        [0.18, 0.72],
        [0.185, 0.9],
        [0.19, 1.0],
        [0.21, 1.09],
        [0.215, 1.16],
        [0.19, 1.215],
        [0.12, 1.25],
        [0.05, 1.265],
        [0.0, 1.27],
      ],
      depth: 0.74,
      color: stone,
      slot: 'skin',
    });
    addNeck(ctx, 0.05, STONE_DARK);
    addArms(ctx, { skin: STONE, sleeve: STONE, sleeveEnd: 1, radii: [0.08, 0.066, 0.08], slot: 'skin' });
    addHands(ctx, { color: STONE_DARK, chunky: 1.3, nails: null });
    addLegs(ctx, { color: () => STONE, radii: [0.112, 0.096, 0.09], slot: 'skin' });
    addShoes(ctx, { color: STONE_DARK, size: 1.4, slot: 'skin' });
    // Boulders on the shoulders, a glowing rune on the chest.
    for (const [dx, dy, dz, r, seed] of [
      [0.2, 1.25, 0, 0.06, 1],
      [0.26, 1.235, -0.02, 0.04, 2],
      [0.15, 1.26, -0.04, 0.035, 3],
    ] as const) {
      const g = place(new DodecahedronGeometry(r, 0), {
        at: [dx, dy, dz],
        rot: [seed, seed * 2, seed * 0.5],
      });
      g.deleteAttribute('uv');
      mirrored(ctx, () => g, {
        color: () => (seed === 1 ? '#7c766b' : '#9a9488'),
        skin: (s) => ({ chain: [`${s}Shoulder`, `${s}Arm`], blend: 0.04 }),
        slot: 'skin',
      });
    }
    // Amber crystals growing from the back of the shoulders.
    for (const [x, y, z, h, tilt] of [
      [0.1, 1.2, -0.12, 0.12, 0.5],
      [0.05, 1.14, -0.135, 0.085, 0.3],
      [0.15, 1.15, -0.1, 0.07, 0.8],
    ] as const) {
      const g = place(new ConeGeometry(0.026, h, 6), {
        at: [x, y + h * 0.3, z - h * 0.3],
        rot: [-0.9, 0, -tilt],
      });
      g.deleteAttribute('uv');
      mirrored(ctx, () => g, { color: () => '#ffc46a', skin: () => ({ rigid: 'Spine2' }), slot: 'glow' });
    }
    // Rocky plates on the forearms and knees, and a mossy belt.
    const forearm = rest(ctx, 'LeftForeArm')
      .lerp(rest(ctx, 'LeftHand'), 0.47)
      .add(new Vector3(0, 0.04, 0));
    for (const [bone, at, r] of [
      ['ForeArm', forearm.toArray(), 0.05],
      ['Leg', [0.108, 0.42, 0.07], 0.055],
    ] as const) {
      const g = place(new DodecahedronGeometry(r, 0), {
        at: [...at],
        rot: [0.4, 0.8, 0.2],
        scale: [1, 0.8, 0.75],
      });
      g.deleteAttribute('uv');
      mirrored(ctx, () => g, {
        color: () => '#8a8070',
        skin: (s) => ({ rigid: `${s}${bone}` }),
        slot: 'skin',
      });
    }
    const belt = lathe(
      [
        [0.186, 0.69],
        [0.196, 0.73],
        [0.192, 0.77],
      ],
      { depth: 0.76, segments: 36 },
    );
    list.add(belt, {
      color: (p) =>
        mix(MOSS, '#4d7a2c', hash3(Math.floor(p.x * 50), Math.floor(p.y * 50), Math.floor(p.z * 50))),
      skin: { chain: ['Hips', 'Spine'], blend: 0.05 },
      slot: 'cloth',
    });
    const rune = ellipsoid([0.034, 0.034, 0.01], { at: [0, 1.1, 0.148] }, [16, 10]);
    list.add(rune, { color: '#ffc46a', skin: { rigid: 'Spine2' }, slot: 'glow' });
    // A little sprout growing from the moss.
    const crown = head.surface(new Vector3(0.1, 1, 0.1));
    const stem = tube(
      [crown.clone().setY(crown.y - 0.01), crown.clone().add(new Vector3(0.005, 0.05, 0))],
      () => [0.004, 0.004],
      {
        radial: 8,
        perSegment: 3,
      },
    );
    list.add(stem, { color: '#4d8a2a', skin: { rigid: 'Head' }, slot: 'cloth', mesh: 'Head' });
    for (const s of [1, -1]) {
      const leaf = ellipsoid(
        [0.022, 0.005, 0.012],
        { at: [crown.x + 0.005 + s * 0.02, crown.y + 0.055, crown.z], rot: [0, 0, s * 0.45] },
        [12, 8],
      );
      list.add(leaf, { color: '#7cc04a', skin: { rigid: 'Head' }, slot: 'gloss', mesh: 'Head' });
    }
    // Moss on the crown.
    addHair(list, head, {
      color: (p) => mix(MOSS, '#7aa84a', hash3(Math.floor(p.x * 40), Math.floor(p.z * 40), 1)),
      front: 0.85,
      side: 1.0,
      back: 1.25,
      strands: 30,
      tipLength: 0.14,
      volume: 0.008,
      slot: 'cloth',
    });
  },
};
