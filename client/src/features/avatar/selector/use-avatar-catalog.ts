import { useCallback, useEffect, useState } from 'react';
import { routes, type SystemAvatar } from '@alma/protocol';
import { call } from '../../../lib/api.ts';

/** The default avatar's entry (SPEC.md AV-7): choosable in the picker like the characters. */
export interface DefaultAvatarEntry {
  model: string;
  portrait: string;
}

export type CatalogState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'ready'; avatars: SystemAvatar[]; defaultAvatar: DefaultAvatarEntry };

/** The system list changes only with a deploy: one successful answer serves the page's life. */
let cached: { avatars: SystemAvatar[]; defaultAvatar: DefaultAvatarEntry } | null = null;

/** Test seam: forget the cached catalogue. */
export function clearAvatarCatalogCache(): void {
  cached = null;
}

/** GET /api/avatars (spec §7), with a retry for the embedded selector's error state. */
export function useAvatarCatalog(): CatalogState & { retry: () => void } {
  const [state, setState] = useState<CatalogState>(() =>
    cached ? { status: 'ready', ...cached } : { status: 'loading' },
  );
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (cached && attempt === 0) return;
    const controller = new AbortController();
    call(routes.avatars.list, {}, { signal: controller.signal })
      .then((res) => {
        cached = { avatars: res.avatars, defaultAvatar: res.defaultAvatar };
        setState({ status: 'ready', ...cached });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: 'error' });
      });
    return () => controller.abort();
  }, [attempt]);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { ...state, retry };
}
