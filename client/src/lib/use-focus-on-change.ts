import { useEffect, useRef } from 'react';

/**
 * A ref whose element gets the focus each time `key` changes, but not on first paint: moving
 * focus to a new step's heading makes screen readers announce it.
 */
export function useFocusOnChange<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    ref.current?.focus();
  }, [key]);
  return ref;
}
