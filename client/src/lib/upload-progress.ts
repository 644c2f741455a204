import type { ServerPayload, ServerEvent } from '@alma/protocol';

/**
 * `upload:progress` events, from the one chat socket (features/chat/hooks/use-chat-socket.ts)
 * to any upload watching that id, and whether that socket is up: an upload polls the status
 * only while it is down (spec §4). A plain listener registry: nothing renders from it directly.
 */
export type UploadProgressEvent = ServerPayload<typeof ServerEvent.uploadProgress>;

const listeners = new Map<string, Set<(event: UploadProgressEvent) => void>>();
let live = false;

export function publishUploadProgress(event: UploadProgressEvent): void {
  for (const listener of listeners.get(event.id) ?? []) listener(event);
}

export function subscribeUploadProgress(
  id: string,
  listener: (event: UploadProgressEvent) => void,
): () => void {
  const set = listeners.get(id) ?? new Set();
  set.add(listener);
  listeners.set(id, set);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(id);
  };
}

/** Set by the socket's owner on connect and disconnect. */
export function setUploadProgressLive(connected: boolean): void {
  live = connected;
}

export const uploadProgressLive = (): boolean => live;
