import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientEvent, PROTOCOL_VERSION, ServerEvent } from '@alma/protocol';
import {
  connectionStatus,
  initialConnection,
  onServerEvent,
  publishServerEvent,
  request,
  useConnection,
  type ServerInfo,
} from './realtime.ts';

const status = (s: Partial<ServerInfo> = {}): ServerInfo => ({
  status: 'online',
  version: '1.0.0',
  protocolVersion: PROTOCOL_VERSION,
  engines: { reply: 'builtin', speech: 'builtin', transcription: 'pocketsphinx' },
  ...s,
});

afterEach(() => useConnection.setState(initialConnection));

describe('connectionStatus (spec §4: checking is shown as Connecting)', () => {
  it('is checking until the health check or the socket answers', () => {
    expect(connectionStatus({ ...initialConnection, socketState: 'connecting' })).toBe('checking');
  });
  it('is online once the socket is connected', () => {
    expect(connectionStatus({ ...initialConnection, socketState: 'connected' })).toBe('online');
  });
  it('is offline when the health check fails and no socket is up', () => {
    expect(connectionStatus({ ...initialConnection, health: 'offline', socketState: 'disconnected' })).toBe(
      'offline',
    );
  });
  it('says degraded (H-2) when the socket or the health check reports a dependency down', () => {
    const connected = { ...initialConnection, socketState: 'connected' as const };
    expect(connectionStatus({ ...connected, serverInfo: status({ status: 'degraded' }) })).toBe('degraded');
    expect(connectionStatus({ ...initialConnection, health: 'degraded', socketState: 'disconnected' })).toBe(
      'degraded',
    );
  });
  it('stays online over REST when the server is healthy but the socket gave up', () => {
    expect(connectionStatus({ ...initialConnection, health: 'online', socketState: 'disconnected' })).toBe(
      'online',
    );
  });
});

describe('the realtime bus', () => {
  it('delivers an event to its subscribers until they leave; one failing listener stops no other', () => {
    const heard: string[] = [];
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const offA = onServerEvent(ServerEvent.uploadProgress, () => {
      throw new Error('boom');
    });
    const offB = onServerEvent(ServerEvent.uploadProgress, (e) => heard.push(e.id));
    const event = { kind: 'avatar', id: 'a1', status: 'processing', progress: 40, step: 'validate' } as const;
    publishServerEvent(ServerEvent.uploadProgress, event);
    offB();
    publishServerEvent(ServerEvent.uploadProgress, { ...event, id: 'a2' });
    offA();
    expect(heard).toEqual(['a1']);
    expect(logged).toHaveBeenCalledTimes(2);
    logged.mockRestore();
  });

  it('server:status pushed while connected moves the header’s status live (issue 11)', () => {
    useConnection.setState({ health: 'online', socketState: 'connected' });
    publishServerEvent(ServerEvent.serverStatus, status({ status: 'maintenance' }));
    expect(connectionStatus(useConnection.getState())).toBe('offline');
    publishServerEvent(ServerEvent.serverStatus, status({ status: 'online' }));
    expect(connectionStatus(useConnection.getState())).toBe('online');
    expect(useConnection.getState().protocolMismatch).toBeNull();
    publishServerEvent(ServerEvent.serverStatus, status({ protocolVersion: PROTOCOL_VERSION + 1 }));
    // P-1: a server newer than this page: the page is the old side.
    expect(useConnection.getState().protocolMismatch).toBe('client_too_old');
  });

  it('a request without a connected socket answers `unavailable` at once, like a missing ack', async () => {
    const ack = await request(ClientEvent.sessionWatch, { sessionId: 's1' });
    expect(ack).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });
});
