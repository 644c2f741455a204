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
}

export interface AvatarDebugHandle {
  list: DebugAvatar[];
  /** Applies overrides to every animator (or to those showing `avatar`). */
  setOverrides: (overrides: AnimatorOverrides, avatar?: string | null) => number;
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
  });
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
