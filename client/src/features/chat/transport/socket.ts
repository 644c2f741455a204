import { ClientEvent } from '@alma/protocol';
import { request } from '../../../lib/realtime.ts';
import type { ChatTransport } from './types.ts';

/** Decoding and transcribing take longer than a text send (SPEC.md V-2, V-3). */
const VOICE_ACK_TIMEOUT_MS = 90_000;

/** The app's socket (lib/realtime.ts): acks now, the reply as events on the realtime bus. */
export const socketTransport: ChatTransport = {
  kind: 'socket',
  send: (payload) => request(ClientEvent.chatSend, payload),
  voice: async ({ audio, ...rest }) =>
    request(ClientEvent.chatVoice, { ...rest, audio: await audio.arrayBuffer() }, VOICE_ACK_TIMEOUT_MS),
  cancel: async (payload) => void (await request(ClientEvent.chatCancel, payload)),
  watch: (sessionId) => void request(ClientEvent.sessionWatch, { sessionId }),
};
