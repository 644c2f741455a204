import { describe, expect, it } from 'vitest';
import { useTestRedis } from '../../test-support/redis-suite.ts';
import { FLOW_TTL_MS, createFlowStore, createRedisFlowStore, s256, type FlowStore } from './oauth.state.ts';

describe('O-2 pending sign-ins', () => {
  const setup = (maxPending?: number) => {
    let now = Date.parse('2025-03-01T10:00:00Z');
    const flows = createFlowStore({ clock: () => new Date(now), maxPending });
    return { flows, advance: (ms: number) => (now += ms) };
  };

  it('O-2 the challenge is S256 of the verifier (RFC 7636 appendix B)', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    const { flows } = setup();
    const started = flows.begin('google', 'browser-a');
    expect(started.codeChallenge).toBe(s256(started.codeVerifier));
    expect(started.state).not.toBe(started.codeVerifier);
  });

  it('O-2 a state is taken once, by the browser and provider that started it', () => {
    const { flows } = setup();
    const { state, codeVerifier } = flows.begin('google', 'browser-a');
    expect(flows.take('google', state, 'browser-a')).toEqual({ ok: true, codeVerifier });
    expect(flows.take('google', state, 'browser-a')).toEqual({ ok: false, reason: 'unknown' });

    const other = flows.begin('google', 'browser-a');
    expect(flows.take('google', other.state, 'browser-b')).toEqual({ ok: false, reason: 'browser' });
    expect(flows.take('google', other.state, 'browser-a')).toEqual({ ok: false, reason: 'unknown' });

    const noCookie = flows.begin('google', 'browser-a');
    expect(flows.take('google', noCookie.state, undefined)).toEqual({ ok: false, reason: 'browser' });
    const wrongProvider = flows.begin('google', 'browser-a');
    expect(flows.take('github', wrongProvider.state, 'browser-a')).toEqual({ ok: false, reason: 'provider' });
  });

  it('O-2 a flow expires after 10 minutes, and expired flows are swept', () => {
    const { flows, advance } = setup();
    const late = flows.begin('github', 'b');
    const inTime = flows.begin('github', 'b');
    advance(FLOW_TTL_MS - 1);
    expect(flows.take('github', inTime.state, 'b').ok).toBe(true);
    advance(1);
    expect(flows.take('github', late.state, 'b')).toEqual({ ok: false, reason: 'expired' });
    flows.begin('github', 'b');
    advance(FLOW_TTL_MS);
    flows.begin('github', 'b');
    expect(flows.size).toBe(1);
  });

  it('O-2 at most maxPending flows are held; the oldest give way', () => {
    const { flows } = setup(3);
    const first = flows.begin('google', 'b');
    for (let i = 0; i < 3; i++) flows.begin('google', 'b');
    expect(flows.size).toBe(3);
    expect(flows.take('google', first.state, 'b')).toEqual({ ok: false, reason: 'unknown' });
  });
});

describe('M-3 pending sign-ins in Redis (REDIS_URL): the same rules, whichever instance takes the state', () => {
  const suite = useTestRedis();

  const setup = () => {
    let now = Date.parse('2025-03-01T10:00:00Z');
    const clock = () => new Date(now);
    // Two stores on one Redis stand for two instances.
    const a: FlowStore = createRedisFlowStore({ redis: suite.redis, clock });
    const b: FlowStore = createRedisFlowStore({ redis: suite.redis, clock });
    return { a, b, advance: (ms: number) => (now += ms) };
  };

  it('M-3 O-2 a state begun on one instance is taken once on another, by the browser and provider that started it', async () => {
    const { a, b } = setup();
    const { state, codeVerifier, codeChallenge } = await a.begin('google', 'browser-a');
    expect(codeChallenge).toBe(s256(codeVerifier));
    expect(await b.take('google', state, 'browser-a')).toEqual({ ok: true, codeVerifier });
    expect(await a.take('google', state, 'browser-a')).toEqual({ ok: false, reason: 'unknown' });

    const other = await a.begin('google', 'browser-a');
    expect(await b.take('google', other.state, 'browser-b')).toEqual({ ok: false, reason: 'browser' });
    expect(await b.take('google', other.state, 'browser-a')).toEqual({ ok: false, reason: 'unknown' });
    const noCookie = await a.begin('google', 'browser-a');
    expect(await b.take('google', noCookie.state, undefined)).toEqual({ ok: false, reason: 'browser' });
    const wrongProvider = await a.begin('google', 'browser-a');
    expect(await b.take('github', wrongProvider.state, 'browser-a')).toEqual({
      ok: false,
      reason: 'provider',
    });
  });

  it('M-3 O-2 a flow expires after 10 minutes; Redis drops the key itself', async () => {
    const { a, b, advance } = setup();
    const late = await a.begin('github', 'b');
    advance(FLOW_TTL_MS);
    expect(await b.take('github', late.state, 'b')).toEqual({ ok: false, reason: 'expired' });
    const kept = await a.begin('github', 'b');
    const ttl = await suite.redis.pttl(`alma:oauth:flow:${kept.state}`);
    expect(ttl).toBeGreaterThan(FLOW_TTL_MS);
    expect(ttl).toBeLessThanOrEqual(FLOW_TTL_MS + 60_000);
  });
});
