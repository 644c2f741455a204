import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { PartList } from './assemble.ts';
import { addHair, hairEdge, locks, type HairParams } from './hair.ts';
import { createHeadShape } from './head.ts';

/** Hair styles as the characters use them: short with a parting, a long curtain, a fine bob. */
const STYLES: [string, HairParams][] = [
  [
    'short',
    { color: '#4a2c20', front: 1.02, side: 1.85, back: 2.15, strands: 20, tipLength: 0.2, part: 0.25 },
  ],
  ['long', { color: '#7a3b1e', front: 1, side: 1.72, back: 2, strands: 18, tipLength: 0.2, part: -0.2 }],
  ['bob', { color: '#1a1a24', front: 1.12, side: 1.95, back: 2.05, strands: 44, tipLength: 0.05 }],
];

describe('AV-6 hair', () => {
  it.each(STYLES)('the %s cap ends in smooth locks: its edge has no corners', (_name, style) => {
    const { edge, base } = hairEdge(style);
    const step = 1e-3;
    let worst = 0;
    let reach = 0;
    let previous: number | null = null;
    for (let phi = -Math.PI; phi < Math.PI - step; phi += step) {
      const slope = (edge(phi + step) - edge(phi)) / step;
      if (previous !== null) worst = Math.max(worst, Math.abs(slope - previous));
      previous = slope;
      reach = Math.max(reach, edge(phi) - base(phi));
    }
    // A zig-zag flips its slope at every tip (a jump of several units); locks turn gradually.
    expect(worst).toBeLessThan(0.3);
    // …and still reach below the cap's base line.
    expect(reach).toBeGreaterThan((style.tipLength ?? 0) * 0.6);
  });

  it('a lock ends in a broad, rounded clump, not a point', () => {
    // Across one lock (x from 0 to 1), the share of its width that reaches within 10% of its tip,
    // and the share past half its length. A pointed tip (sin^1.8) gives 0.22 and 0.52.
    for (let k = 0; k < 8; k++) {
      const samples = Array.from({ length: 1000 }, (_, i) => locks(k + (i + 0.5) / 1000, 11).reach);
      const top = Math.max(...samples);
      const share = (level: number) => samples.filter((r) => r > level * top).length / samples.length;
      expect(share(0.9)).toBeGreaterThan(0.35);
      expect(share(0.5)).toBeGreaterThan(0.6);
    }
  });

  it('locks gather into clumps: grooves of different depths, the surface continuous across them', () => {
    const grooves: number[] = [];
    for (let k = 1; k < 24; k++) {
      // Either side of the edge between lock k−1 and lock k.
      const before = locks(k - 1e-6, 11).swell;
      const after = locks(k + 1e-6, 11).swell;
      expect(Math.abs(before - after)).toBeLessThan(1e-4);
      grooves.push(-after);
    }
    // Even stripes have one depth everywhere; clumps have deep partings and faint ones.
    expect(Math.max(...grooves)).toBeGreaterThan(2 * Math.min(...grooves));
  });

  it('a long curtain has a thickness: each row of it is a loop round an area, not a sheet', () => {
    const head = createHeadShape({ center: [0, 1.55, 0.01], radii: [0.15, 0.155, 0.145], chinTaper: 0.3 });
    const list = new PartList();
    const style = STYLES[1]?.[1] as HairParams;
    addHair(list, head, { ...style, long: { bottom: 1.1, from: 1, flare: 0.05 } });
    const curtain = list.parts[1]?.geometry;
    if (!curtain) throw new Error('no curtain');
    const pos = curtain.getAttribute('position');
    // The curtain is a grid of loops, one per row: the first triangle joins row 0 to row 1, so
    // its second corner is the first vertex of row 1 — the length of a row.
    const perRow = curtain.getIndex()?.getX(1) ?? 0;
    const rowCount = pos.count / perRow;
    expect(Number.isInteger(rowCount) && rowCount > 10).toBe(true);
    const row = Math.floor(rowCount / 2);
    // Shoelace area of that loop in the horizontal plane, walking it in order: a sheet that goes
    // out along its outer face and back along the same face encloses none.
    const loop = Array.from(
      { length: perRow },
      (_, i) => new Vector3(pos.getX(row * perRow + i), 0, pos.getZ(row * perRow + i)),
    );
    let area = 0;
    for (let i = 0; i < loop.length; i++) {
      const a = loop[i] as Vector3;
      const b = loop[(i + 1) % loop.length] as Vector3;
      area += a.x * b.z - b.x * a.z;
    }
    // The loop closes on itself: no step across an open side.
    const steps = loop.map((p, i) => p.distanceTo(loop[(i + 1) % loop.length] as Vector3));
    expect(Math.max(...steps)).toBeLessThan(0.02);
    const length = loop.reduce((sum, p, i) => sum + p.distanceTo(loop[(i + 1) % loop.length] as Vector3), 0);
    // Mean thickness = area / half the perimeter: millimetres of hair, not paper.
    expect(Math.abs(area / 2) / (length / 2)).toBeGreaterThan(0.003);
  });
});
