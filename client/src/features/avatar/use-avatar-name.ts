import { useEffect, useState } from 'react';
import { isCustomAvatarId, routes } from '@alma/protocol';
import { call } from '../../lib/api.ts';
import { useAvatarSelection } from './selection.ts';

/**
 * The chosen custom avatar's own name (GET /api/upload/avatar/{id}), for the stage's caption;
 * null for a system or the default avatar (their names are translated by id) and until known.
 */
export function useCustomAvatarName(): string | null {
  const { avatarId } = useAvatarSelection();
  const [named, setNamed] = useState<{ id: string; name: string } | null>(null);
  useEffect(() => {
    if (!avatarId || !isCustomAvatarId(avatarId)) return;
    const controller = new AbortController();
    call(routes.avatarUploads.get, { params: { id: avatarId } }, { signal: controller.signal })
      .then((res) => setNamed({ id: avatarId, name: res.avatar.name }))
      // The caption keeps the generic name; the viewer reports a model that is really gone.
      .catch(() => undefined);
    return () => controller.abort();
  }, [avatarId]);
  return named && named.id === avatarId ? named.name : null;
}
