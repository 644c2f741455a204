import {
  DEFAULT_AVATAR_MODEL_URL,
  DEFAULT_AVATAR_PORTRAIT_ID,
  isSystemAvatarId,
  systemPortraitUrl,
  type SystemAvatar,
} from '@alma/protocol';
import { DEFAULT_MODEL_ID, type ModelStore, type StoredModel } from '../../avatars/forge/model-store.ts';
import { portraitVersion, type PortraitStore, type StoredPortrait } from '../../avatars/portrait/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { SYSTEM_AVATARS } from './catalogue.ts';

export interface AvatarsServiceDeps {
  /** The forge's models in DATA_DIR/models, made on first request (AV-3). */
  models: ModelStore;
  /** Their portraits beside them, drawn on first request (AV-7). */
  portraits: PortraitStore;
}

/** `<name><ext>` → the forge id it names (a catalogue id, or `default` where allowed), else null. */
function forgeIdOf(file: string, ext: string, allowDefault: boolean): string | null {
  const name = file.endsWith(ext) ? file.slice(0, -ext.length) : '';
  if (isSystemAvatarId(name)) return name;
  return allowDefault && name === DEFAULT_AVATAR_PORTRAIT_ID ? DEFAULT_MODEL_ID : null;
}

const portraitUrlOf = (id: string) =>
  systemPortraitUrl(id as Parameters<typeof systemPortraitUrl>[0], portraitVersion(id) ?? '0');

export function createAvatarsService(deps: AvatarsServiceDeps) {
  const { models, portraits } = deps;
  const listed: readonly SystemAvatar[] = SYSTEM_AVATARS.map((a) => ({
    ...a,
    portrait: portraitUrlOf(a.id),
  }));
  const defaultAvatar = { model: DEFAULT_AVATAR_MODEL_URL, portrait: portraitUrlOf(DEFAULT_MODEL_ID) };
  return {
    list(): readonly SystemAvatar[] {
      return listed;
    },
    /** The default model's entry: choosable in the picker like a character (AV-7). */
    defaultAvatar(): { model: string; portrait: string } {
      return defaultAvatar;
    },
    /**
     * A system model's bytes by file name (`witch.glb`), or the default model for null. Anything
     * but `<catalogue id>.glb` is `not_found` before any file is touched (AV-2).
     */
    async model(file: string | null): Promise<StoredModel> {
      const id = file === null ? DEFAULT_MODEL_ID : forgeIdOf(file, '.glb', false);
      if (!id) throw new AppError('not_found', { detail: `no system model ${file}` });
      const model = await models.get(id);
      if (!model) throw new AppError('not_found', { detail: `no system model ${id}` });
      return model;
    },
    /**
     * A portrait by file name: `<catalogue id>.webp` or `default.webp` (AV-7). One still being
     * drawn (its model forged first on a fresh server) is `unavailable` at once, its drawing
     * under way: the picker asks again.
     */
    async portrait(file: string): Promise<StoredPortrait> {
      const id = forgeIdOf(file, '.webp', true);
      if (!id) throw new AppError('not_found', { detail: `no portrait ${file}` });
      const portrait = await portraits.ready(id);
      if (!portrait)
        throw new AppError('unavailable', { detail: `portrait ${file} is being drawn`, retryAfterMs: 2000 });
      return portrait;
    },
  };
}
export type AvatarsService = ReturnType<typeof createAvatarsService>;
