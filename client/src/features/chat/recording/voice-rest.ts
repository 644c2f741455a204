import { ApiErrorSchema, routes, type Language, type Personality, type RouteResponse } from '@alma/protocol';
import { api, ApiError } from '../../../lib/api.ts';
import { currentLanguage, i18n } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import type { VoiceNoteInput } from '../events.ts';

/**
 * How a voice note travels (SPEC.md V-1): `chat:voice` on a connected socket that can carry it;
 * otherwise `POST /message-audio` (multipart), which answers with the whole reply — the same
 * fallback text messages take (ARCHITECTURE §2).
 */
export type VoiceRoute = 'socket' | 'rest';

export function voiceRoute(transport: { isConnected: () => boolean; voice?: unknown } | null): VoiceRoute {
  return transport?.isConnected() && transport.voice ? 'socket' : 'rest';
}

export type VoiceNoteReply = RouteResponse<typeof routes.voiceNotes.messageAudio>;

export interface PostVoiceNoteInput {
  clientMessageId: string;
  note: VoiceNoteInput;
  personality: Personality;
  sessionId: string | null;
  /** The language spoken in the note (the app's); pocketsphinx only hears English (V-3). */
  language: Language;
}

export interface PostVoiceNoteDeps {
  fetch: typeof fetch;
  getToken: () => string | null;
  /** One refresh after a 401 (rotating tokens: shared with every other call). */
  refresh: () => Promise<boolean>;
  text: (key: 'errors.connectionFailed' | 'errors.requestFailed') => string;
}

const defaultDeps: PostVoiceNoteDeps = {
  fetch: (...args) => fetch(...args),
  getToken: () => useSession.getState().token,
  refresh: () => api.refreshSession(),
  text: (key) => i18n.t(key),
};

/** The multipart body of `POST /message-audio`: the file in `audio`, the rest as text fields. */
export function voiceNoteForm(input: PostVoiceNoteInput): FormData {
  const form = new FormData();
  const extension = input.note.mimeType.includes('ogg')
    ? 'ogg'
    : input.note.mimeType.includes('mp4')
      ? 'm4a'
      : 'webm';
  form.append('audio', input.note.audio, `note.${extension}`);
  form.append('clientMessageId', input.clientMessageId);
  form.append('personality', input.personality);
  form.append('language', input.language);
  if (input.sessionId) form.append('sessionId', input.sessionId);
  if (input.note.transcriptHint) form.append('transcriptHint', input.note.transcriptHint);
  return form;
}

/**
 * Sends a voice note over REST and answers the stored note and the reply; failures are ApiError
 * like every other call (the same codes the socket's acks carry). Not retried on a network error:
 * the note is kept on the error message, whose retry sends it again with the same clientMessageId.
 */
export async function postVoiceNote(
  input: PostVoiceNoteInput,
  deps: PostVoiceNoteDeps = defaultDeps,
): Promise<VoiceNoteReply> {
  const route = routes.voiceNotes.messageAudio;
  const send = async (token: string | null) => {
    try {
      return await deps.fetch(route.path, {
        method: route.method,
        headers: {
          Accept: 'application/json',
          'Accept-Language': input.language,
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
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: handled below.
  }
  if (!response.ok) {
    const parsed = ApiErrorSchema.safeParse(body);
    if (parsed.success) {
      const { code, message, errors, retryAfterMs } = parsed.data.error;
      throw new ApiError({ code, message, status: response.status, fieldErrors: errors, retryAfterMs });
    }
    throw new ApiError({
      code: response.status >= 500 ? 'server_error' : 'invalid_response',
      message: deps.text('errors.requestFailed'),
      status: response.status,
    });
  }
  const parsed = route.response.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({
      code: 'invalid_response',
      message: deps.text('errors.requestFailed'),
      status: response.status,
    });
  }
  return parsed.data;
}

/** The app's language for a note (UI language). */
export const noteLanguage = (): Language => currentLanguage();
