import { describe, expect, it } from 'vitest';
import { hairEdge, type HairParams } from './hair.ts';

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
});
