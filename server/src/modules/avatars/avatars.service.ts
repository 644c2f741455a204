import { isSystemAvatarId, type SystemAvatar } from '@alma/protocol';
import { DEFAULT_MODEL_ID, type ModelStore, type StoredModel } from '../../avatars/forge/model-store.ts';
import { AppError } from '../../lib/app-error.ts';
import { SYSTEM_AVATARS } from './catalogue.ts';

export interface AvatarsServiceDeps {
  /** The forge's models in DATA_DIR/models, made on first request (AV-3). */
  models: ModelStore;
}

export function createAvatarsService(deps: AvatarsServiceDeps) {
  const { models } = deps;
  return {
    list(): readonly SystemAvatar[] {
      return SYSTEM_AVATARS;
    },

    /**
     * A system model's bytes by file name (`witch.glb`), or the default model for null. Anything
     * but `<catalogue id>.glb` is `not_found` before any file is touched (AV-2).
     */
    async model(file: string | null): Promise<StoredModel> {
      let id = DEFAULT_MODEL_ID;
      if (file !== null) {
        const name = file.endsWith('.glb') ? file.slice(0, -'.glb'.length) : '';
        if (!isSystemAvatarId(name)) throw new AppError('not_found', { detail: `no system model ${file}` });
        id = name;
      }
      const model = await models.get(id);
      if (!model) throw new AppError('not_found', { detail: `no system model ${id}` });
      return model;
    },
  };
}

export type AvatarsService = ReturnType<typeof createAvatarsService>;
