import { useEffect } from 'react';
import { HEALTH_TIMEOUT_MS, PROTOCOL_VERSION, routes } from '@alma/protocol';
import { call } from '../../../lib/api.ts';
import { useChat } from '../store.ts';

const RECHECK_MS = 30_000;

/**
 * GET /health with the spec's 3 s time-out: on mount, every 30 s, when the browser goes online and
 * when the socket drops.
 */
export function useServerHealth() {
  useEffect(() => {
    let stopped = false;
    const controller = new AbortController();

    async function check() {
      try {
        const health = await call(
          routes.health.health,
          {},
          { timeoutMs: HEALTH_TIMEOUT_MS, signal: controller.signal },
        );
        if (stopped) return;
        const state = useChat.getState();
        if (health.protocolVersion !== PROTOCOL_VERSION) state.setProtocolMismatch();
        state.setHealth(health.status === 'maintenance' ? 'offline' : 'online');
      } catch {
        if (!stopped) useChat.getState().setHealth('offline');
      }
    }

    void check();
    const timer = setInterval(() => void check(), RECHECK_MS);
    const onOnline = () => void check();
    const onOffline = () => useChat.getState().setHealth('offline');
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    // A dropped socket may mean the server stopped: ask at once rather than at the next round.
    const unsubscribe = useChat.subscribe((state, previous) => {
      if (previous.socketState === 'connected' && state.socketState !== 'connected') void check();
    });
    return () => {
      unsubscribe();
      stopped = true;
      controller.abort();
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    };
  }, []);
}
