import { Vector3 } from 'three';
import { TORSO, addArms, addLegs, addNeck, addShoes, addTorso, mirrored, rest } from '../body.ts';
import { addHands } from '../hands.ts';
import type { CharacterSpec } from '../character.ts';
import { sidePoint } from '../accessories.ts';
import { ellipsoid, lathe, tube } from '../shapes.ts';

const METAL = '#cfd5dc';
const DARK = '#3a414b';
const CYAN = '#6fe0ff';

/** The robot: a rounded screen-faced head with an antenna, brushed metal body, cyan lights. */
export const robot: CharacterSpec = {
  id: 'robot',
  head: {
    radii: [0.168, 0.146, 0.148],
    exponent: 3.4,
    chinTaper: 0.06,
    lift: 0.165,
    slot: 'metal',
    color: '#c4cad2',
  },
  face: {
    skin: '#c4cad2',
    eyeX: 0.06,
    eyeY: -0.008,
    eyeSize: [0.026, 0.029],
    eyeTilt: 0,
    iris: ['#aef4ff', '#5fd6f5'],
    outline: '#26303a',
    glowEyes: true,
    noLashLine: true,
    brow: { color: CYAN, y: 0.046, thickness: 0.007, arch: 0.001 },
    mouth: { y: -0.072, width: 0.024, smile: 0.45, cavity: '#1c2a33', teeth: '#bff6ff', tongue: '#3d6a7a' },
    blush: '#9fdcf0',
    nose: null,
  },
  look: { glowColor: '#59dcff', metalness: 0.45 },
  build(ctx) {
    const { list, head } = ctx;
    addTorso(ctx, {
      profile: TORSO.neutral.map(([r, y]) => [r * 1.04, y] as [number, number]),
      depth: 0.8,
      color: (p) => (p.y < 0.87 ? DARK : p.y < 0.905 ? CYAN : METAL),
      slot: 'metal',
    });
    addNeck(ctx, 0.03, DARK);
    addArms(ctx, { skin: METAL, sleeve: METAL, sleeveEnd: 1, radii: [0.04, 0.034, 0.032], slot: 'metal' });
    addHands(ctx, { color: DARK, chunky: 1.15, slot: 'metal', nails: null });
    addLegs(ctx, { color: () => DARK, radii: [0.06, 0.05, 0.042], slot: 'metal' });
    addShoes(ctx, { color: '#1d2026', sole: CYAN, size: 1.08 });
    // Joints: dark balls at shoulders, elbows and knees.
    for (const [bone, r, chain] of [
      ['Arm', 0.048, (s: string) => ({ chain: [`${s}Shoulder`, `${s}Arm`], blend: 0.03 })],
      ['ForeArm', 0.04, (s: string) => ({ rigid: `${s}ForeArm` })],
      ['Leg', 0.055, (s: string) => ({ rigid: `${s}Leg` })],
    ] as const) {
      const at = rest(ctx, `Left${bone}`);
      mirrored(ctx, () => ellipsoid([r, r, r], { at: [at.x, at.y, at.z] }, [16, 12]), {
        color: DARK,
        skin: chain,
        slot: 'metal',
      });
    }
    // Chest light and a glowing band.
    const core = ellipsoid([0.03, 0.03, 0.012], { at: [0, 1.12, 0.124] }, [16, 10]);
    list.add(core, { color: '#bff6ff', skin: { rigid: 'Spine2' }, slot: 'glow' });
    const ring = lathe(
      [
        [0.033, -0.007],
        [0.039, 0],
        [0.033, 0.007],
      ],
      { rot: [Math.PI / 2, 0, 0], at: [0, 1.12, 0.122], segments: 24 },
    );
    list.add(ring, { color: DARK, skin: { rigid: 'Spine2' }, slot: 'metal' });
    // Antenna with a glowing bulb.
    const top = new Vector3(0, head.center.y + head.params.radii[1], head.center.z);
    const mast = tube(
      [top.clone().setY(top.y - 0.02), top.clone().setY(top.y + 0.11)],
      () => [0.006, 0.006],
      { radial: 8 },
    );
    list.add(mast, { color: DARK, skin: { rigid: 'Head' }, slot: 'metal', mesh: 'Head' });
    const bulb = ellipsoid([0.018, 0.018, 0.018], { at: [0, top.y + 0.125, top.z] }, [14, 10]);
    list.add(bulb, { color: '#bff6ff', skin: { rigid: 'Head' }, slot: 'glow', mesh: 'Head' });
    // Ear pods.
    const ear = sidePoint(ctx, -0.01, 0);
    const pod = tube(
      [ear.clone().add(new Vector3(-0.01, 0, 0)), ear.clone().add(new Vector3(0.022, 0, 0))],
      () => [0.035, 0.035],
      {
        radial: 20,
        perSegment: 2,
      },
    );
    mirrored(ctx, () => pod, {
      color: (p) => (Math.abs(p.x) > ear.x + 0.02 ? CYAN : DARK),
      skin: () => ({ rigid: 'Head' }),
      slot: 'metal',
      mesh: 'Head',
    });
  },
};
