import { useCallback, useEffect, useState } from 'react';
import { routes, type CustomAvatar } from '@alma/protocol';
import { call } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.ts';

/** The signed-in user's custom avatars (GET /api/upload/avatars/{userId}), with reload and delete. */
export function useCustomAvatars() {
  const userId = useSession((s) => s.user?.id ?? null);
  const [avatars, setAvatars] = useState<CustomAvatar[]>([]);
  const [error, setError] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    call(routes.avatarUploads.list, { params: { userId } }, { signal: controller.signal })
      .then((res) => {
        setAvatars(res.avatars);
        setError(false);
      })
      .catch(() => {
        if (!controller.signal.aborted) setError(true);
      });
    return () => controller.abort();
  }, [userId, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const add = useCallback(
    (avatar: CustomAvatar) => setAvatars((list) => [...list.filter((a) => a.id !== avatar.id), avatar]),
    [],
  );
  const remove = useCallback(async (id: string) => {
    await call(routes.avatarUploads.remove, { params: { id } });
    setAvatars((list) => list.filter((a) => a.id !== id));
  }, []);
  return { avatars, error, reload, add, remove };
}

export type CustomAvatarsState = ReturnType<typeof useCustomAvatars>;
