import type { Object3D } from 'three';
import type { AnimatorOverrides, AvatarAnimator } from '../engine/contract.ts';

/**
 * `window.__almaAvatars`: the animators of the viewers on screen, for end-to-end tests (held
 * visemes, emotions and a still pose give stable screenshots). Like `window.__almaAudio`
 * (chat/audio/queue.ts), it only observes; nothing in the app reads it.
 */
export interface DebugAvatar {
  id: string;
  avatar: string | null;
  modelUrl: string;
  animator: AvatarAnimator;
  /** The model on screen: what the animator wrote to it is read back from here. */
  root: Object3D;
}

/** How open the mouth is drawn now: the largest of the visemes' and the jaw's morph weights. */
export interface DebugMouth {
  /** The strongest mouth morph (a viseme, `jawOpen` or `mouthOpen`) and its weight. */
  morph: string | null;
  weight: number;
}

export interface AvatarDebugHandle {
  list: DebugAvatar[];
  /** Applies overrides to every animator (or to those showing `avatar`). */
  setOverrides: (overrides: AnimatorOverrides, avatar?: string | null) => number;
  /** The mouth's morph weights as drawn on the first viewer (or the one showing `avatar`). */
  mouth: (avatar?: string | null) => DebugMouth | null;
}

declare global {
  interface Window {
    __almaAvatars?: AvatarDebugHandle;
  }
}

function handle(): AvatarDebugHandle | null {
  if (typeof window === 'undefined') return null;
  return (window.__almaAvatars ??= {
    list: [],
    setOverrides(overrides, avatar) {
      const targets = this.list.filter((a) => avatar === undefined || a.avatar === avatar);
      for (const a of targets) a.animator.setOverrides(overrides);
      return targets.length;
    },
    mouth(avatar) {
      const target = this.list.find((a) => avatar === undefined || a.avatar === avatar);
      return target ? mouthOf(target.root) : null;
    },
  });
}

const MOUTH_MORPH = /^(viseme_(?!sil$)|jawOpen$|mouthOpen$)/;

function mouthOf(root: Object3D): DebugMouth {
  let best: DebugMouth = { morph: null, weight: 0 };
  root.traverse((node) => {
    const mesh = node as Object3D & {
      morphTargetDictionary?: Record<string, number>;
      morphTargetInfluences?: number[];
    };
    if (!mesh.morphTargetDictionary || !mesh.morphTargetInfluences) return;
    for (const [name, index] of Object.entries(mesh.morphTargetDictionary)) {
      const weight = mesh.morphTargetInfluences[index] ?? 0;
      if (MOUTH_MORPH.test(name) && weight > best.weight) best = { morph: name, weight };
    }
  });
  return best;
}

export function registerDebugAvatar(entry: DebugAvatar): () => void {
  const h = handle();
  if (!h) return () => undefined;
  h.list.push(entry);
  return () => {
    const i = h.list.indexOf(entry);
    if (i >= 0) h.list.splice(i, 1);
  };
}
