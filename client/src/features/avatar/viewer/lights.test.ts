import { describe, expect, it } from 'vitest';
import { STAGE_LIGHTS } from './lights.ts';

describe('stage lights (issue 12: soft shading and rim light)', () => {
  it('outline the avatar from behind on both sides, each rim weaker than the key', () => {
    const behind = STAGE_LIGHTS.rims.filter((l) => l.position[2] < 0);
    expect(behind.some((l) => l.position[0] < 0)).toBe(true);
    expect(behind.some((l) => l.position[0] > 0)).toBe(true);
    for (const rim of behind) expect(rim.intensity).toBeLessThan(STAGE_LIGHTS.key.intensity);
    // The key lights the face from the front.
    expect(STAGE_LIGHTS.key.position[2]).toBeGreaterThan(0);
  });
});
