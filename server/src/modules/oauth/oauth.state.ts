import type { OAuthProvider } from '@alma/protocol';
import type { Redis } from 'ioredis';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../lib/ids.ts';

/** How long a started sign-in may take at the provider (SPEC.md O-2). */
export const FLOW_TTL_MS = 10 * 60_000;
/** Bounds the memory an anonymous caller can make us hold; the oldest flows give way first. */
const MAX_PENDING_FLOWS = 10_000;

/** 32 random bytes, base64url: 43 characters (also a valid RFC 7636 code_verifier). */
export const randomToken = (): string => randomBytes(32).toString('base64url');
export const isRandomToken = (value: string): boolean => /^[\w-]{43}$/.test(value);
/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

export interface StartedFlow {
  state: string;
  codeChallenge: string;
}

export type TakenFlow =
  { ok: true; codeVerifier: string } | { ok: false; reason: 'unknown' | 'expired' | 'provider' | 'browser' };

interface PendingFlow {
  provider: OAuthProvider;
  codeVerifier: string;
  /** sha256 of the browser binding (the httpOnly cookie) that started the flow. */
  bindingHash: Buffer;
  expiresAt: number;
}

/**
 * Where sign-ins in progress wait for their callback: this process's memory, or Redis so that a
 * callback reaching another instance finds the flow (SPEC.md M-3). Either may answer at once or
 * later; callers await.
 */
export interface FlowStore {
  begin(
    provider: OAuthProvider,
    binding: string,
  ): (StartedFlow & { codeVerifier: string }) | Promise<StartedFlow & { codeVerifier: string }>;
  take(provider: OAuthProvider, state: string, binding: string | undefined): TakenFlow | Promise<TakenFlow>;
}

const hashBinding = (binding: string) => createHash('sha256').update(binding).digest();

/** A new flow: the state that names it and the PKCE pair. */
function newFlow(provider: OAuthProvider, binding: string, expiresAt: number) {
  const state = randomToken();
  const codeVerifier = randomToken();
  const flow: PendingFlow = { provider, codeVerifier, bindingHash: hashBinding(binding), expiresAt };
  return { state, flow, started: { state, codeVerifier, codeChallenge: s256(codeVerifier) } };
}

/** The verdict on a flow just taken (and so already spent), the same for every store. */
function judge(
  flow: PendingFlow,
  provider: OAuthProvider,
  binding: string | undefined,
  now: number,
): TakenFlow {
  if (flow.expiresAt <= now) return { ok: false, reason: 'expired' };
  if (flow.provider !== provider) return { ok: false, reason: 'provider' };
  if (binding === undefined || !timingSafeEqual(hashBinding(binding), flow.bindingHash)) {
    return { ok: false, reason: 'browser' };
  }
  return { ok: true, codeVerifier: flow.codeVerifier };
}

/**
 * Sign-ins in progress, held in memory between the redirect to the provider and its callback
 * (SPEC.md O-2). `state` keys the entry and is single use; the PKCE code_verifier never leaves
 * the server. Each flow is also bound to the browser that started it through a random value in
 * an httpOnly cookie, so a callback URL carried to another browser (login CSRF) is refused.
 *
 * In memory because the server is one process (socket.io and the reply engine are too); a
 * restart only makes sign-ins in flight start again.
 */
export function createFlowStore(deps: { clock: Clock; ttlMs?: number; maxPending?: number }) {
  const ttlMs = deps.ttlMs ?? FLOW_TTL_MS;
  const maxPending = deps.maxPending ?? MAX_PENDING_FLOWS;
  // Insertion order is expiry order (one TTL for all), so sweeping stops at the first live flow.
  const flows = new Map<string, PendingFlow>();

  function sweep(now: number): void {
    for (const [state, flow] of flows) {
      if (flow.expiresAt > now) break;
      flows.delete(state);
    }
  }

  return {
    /** Starts a flow for this browser; the caller sends `state` and `codeChallenge` to the provider. */
    begin(provider: OAuthProvider, binding: string): StartedFlow & { codeVerifier: string } {
      const now = deps.clock().getTime();
      sweep(now);
      while (flows.size >= maxPending) {
        const oldest = flows.keys().next();
        if (oldest.done) break;
        flows.delete(oldest.value);
      }
      const { state, flow, started } = newFlow(provider, binding, now + ttlMs);
      flows.set(state, flow);
      return started;
    },

    /** Ends the flow named by `state`: removed on the first call whatever the outcome. */
    take(provider: OAuthProvider, state: string, binding: string | undefined): TakenFlow {
      const flow = flows.get(state);
      if (!flow) return { ok: false, reason: 'unknown' };
      flows.delete(state);
      return judge(flow, provider, binding, deps.clock().getTime());
    },

    get size(): number {
      return flows.size;
    },
  };
}

/**
 * The same flows in Redis (REDIS_URL), one key per state that Redis expires on its own, taken with
 * GETDEL so a state is spent once whichever instance the callback reaches (SPEC.md M-3). Redis
 * keeps each a minute past its expiry so a late callback is told `expired`, not `unknown`.
 */
export function createRedisFlowStore(deps: { redis: Redis; clock: Clock; ttlMs?: number }): FlowStore {
  const ttlMs = deps.ttlMs ?? FLOW_TTL_MS;
  const key = (state: string) => `alma:oauth:flow:${state}`;
  return {
    async begin(provider, binding) {
      const { state, flow, started } = newFlow(provider, binding, deps.clock().getTime() + ttlMs);
      const stored = { ...flow, bindingHash: flow.bindingHash.toString('base64url') };
      await deps.redis.set(key(state), JSON.stringify(stored), 'PX', ttlMs + 60_000);
      return started;
    },
    async take(provider, state, binding) {
      const raw = await deps.redis.getdel(key(state));
      if (raw === null) return { ok: false, reason: 'unknown' };
      const stored = JSON.parse(raw) as Omit<PendingFlow, 'bindingHash'> & { bindingHash: string };
      const flow = { ...stored, bindingHash: Buffer.from(stored.bindingHash, 'base64url') };
      return judge(flow, provider, binding, deps.clock().getTime());
    },
  };
}
