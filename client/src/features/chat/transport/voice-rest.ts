import { routes, type RouteResponse } from '@alma/protocol';
import { api, ApiError, errorFrom, parseSuccess, type ClientText } from '../../../lib/api.ts';
import { currentLanguage, i18n } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import type { VoiceSendPayload } from './types.ts';

export type VoiceNoteReply = RouteResponse<typeof routes.voiceNotes.messageAudio>;

export interface PostVoiceNoteDeps {
  fetch: typeof fetch;
  getToken: () => string | null;
  /** One refresh after a 401 (rotating tokens: shared with every other call). */
  refresh: () => Promise<boolean>;
  text: ClientText;
}

const defaultDeps: PostVoiceNoteDeps = {
  fetch: (...args) => fetch(...args),
  getToken: () => useSession.getState().token,
  refresh: () => api.refreshSession(),
  text: (key) => i18n.t(key),
};

/** The multipart body of `POST /message-audio`: the file in `audio`, the rest as text fields. */
export function voiceNoteForm(input: VoiceSendPayload): FormData {
  const form = new FormData();
  const extension = input.mimeType.includes('ogg') ? 'ogg' : input.mimeType.includes('mp4') ? 'm4a' : 'webm';
  form.append('audio', input.audio, `note.${extension}`);
  form.append('clientMessageId', input.clientMessageId);
  const fields = ['personality', 'language', 'sessionId', 'voiceId', 'avatarId', 'transcriptHint'] as const;
  for (const field of fields) {
    const value = input[field];
    if (value) form.append(field, value);
  }
  return form;
}

/**
 * Sends a voice note over REST and answers the stored note and the reply; failures are ApiError
 * like every other call (the same codes the socket's acks carry). Not retried on a network error:
 * the note is kept on the error message, whose retry sends it again with the same clientMessageId.
 */
export async function postVoiceNote(
  input: VoiceSendPayload,
  deps: PostVoiceNoteDeps = defaultDeps,
): Promise<VoiceNoteReply> {
  const route = routes.voiceNotes.messageAudio;
  const send = async (token: string | null) => {
    try {
      return await deps.fetch(route.path, {
        method: route.method,
        headers: {
          Accept: 'application/json',
          'Accept-Language': input.language ?? currentLanguage(),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: voiceNoteForm(input),
      });
    } catch {
      throw new ApiError({ code: 'network_error', message: deps.text('errors.connectionFailed'), status: 0 });
    }
  };
  const token = deps.getToken();
  let response = await send(token);
  if (response.status === 401 && (await deps.refresh())) response = await send(deps.getToken());
  if (!response.ok) throw await errorFrom(response, deps.text);
  return parseSuccess(route, response, deps.text);
}
