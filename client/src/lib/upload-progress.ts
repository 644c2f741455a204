import { ServerEvent, type ServerPayload } from '@alma/protocol';
import { isRealtimeConnected, onServerEvent } from './realtime.ts';

/**
 * `upload:progress` for one upload (avatar or voice), from the app's one socket (lib/realtime.ts,
 * connected on every signed-in screen, onboarding included), and whether that socket is up: an
 * upload polls its status only while it is down (spec §4).
 */
export type UploadProgressEvent = ServerPayload<typeof ServerEvent.uploadProgress>;

export function subscribeUploadProgress(
  id: string,
  listener: (event: UploadProgressEvent) => void,
): () => void {
  return onServerEvent(ServerEvent.uploadProgress, (event) => {
    if (event.id === id) listener(event);
  });
}

export const uploadProgressLive = (): boolean => isRealtimeConnected();
