import { useEffect } from 'react';
import { i18n } from '../../lib/i18n.ts';
import { savePreferences, usePreferences, usePreferencesOf } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { modelExists, modelUrlFor, onModelError, validAvatarId } from './model.ts';
import { VIEWER_ERROR_CODES, type ViewerErrorCode } from './viewer/state.ts';

/**
 * The chosen avatar (spec §4 Avatar selection). The user's preferences (lib/preferences.ts) hold
 * its id and mirror it to the `selectedAvatar` key; this module resolves the model to load and
 * applies the two fallbacks: a model that fails to load, or whose file is gone, resets the choice
 * to the default avatar.
 */

/** Forgets the stored choice on this device; the default model is shown from then on. */
export function resetToDefaultAvatar(userId: string): void {
  usePreferences.getState().save(userId, { avatar: null });
}

/**
 * Stores a choice: locally at once, then `selectedAvatarId` on the account. An invalid id is
 * stored as the default. Resolves with the id kept (null for the default).
 */
export async function selectAvatar(userId: string, avatarId: string | null): Promise<string | null> {
  const valid = validAvatarId(avatarId);
  usePreferences.getState().save(userId, { avatar: valid });
  try {
    await savePreferences(userId, { avatar: valid, selectedAvatarId: valid });
  } catch {
    // Kept on this device; the account keeps the previous choice until the next save.
    usePreferences.getState().save(userId, { avatar: valid });
    toast(i18n.t('errors.preferencesSave'), 'error');
  }
  return valid;
}

export interface AvatarSelection {
  userId: string | null;
  avatarId: string | null;
  modelUrl: string;
}

/**
 * The signed-in user's avatar and its model URL, with the existence check (HEAD) and the
 * model-error reset wired in. Mount it once per screen that shows the chosen avatar.
 */
export function useAvatarSelection(): AvatarSelection {
  const userId = useSession((s) => s.user?.id ?? null);
  const stored = usePreferencesOf(userId).avatar;
  const avatarId = validAvatarId(stored);
  const modelUrl = modelUrlFor(avatarId);

  useEffect(() => {
    if (!userId || !avatarId) return;
    let live = true;
    void modelExists(modelUrl).then((exists) => {
      if (live && !exists) resetToDefaultAvatar(userId);
    });
    return () => {
      live = false;
    };
  }, [userId, avatarId, modelUrl]);

  useEffect(() => {
    if (!userId) return;
    return onModelError((detail) => {
      // Only the chosen avatar's failure resets the choice; a preview's failure stays local.
      if (detail.avatar && detail.avatar === validAvatarId(usePreferences.getState().get(userId).avatar)) {
        resetToDefaultAvatar(userId);
        // Said once, in words (SPEC ST-1): why the chosen avatar is not the one on stage.
        const code = (VIEWER_ERROR_CODES as readonly string[]).includes(detail.error)
          ? (detail.error as ViewerErrorCode)
          : 'generic';
        toast(i18n.t('avatar.viewer.fellBack', { reason: i18n.t(`avatar.viewer.errors.${code}`) }), 'error');
      }
    });
  }, [userId]);

  return { userId, avatarId, modelUrl };
}
