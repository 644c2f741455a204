/**
 * The stage's lights, one definition for the viewer (AvatarViewer.tsx) and the forge's preview
 * (scripts/avatar-preview.ts), so what the preview shows is what the app shows.
 *
 * A soft sky/ground fill, a key light from the front right (the one that casts the shadow),
 * and two rim lights from behind — a cool one on the left, a warm one on the right — that
 * outline the head and shoulders against the dark stage at portrait framing and give the
 * forged characters' sheen (skin, cloth, hair) a soft edge.
 */
export interface StageLights {
  hemisphere: { sky: string; ground: string; intensity: number };
  key: { position: [number, number, number]; intensity: number; color: string };
  rims: { position: [number, number, number]; intensity: number; color: string }[];
}

export const STAGE_LIGHTS: StageLights = {
  hemisphere: { sky: '#f4efff', ground: '#2a2440', intensity: 1.4 },
  key: { position: [1.8, 3, 2.5], intensity: 2.2, color: '#ffffff' },
  rims: [
    { position: [-2.5, 1.5, -2], intensity: 1.5, color: '#9fb8ff' },
    { position: [2.4, 2.2, -2.2], intensity: 1.5, color: '#ffd6b0' },
  ],
};
