import { Vector3, type BufferGeometry } from 'three';
import { TORSO, addArms, addLegs, addNeck, addShoes, addSkirt, addTorso } from '../body.ts';
import { addHands } from '../hands.ts';
import { addEars } from '../accessories.ts';
import type { CharacterSpec } from '../character.ts';
import { addHair } from '../hair.ts';
import { lathe, tube } from '../shapes.ts';

const SKIN = '#f6dcc8';
const DRESS = '#4b2a6e';
const DRESS_DARK = '#3a2057';
const HAIR = '#e2662a';

/** The witch: ginger hair, green eyes, a purple gown and a tall bent hat with a green band. */
export const witch: CharacterSpec = {
  id: 'witch',
  head: { radii: [0.152, 0.158, 0.145], chinTaper: 0.3, lift: 0.155, cheek: 0.01 },
  face: {
    skin: SKIN,
    eyeX: 0.058,
    eyeY: -0.02,
    eyeSize: [0.026, 0.032],
    iris: ['#0f5a2a', '#3fbf5a'],
    lashes: true,
    brow: { color: '#5b2a14', y: 0.035, thickness: 0.0055 },
    mouth: { y: -0.086, width: 0.023, smile: 0.4 },
    blush: '#f0a5a0',
    nose: { y: -0.052, size: 0.0085, color: '#f0cdb8' },
    freckles: '#d99a78',
  },
  build(ctx) {
    const { list, head } = ctx;
    addTorso(ctx, {
      profile: TORSO.female,
      color: DRESS,
    });
    addNeck(ctx, 0.035, SKIN);
    addArms(ctx, { skin: SKIN, sleeve: DRESS, sleeveEnd: 0.93, flare: 0.03, cuff: DRESS_DARK });
    addHands(ctx, { color: SKIN });
    addLegs(ctx, { color: () => '#2a2030', radii: [0.06, 0.045, 0.034] });
    addShoes(ctx, { color: '#3b2a22', sole: '#1d1512', shaft: 0.1 });
    addSkirt(ctx, { top: 0.98, bottom: 0.12, topR: 0.13, bottomR: 0.3, color: DRESS, wave: 0.04 });
    addEars(ctx, 'human', SKIN);
    // Green sash at the waist.
    const belt = tube([new Vector3(0, 0.99, 0), new Vector3(0, 1.02, 0)], () => [0.124, 0.124 * 0.75], {
      radial: 32,
      perSegment: 1,
      caps: [false, false],
    });
    list.add(belt, { color: '#7cc04a', skin: { rigid: 'Spine' }, slot: 'cloth' });
    // Collar.
    const collar = lathe(
      [
        [0.045, 1.262],
        [0.075, 1.245],
        [0.11, 1.222],
      ],
      { depth: 0.8 },
    );
    list.add(collar, { color: DRESS_DARK, skin: { rigid: 'Spine2' }, slot: 'cloth' });

    addHair(list, head, {
      color: HAIR,
      front: 1.0,
      side: 1.75,
      back: 2.0,
      strands: 22,
      tipLength: 0.2,
      volume: 0.014,
      long: { bottom: 1.14, from: 0.95, flare: 0.05 },
    });

    // Hat: a brim wide enough to be a witch's yet clear of the face at portrait framing, worn
    // tipped back a little; a tall cone with a bent tip and a green band.
    const top = head.center.y + 0.1;
    const tipBack = (g: BufferGeometry) =>
      g.translate(0, -top, -head.center.z).rotateX(-0.16).translate(0, top, head.center.z);
    const brim = lathe(
      [
        [0.235, top - 0.003],
        [0.245, top + 0.004],
        [0.18, top + 0.013],
        [0.14, top + 0.016],
      ],
      { segments: 40 },
    );
    list.add(tipBack(brim), { color: '#2c1d3d', skin: { rigid: 'Head' }, slot: 'cloth', mesh: 'Head' });
    // The underside reaches in under the hair, closing the hat: nothing inside it shows from below.
    const under = lathe(
      [
        [0.09, top + 0.013],
        [0.14, top + 0.012],
        [0.18, top + 0.01],
        [0.235, top - 0.003],
      ],
      { segments: 40 },
    );
    list.add(tipBack(under), { color: '#241733', skin: { rigid: 'Head' }, slot: 'cloth', mesh: 'Head' });
    const cone = tube(
      [
        // The base sits inside the brim's thickness, so no edge of it shows under the brim.
        new Vector3(0, top + 0.012, 0),
        new Vector3(0, top + 0.14, -0.01),
        new Vector3(0.0, top + 0.26, -0.04),
        new Vector3(0.03, top + 0.32, -0.1),
      ],
      (t) => {
        const r = 0.16 * (1 - t) ** 1.2 + 0.004;
        return [r, r];
      },
      { radial: 24, perSegment: 6, caps: [true, true], up: new Vector3(1, 0, 0) },
    );
    list.add(tipBack(cone), { color: '#3a2552', skin: { rigid: 'Head' }, slot: 'cloth', mesh: 'Head' });
    // The band: a ribbon standing proud of the cone above the brim, rounded at its edges, tall
    // enough to show over the brim's raised front at portrait framing.
    const coneR = (y: number) => 0.16 * (1 - (y - top - 0.012) / 0.31) ** 1.2 + 0.004;
    const band = lathe(
      [
        [coneR(top + 0.018) + 0.001, top + 0.018],
        [coneR(top + 0.024) + 0.005, top + 0.024],
        [coneR(top + 0.062) + 0.005, top + 0.062],
        [coneR(top + 0.07) + 0.001, top + 0.07],
      ],
      { segments: 40 },
    );
    list.add(tipBack(band), { color: '#7cc04a', skin: { rigid: 'Head' }, slot: 'cloth', mesh: 'Head' });
  },
};
