import { isRealtimeConnected } from '../../../lib/realtime.ts';
import { createRestTransport } from './rest.ts';
import { socketTransport } from './socket.ts';
import type { ChatTransport } from './types.ts';

const restTransport = createRestTransport();
let pinned: ChatTransport | null = null;

/** The socket while it is connected, else the REST fallback (SPEC.md V-1, ARCHITECTURE §2). */
export function pickTransport(): ChatTransport {
  return pinned ?? (isRealtimeConnected() ? socketTransport : restTransport);
}

/** Pins one transport (null: choose again each time). Tests pin a double of the network boundary. */
export function pinTransport(transport: ChatTransport | null): void {
  pinned = transport;
}
