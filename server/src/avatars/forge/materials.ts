import { Color, DoubleSide, MeshPhysicalMaterial } from 'three';
import type { MaterialLook, Slot } from './assemble.ts';

/**
 * The forge's materials, one per slot, all plain glTF PBR plus KHR_materials_sheen (which three's
 * GLTFLoader turns into MeshPhysicalMaterial): colour comes from the vertex colours (with baked
 * occlusion, occlusion.ts); sheen gives skin, cloth and hair a soft light at grazing angles — a
 * rim against any back light — and, on skin and hair (one colour each), a faint emissive in that
 * colour keeps the side away from the light from going grey: the soft shading of a stylised
 * character.
 */

export interface SlotTone {
  /** The mean vertex colour of the slot's parts in this mesh (linear). */
  mean: Color;
}

const tint = (c: Color, toward: string, t: number, scale: number) =>
  c.clone().lerp(new Color(toward), t).multiplyScalar(scale);

export function slotMaterial(slot: Slot, look: MaterialLook, tone: SlotTone): MeshPhysicalMaterial {
  const m = new MeshPhysicalMaterial({ name: slot, vertexColors: true, color: 0xffffff, metalness: 0 });
  const mean = tone.mean;
  switch (slot) {
    case 'skin':
      m.roughness = 0.58;
      m.sheen = 1;
      m.sheenColor = tint(mean, '#ffe6da', 0.5, 0.55);
      m.sheenRoughness = 0.42;
      m.emissive = tint(mean, '#ffb59a', 0.15, 0.13);
      break;
    case 'cloth':
      // Cloth slots hold several colours (a dress, its trim, a sash): a neutral, tight sheen
      // lights the silhouette without greying dark fabric.
      m.roughness = 0.8;
      m.sheen = 1;
      m.sheenColor = new Color(0.3, 0.3, 0.32);
      m.sheenRoughness = 0.3;
      break;
    case 'hair':
      m.roughness = 0.45;
      m.side = DoubleSide;
      m.sheen = 1;
      m.sheenColor = tint(mean, '#ffffff', 0.45, 0.5);
      m.sheenRoughness = 0.3;
      m.emissive = tint(mean, '#ffffff', 0, 0.08);
      break;
    case 'gloss':
      m.roughness = 0.3;
      break;
    case 'eye':
      m.roughness = 0.18;
      break;
    case 'metal':
      m.roughness = 0.32;
      m.metalness = look.metalness ?? 0.55;
      m.sheen = 1;
      m.sheenColor = tint(mean, '#cfe6ff', 0.6, 0.3);
      m.sheenRoughness = 0.35;
      break;
    case 'glow':
      m.roughness = 0.4;
      m.emissive = new Color(look.glowColor ?? '#7fe8ff');
      break;
  }
  return m;
}
