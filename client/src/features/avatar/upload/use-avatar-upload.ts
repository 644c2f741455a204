import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { AvatarUploadResponseSchema, routes, type CustomAvatar } from '@alma/protocol';
import { call } from '../../../lib/api.ts';
import { subscriptionLimits } from '../../../lib/limits.ts';
import { useSession } from '../../../lib/session.ts';
import { subscribeUploadProgress, uploadProgressLive } from '../../../lib/upload-progress.ts';
import { uploadMultipart } from '../../../lib/upload.ts';
import { createUploadController, type UploadController } from './controller.ts';

/** The avatar upload controller wired to the API, the socket's progress and the limits cache. */
export function useAvatarUpload(onCompleted?: (avatar: CustomAvatar) => void): {
  controller: UploadController;
  state: ReturnType<UploadController['getState']>;
} {
  const { t, i18n } = useTranslation();
  const [controller] = useState(() =>
    createUploadController({
      upload: async ({ file, fields, onProgress }) =>
        (
          await uploadMultipart({
            path: '/api/upload/avatar',
            fields,
            fileField: 'avatar',
            file,
            token: useSession.getState().token,
            language: i18n.language,
            response: AvatarUploadResponseSchema,
            onProgress,
            failedText: t('avatarUpload.failed'),
          })
        ).avatar,
      status: async (id) => (await call(routes.avatarUploads.status, { params: { id } })).avatar,
      fetchAvatar: async (id) => (await call(routes.avatarUploads.get, { params: { id } })).avatar,
      cancel: async (id) => (await call(routes.avatarUploads.cancel, { params: { id } })).avatar,
      subscribe: subscribeUploadProgress,
      socketConnected: uploadProgressLive,
      loadLimits: async () => {
        const userId = useSession.getState().user?.id;
        return userId ? (await subscriptionLimits.get(userId, { force: true })).subscription : null;
      },
      text: (key) => t(key),
    }),
  );
  useEffect(() => () => controller.dispose(), [controller]);
  useEffect(
    () =>
      controller.setOnCompleted((avatar) => {
        subscriptionLimits.invalidate();
        onCompleted?.(avatar);
      }),
    [controller, onCompleted],
  );
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  return { controller, state };
}
