import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { CHAT_OVERLAY_BREAKPOINT_PX } from '@alma/protocol';
import { dragOffset, sheetAfterDrag, type SheetSize } from '../logic.ts';

const NARROW_QUERY = `(max-width: ${CHAT_OVERLAY_BREAKPOINT_PX}px)`;

function isNarrow(): boolean {
  return typeof matchMedia === 'function' && matchMedia(NARROW_QUERY).matches;
}

/**
 * Up to 1023 px the chat is an overlay over the avatar (spec §2): a sheet that rests at half
 * height, so the avatar's face stays in view above it, or full height (SPEC.md ST-4). Dragging its
 * handle moves it between them; from half, more than 120 px down or Escape closes it; the control
 * bar's "open chat" brings it back (at half).
 * Pointer events cover mouse, pen and touch alike (the handle sets `touch-action: none`).
 */
export function useChatOverlay() {
  const [narrow, setNarrow] = useState(isNarrow);
  const [open, setOpenState] = useState(true);
  const [size, setSize] = useState<SheetSize>('half');
  const [offset, setOffset] = useState(0);
  const drag = useRef<{ pointerId: number; startY: number } | null>(null);

  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia(NARROW_QUERY);
    const onChange = () => setNarrow(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const setOpen = (next: boolean) => {
    setOpenState(next);
    if (!next) setSize('half');
  };

  useEffect(() => {
    if (!narrow || !open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      // Dialogs, menus and the drawer consume their own Escape first.
      if (event.key === 'Escape' && !event.defaultPrevented) {
        setOpenState(false);
        setSize('half');
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [narrow, open]);

  const handle = {
    onPointerDown: (event: ReactPointerEvent<HTMLElement>) => {
      if (!narrow) return;
      drag.current = { pointerId: event.pointerId, startY: event.clientY };
      event.currentTarget.setPointerCapture(event.pointerId);
    },
    onPointerMove: (event: ReactPointerEvent<HTMLElement>) => {
      const d = drag.current;
      if (d?.pointerId !== event.pointerId) return;
      setOffset(dragOffset(d.startY, event.clientY));
    },
    onPointerUp: (event: ReactPointerEvent<HTMLElement>) => {
      const d = drag.current;
      if (d?.pointerId !== event.pointerId) return;
      drag.current = null;
      setOffset(0);
      const rest = sheetAfterDrag(size, d.startY, event.clientY);
      if (rest === 'closed') setOpen(false);
      else setSize(rest);
    },
    onPointerCancel: () => {
      drag.current = null;
      setOffset(0);
    },
  };

  return {
    narrow,
    /** Whether the chat shows: always on wide screens. */
    visible: !narrow || open,
    open,
    setOpen,
    /** The sheet's resting height (narrow screens). */
    size,
    toggleSize: () => setSize((s) => (s === 'half' ? 'full' : 'half')),
    /** How far the overlay follows the current drag, in px. */
    offset,
    dragging: offset > 0,
    handle,
  };
}
