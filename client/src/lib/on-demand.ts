import { useEffect, useState } from 'react';

/**
 * A module fetched on first use and shared by every caller: `get()` in handlers (resolves at
 * once once it is here), `use()` in components (null until it is here, then a re-render). For
 * what a first screen needs only after the user acts — the API client and the protocol's zod
 * schemas on the sign-in pages (issue 12, "a lean first screen").
 */
export interface OnDemand<M> {
  get: () => Promise<M>;
  use: () => M | null;
  /** Starts fetching now, without waiting (a screen asks as soon as it shows). */
  prefetch: () => void;
}

export function onDemand<M>(load: () => Promise<M>): OnDemand<M> {
  let module: M | null = null;
  let pending: Promise<M> | null = null;
  const get = () =>
    (pending ??= load().then(
      (loaded) => (module = loaded),
      (error: unknown) => {
        // Offline for a moment: the next call tries again.
        pending = null;
        throw error;
      },
    ));
  const prefetch = () => void get().catch(() => undefined);
  function use(): M | null {
    const [loaded, setLoaded] = useState(module);
    useEffect(() => {
      if (loaded) return;
      let live = true;
      get().then(
        (m) => live && setLoaded(() => m),
        () => undefined,
      );
      return () => {
        live = false;
      };
    }, [loaded]);
    return loaded;
  }
  return { get, use, prefetch };
}
