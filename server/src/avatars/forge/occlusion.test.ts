import { PlaneGeometry, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { occlusionGrid, partOcclusion } from './occlusion.ts';

/** A floor (y = 0, facing up) meeting a wall (z = 0, facing +Z) along the x axis. */
function corner() {
  const floor = new PlaneGeometry(0.6, 0.6, 30, 30).rotateX(-Math.PI / 2).translate(0, 0, 0.3);
  const wall = new PlaneGeometry(0.6, 0.6, 30, 30).translate(0, 0.3, 0);
  return { floor, wall, grid: occlusionGrid([floor, wall]) };
}

describe('AV-6 baked occlusion', () => {
  it('darkens a crease and leaves open surface alone', () => {
    const { grid } = corner();
    const up = new Vector3(0, 1, 0);
    const inCrease = grid.at(new Vector3(0, 0, 0.01), up);
    const open = grid.at(new Vector3(0, 0, 0.5), up);
    expect(inCrease).toBeGreaterThan(0.25);
    expect(open).toBe(0);
    // Farther from the wall, less shade.
    expect(grid.at(new Vector3(0, 0, 0.06), up)).toBeLessThan(inCrease);
  });

  it('is the same every time (the forge is deterministic)', () => {
    const { floor, grid } = corner();
    const up = new Vector3(0, 1, 0);
    const a = partOcclusion(grid, floor, () => up);
    const b = partOcclusion(corner().grid, floor, () => up);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(Math.max(...a)).toBeGreaterThan(0.2);
  });
});
