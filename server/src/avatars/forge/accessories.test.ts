import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { addHeadband } from './accessories.ts';
import { PartList } from './assemble.ts';
import type { CharacterCtx } from './character.ts';
import { createHeadShape } from './head.ts';

describe('AV-6 head bands', () => {
  it.each([
    ['a headband across the brow', 0.085, 0.22],
    ['a circlet tipped back', 0.07, 0.3],
  ])('%s lies on the hair all the way round, never floating off the sides', (_name, y, tilt) => {
    const head = createHeadShape({ center: [0, 1.55, 0.01], radii: [0.15, 0.155, 0.145], chinTaper: 0.3 });
    const list = new PartList();
    // A headband needs only the head and the part list of a character's context.
    addHeadband({ head, list } as unknown as CharacterCtx, y, '#c0392b', { width: 0.02, tilt, lift: 0.02 });
    const pos = list.parts[0]?.geometry.getAttribute('position');
    if (!pos) throw new Error('no band');
    for (let i = 0; i < pos.count; i++) {
      const p = new Vector3(pos.getX(i), pos.getY(i), pos.getZ(i));
      const skull = head.surface(p.clone().sub(head.center)).distanceTo(head.center);
      const above = p.distanceTo(head.center) - skull;
      // On the hair (about 2 cm above the skull): a ring sized for the widest part of the head
      // stood 4 cm off the sides of the skull above the ears.
      expect(above).toBeGreaterThan(0.012);
      expect(above).toBeLessThan(0.03);
    }
  });
});
