import {
  DEFAULT_AVATAR_MODEL_URL,
  customAvatarModelUrl,
  isCustomAvatarId,
  isSystemAvatarId,
  systemModelUrl,
} from '@alma/protocol';
import { useSession } from '../../lib/session.ts';

/**
 * Which .glb a chosen avatar loads (spec §4 Avatar selection): a system avatar id maps to
 * `/models/<id>.glb`, a custom avatar to its model endpoint `/api/upload/avatar/<id>/model`
 * (spec §3, fetched with the bearer credential); anything else — nothing chosen, an unknown or
 * stale id — is the default model `/model.glb`.
 */
export function modelUrlFor(avatarId: string | null | undefined): string {
  if (isSystemAvatarId(avatarId)) return systemModelUrl(avatarId);
  if (typeof avatarId === 'string' && isCustomAvatarId(avatarId)) return customAvatarModelUrl(avatarId);
  return DEFAULT_AVATAR_MODEL_URL;
}

/** A stored choice is valid when it names a system or custom avatar; others fall back to the default. */
export function validAvatarId(avatarId: string | null | undefined): string | null {
  if (isSystemAvatarId(avatarId)) return avatarId;
  return typeof avatarId === 'string' && isCustomAvatarId(avatarId) ? avatarId : null;
}

/** Custom models are the owner's alone: their requests carry the bearer credential (spec §7). */
export function modelRequestHeaders(url: string): Record<string, string> | null {
  if (!/^\/api\/upload\//.test(url)) return {};
  const token = useSession.getState().token;
  return token ? { authorization: `Bearer ${token}` } : null;
}

/**
 * Model URLs the viewer accepts: same-origin paths or http(s) URLs of a `.glb`, or a custom
 * avatar's model endpoint (spec §3 `/api/upload/avatar/{id}/model`). Anything else is refused
 * before any request with 'URL del modelo inválida' (spec §8).
 */
export function isValidModelUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.trim() === '') return false;
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://local.invalid');
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:' && parsed.protocol !== 'blob:')
    return false;
  return (
    parsed.protocol === 'blob:' ||
    /\.glb$/i.test(parsed.pathname) ||
    /^\/api\/upload\/avatar\/[\w-]+\/model$/.test(parsed.pathname)
  );
}

/**
 * The existence check of spec §4 (a HEAD request). Only a definite "gone" (404 or 410) counts as
 * missing: a network failure says nothing about the file and leaves the choice alone.
 */
export async function modelExists(url: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  try {
    const res = await fetchImpl(url, { method: 'HEAD', headers: modelRequestHeaders(url) ?? {} });
    return res.status !== 404 && res.status !== 410;
  } catch {
    return true;
  }
}

/** The model-load error event of spec §4; raised by a viewer, answered by a selection reset. */
export const AVATAR_MODEL_ERROR_EVENT = 'alma:avatar-model-error';

export interface AvatarModelErrorDetail {
  error: string;
  avatar: string | null;
  modelUrl: string;
}

export function dispatchModelError(detail: AvatarModelErrorDetail): void {
  if (typeof window === 'undefined') return;
  window.dispatchEvent(new CustomEvent<AvatarModelErrorDetail>(AVATAR_MODEL_ERROR_EVENT, { detail }));
}

export function onModelError(listener: (detail: AvatarModelErrorDetail) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<AvatarModelErrorDetail>).detail);
  window.addEventListener(AVATAR_MODEL_ERROR_EVENT, handler);
  return () => window.removeEventListener(AVATAR_MODEL_ERROR_EVENT, handler);
}
