import { HEALTH_TIMEOUT_MS, PROTOCOL_VERSION, routes, versionMismatch, type Health } from '@alma/protocol';
import { call } from '../lib/api.ts';
import { useConnection } from '../lib/realtime.ts';
import { useServerFacts } from '../lib/server-facts.ts';

const RECHECK_MS = 30_000;

/**
 * GET /health with the spec's 3 s time-out: at once, every 30 s, when the browser goes online and
 * when the socket drops. Its answer sets the health the header falls back on while the socket is
 * down, and the server facts (what it can transcribe) that features read. Returns the disposer.
 */
export function watchServerHealth(fetchHealth: (signal: AbortSignal) => Promise<Health> = defaultFetch) {
  let stopped = false;
  const controller = new AbortController();

  async function check() {
    try {
      const health = await fetchHealth(controller.signal);
      if (stopped) return;
      useServerFacts.getState().setHealth(health);
      useConnection.setState((s) => ({
        health: health.status === 'maintenance' ? 'offline' : health.status,
        protocolMismatch: s.protocolMismatch ?? versionMismatch(PROTOCOL_VERSION, health.protocolVersion),
      }));
    } catch {
      if (!stopped) useConnection.setState({ health: 'offline' });
    }
  }

  void check();
  const timer = setInterval(() => void check(), RECHECK_MS);
  const onOnline = () => void check();
  const onOffline = () => useConnection.setState({ health: 'offline' });
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  // A dropped socket may mean the server stopped: ask at once rather than at the next round.
  const unsubscribe = useConnection.subscribe((state, previous) => {
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
}

function defaultFetch(signal: AbortSignal): Promise<Health> {
  return call(routes.health.health, {}, { timeoutMs: HEALTH_TIMEOUT_MS, signal });
}
