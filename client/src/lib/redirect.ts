import type { Location } from 'react-router-dom';

/**
 * Guards send an unauthenticated visitor to /login with `state.from` = where they were going;
 * after signing in they go back there (spec §2), else to the fallback.
 */
export interface RedirectState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

const AUTH_PAGES = new Set(['/login', '/register', '/auth/callback']);

export function redirectTarget(state: unknown, fallback = '/chat'): string {
  const from = (state as RedirectState | null)?.from;
  if (!from || typeof from.pathname !== 'string' || AUTH_PAGES.has(from.pathname)) return fallback;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
