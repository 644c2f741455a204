import type { KeyboardEvent } from 'react';

/** What a modal's Tab cycle visits. */
export const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The keyboard rules every modal shares: Escape closes it (and goes no further, so an
 * enclosing overlay stays open), Tab and Shift+Tab cycle inside the panel.
 */
export function handleModalKeyDown(
  event: KeyboardEvent,
  panel: HTMLElement | null,
  onClose: () => void,
): void {
  if (event.key === 'Escape') {
    event.stopPropagation();
    onClose();
    return;
  }
  if (event.key !== 'Tab' || !panel) return;
  const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
