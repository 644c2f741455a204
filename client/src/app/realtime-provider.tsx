import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { ServerEvent } from '@alma/protocol';
import { onServerEvent } from '../lib/realtime.ts';
import { useServerFacts } from '../lib/server-facts.ts';
import { useSession } from '../lib/session.ts';
import { useUsage } from '../lib/usage.ts';
import { connectRealtime, defaultRealtimeDeps } from './realtime-connection.ts';
import { watchServerHealth } from './server-health.ts';

/**
 * The signed-in screens' layout (onboarding, chat, dashboard): one socket for all of them, opened
 * here and kept while the user moves between them, and the server health check. Features
 * subscribe to the events they need through lib/realtime.ts; what belongs to no feature (the
 * month's usage, the server's engines) is fed here.
 */
export function RealtimeProvider() {
  useEffect(() => {
    const disconnect = connectRealtime(defaultRealtimeDeps(() => useSession.getState().token));
    const stopHealth = watchServerHealth();
    const offUsage = onServerEvent(ServerEvent.usageUpdated, (update) =>
      useUsage.getState().applyLive(update),
    );
    const offStatus = onServerEvent(ServerEvent.serverStatus, (status) =>
      useServerFacts.getState().setHealth(status),
    );
    return () => {
      offStatus();
      offUsage();
      stopHealth();
      disconnect();
    };
  }, []);
  return <Outlet />;
}
