import { renderGlbPortrait, PORTRAIT_SIZE } from '@alma/server';
import { decodeImage } from '@alma/server/test-support';
import { describe, expect, it } from 'vitest';
import { buildFigure, FIGURE_COLOUR, type FigureOptions } from '../e2e/fixtures/stage-models.ts';

/**
 * The picker's portraits (SPEC.md AV-7), drawn on the server by the software rasteriser from a
 * real .glb: a textured, skinned humanoid (the stage tests' figure, its face plate the texture's
 * warm colour) comes out as its head and shoulders in that colour — not white, not grey — with
 * room above the head, whatever its size, origin or facing, skinned or static.
 */

interface Picture {
  alpha: (x: number, y: number) => number;
  rgb: (x: number, y: number) => [number, number, number];
  /** The painted pixels' bounding box. */
  box: { left: number; right: number; top: number; bottom: number };
}

async function picture(options: FigureOptions = {}): Promise<Picture> {
  const webp = await renderGlbPortrait(await buildFigure(options));
  expect(webp).not.toBeNull();
  const info = await decodeImage(webp!);
  const data = info.data;
  expect([info.width, info.height]).toEqual([PORTRAIT_SIZE, PORTRAIT_SIZE]);
  const at = (x: number, y: number) => (y * info.width + x) * 4;
  const box = { left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity };
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[at(x, y) + 3]! > 128) {
        box.left = Math.min(box.left, x);
        box.right = Math.max(box.right, x);
        box.top = Math.min(box.top, y);
        box.bottom = Math.max(box.bottom, y);
      }
  return {
    alpha: (x, y) => data[at(x, y) + 3]!,
    rgb: (x, y) => [data[at(x, y)]!, data[at(x, y) + 1]!, data[at(x, y) + 2]!],
    box,
  };
}

/** Mean colour of the opaque pixels in the centre band (the face plate). */
function faceColour(p: Picture): [number, number, number] {
  const sum: [number, number, number] = [0, 0, 0];
  let n = 0;
  const c = PORTRAIT_SIZE / 2;
  for (let y = Math.round(c * 0.5); y < c; y++)
    for (let x = Math.round(c * 0.8); x < c * 1.2; x++)
      if (p.alpha(x, y) > 250) {
        const [r, g, b] = p.rgb(x, y);
        sum[0] += r;
        sum[1] += g;
        sum[2] += b;
        n++;
      }
  expect(n).toBeGreaterThan(100);
  return sum.map((v) => v / n) as [number, number, number];
}

const warm = ([r, g, b]: [number, number, number]) => {
  // The texture's hue (214, 96, 52), lit: red well above green, green above blue, not white.
  expect(r - g).toBeGreaterThan((FIGURE_COLOUR[0] - FIGURE_COLOUR[1]) * 0.5);
  expect(g - b).toBeGreaterThan(10);
  expect(b).toBeLessThan(150);
};

describe('portraits of uploads (AV-7)', () => {
  it('a textured skinned figure: head and shoulders in its texture colour, room above the head', async () => {
    const p = await picture();
    warm(faceColour(p));
    // The head is framed, not the body: the painted area starts below the top edge and spans
    // the whole height below it (shoulders run out of the frame), the head centred.
    expect(p.box.top).toBeGreaterThan(2);
    expect(p.box.top).toBeLessThan(PORTRAIT_SIZE * 0.3);
    expect(p.box.bottom).toBe(PORTRAIT_SIZE - 1);
    expect(p.alpha(PORTRAIT_SIZE / 2, 1)).toBe(0);
    const headRow = p.box.top + 10;
    let left = 0;
    while (left < PORTRAIT_SIZE && p.alpha(left, headRow) < 128) left++;
    let right = PORTRAIT_SIZE - 1;
    while (right > 0 && p.alpha(right, headRow) < 128) right--;
    // The head (0.2 m of a 1.7 m figure) is about a third of the picture, in its middle.
    expect(right - left).toBeGreaterThan(PORTRAIT_SIZE * 0.25);
    expect(right - left).toBeLessThan(PORTRAIT_SIZE * 0.6);
    expect(Math.abs((left + right) / 2 - PORTRAIT_SIZE / 2)).toBeLessThan(PORTRAIT_SIZE * 0.05);
  });

  it('the same framing whatever the size, the origin or the facing, skinned or static', async () => {
    const reference = await picture({ texture: null });
    for (const options of [
      { height: 0.2, origin: 'centre' },
      { height: 200, origin: [3, -40, 7] },
      { facing: -1 },
      { skinned: false, origin: 'centre' },
    ] satisfies FigureOptions[]) {
      const p = await picture({ ...options, texture: null });
      warm(faceColour(p));
      for (const side of ['left', 'right', 'top', 'bottom'] as const)
        expect(
          Math.abs(p.box[side] - reference.box[side]),
          `${JSON.stringify(options)} ${side}`,
        ).toBeLessThan(4);
    }
  });

  it('a texture the renderer cannot decode (KTX2) draws the shapes in their factor colour', async () => {
    const p = await picture({ texture: 'ktx2' });
    expect(p.box.top).toBeLessThan(PORTRAIT_SIZE * 0.3);
    expect(p.box.bottom).toBe(PORTRAIT_SIZE - 1);
  });
});
