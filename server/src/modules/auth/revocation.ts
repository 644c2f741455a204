import type { SessionEndCode } from '@alma/protocol';
import type { Clock } from '../../lib/ids.ts';
import type { RefreshTokenRepository, UserRepository } from '../../storage/types.ts';

/** What an access token says about its session; the claims revocation checks (SPEC.md A-12). */
export interface SessionClaims {
  sub: string;
  /** The refresh-token family: one sign-in on one device (all tabs of a browser share it). */
  sid: string;
  /** The user's token version when the token was signed. */
  tv: number;
}

export interface RevocationEvent {
  userId: string;
  code: SessionEndCode;
  /** Only this sign-in ended; without it, every session of the user did. */
  familyId?: string;
  /** With a user-wide revocation: the sign-in that stays (the caller of a password change). */
  exceptFamilyId?: string;
}

/**
 * Whether access tokens still stand (SPEC.md A-12), checked on every authenticated request and
 * socket handshake. A user-wide revocation bumps the user's token version; a one-device one
 * revokes a refresh-token family. Each also revokes the refresh tokens and tells listeners, so
 * open sockets of the ended sessions are disconnected.
 *
 * An interface because the in-memory implementation below is exact for one process only; the
 * multi-instance one (Redis) will push revocations to every instance instead of re-reading.
 */
export interface AccessRevocation {
  /** Why the token's session ended (the last known reason), or null while it stands. */
  ended(claims: SessionClaims): Promise<SessionEndCode | null>;
  /** The version to sign new tokens with; null when there is no such user. */
  tokenVersion(userId: string): Promise<number | null>;
  /** Every session of the user ends, except `exceptFamilyId`'s open sockets (the caller's device). */
  revokeUser(userId: string, code: SessionEndCode, options?: { exceptFamilyId?: string }): Promise<void>;
  /** One sign-in (a refresh-token family) ends. */
  revokeFamily(userId: string, familyId: string, code: SessionEndCode): Promise<void>;
  onRevoked(listener: (event: RevocationEvent) => void): () => void;
}

export interface MemoryRevocationOptions {
  users: Pick<UserRepository, 'tokenVersion' | 'bumpTokenVersion'>;
  refreshTokens: Pick<RefreshTokenRepository, 'revokeAllForUser' | 'revokeFamily' | 'familyActive'>;
  clock: Clock;
  /**
   * How long a version or family state read from the database is trusted. Revocations made in
   * this process apply at once; this only bounds how late one made by another process sharing
   * the database is seen.
   */
  recheckMs?: number;
  /** Entries kept per map; the least recently loaded go first. */
  maxEntries?: number;
}

interface Cached<T> {
  value: T;
  checkedAt: number;
  /** Why the last revocation made here happened; unknown when read from the database. */
  reason?: SessionEndCode;
}

/**
 * Token versions and family states cached in memory: no database read per request. Updates are
 * monotonic — versions only grow and a family never comes back once it has no live token (a
 * password change starts a new family) — so a slow read finishing after a revocation can never
 * put the older state back.
 */
export function createMemoryRevocation(options: MemoryRevocationOptions): AccessRevocation {
  const { users, refreshTokens, clock } = options;
  const recheckMs = options.recheckMs ?? 5000;
  const maxEntries = options.maxEntries ?? 100_000;
  /** userId → token version (null: no such user). */
  const versions = new Map<string, Cached<number | null>>();
  /** familyId → whether it still has a live refresh token. */
  const families = new Map<string, Cached<boolean>>();
  const listeners = new Set<(event: RevocationEvent) => void>();

  function remember<T>(map: Map<string, Cached<T>>, key: string, value: T, reason?: SessionEndCode): void {
    const kept = reason ?? map.get(key)?.reason;
    map.delete(key);
    map.set(key, { value, checkedAt: clock().getTime(), ...(kept ? { reason: kept } : {}) });
    if (map.size > maxEntries) {
      const oldest = map.keys().next();
      if (!oldest.done) map.delete(oldest.value);
    }
  }
  const fresh = (entry: Cached<unknown> | undefined): boolean =>
    entry !== undefined && clock().getTime() - entry.checkedAt < recheckMs;

  async function versionOf(userId: string): Promise<number | null> {
    const hit = versions.get(userId);
    if (hit && fresh(hit)) return hit.value;
    const loaded = await users.tokenVersion(userId);
    const known = versions.get(userId)?.value ?? null;
    const value = loaded === null ? null : Math.max(loaded, known ?? 0);
    remember(versions, userId, value);
    return value;
  }

  async function familyActive(familyId: string): Promise<boolean> {
    const hit = families.get(familyId);
    if (hit && (hit.value === false || fresh(hit))) return hit.value;
    const loaded = await refreshTokens.familyActive(familyId);
    const value = loaded && families.get(familyId)?.value !== false;
    remember(families, familyId, value);
    return value;
  }

  const notify = (event: RevocationEvent) => {
    for (const listener of listeners) listener(event);
  };

  return {
    async ended(claims) {
      const byUser = () => versions.get(claims.sub)?.reason ?? 'session_revoked';
      const version = await versionOf(claims.sub);
      if (version === null) return 'session_revoked';
      if (claims.tv < version) return byUser();
      // A newer version than ours was bumped by another process: read it again now.
      if (claims.tv > version) {
        versions.delete(claims.sub);
        if ((await versionOf(claims.sub)) !== claims.tv) return byUser();
      }
      if (await familyActive(claims.sid)) return null;
      return families.get(claims.sid)?.reason ?? 'session_revoked';
    },

    tokenVersion: versionOf,

    async revokeUser(userId, code, revokeOptions = {}) {
      await refreshTokens.revokeAllForUser(userId, clock().toISOString());
      const version = await users.bumpTokenVersion(userId);
      if (version === null) return;
      remember(versions, userId, Math.max(version, versions.get(userId)?.value ?? 0), code);
      notify({
        userId,
        code,
        ...(revokeOptions.exceptFamilyId ? { exceptFamilyId: revokeOptions.exceptFamilyId } : {}),
      });
    },

    async revokeFamily(userId, familyId, code) {
      await refreshTokens.revokeFamily(familyId, clock().toISOString());
      remember(families, familyId, false, code);
      notify({ userId, code, familyId });
    },

    onRevoked(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
