import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface PopoverProps {
  /** The trigger's accessible name. */
  label: string;
  /** What the trigger shows. */
  trigger: ReactNode;
  triggerClassName?: string;
  /** The panel's accessible name (defaults to the label). */
  panelLabel?: string;
  align?: 'start' | 'end';
  className?: string;
  children: (close: () => void) => ReactNode;
}

/**
 * A button that opens a small non-modal panel (menus with a search field or a select inside,
 * which ARIA menus cannot hold). Escape or a click outside closes it and focus returns to the
 * button; Escape is consumed so screens that close on Escape (the chat overlay) stay open.
 */
export function Popover({
  label,
  trigger,
  triggerClassName = 'icon-button',
  panelLabel,
  align = 'end',
  className = '',
  children,
}: PopoverProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const buttonId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    const first = root.current?.querySelector<HTMLElement>(
      '[role="dialog"] input, [role="dialog"] button, [role="dialog"] select',
    );
    first?.focus();
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function close() {
    setOpen(false);
    document.getElementById(buttonId)?.focus();
  }

  return (
    <div
      ref={root}
      className={`popover ${className}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.preventDefault();
          event.stopPropagation();
          close();
        }
      }}
    >
      <button
        id={buttonId}
        type="button"
        className={triggerClassName}
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {trigger}
      </button>
      {open ? (
        <div
          id={panelId}
          className={`popover__panel popover__panel--${align}`}
          role="dialog"
          aria-label={panelLabel ?? label}
        >
          {children(close)}
        </div>
      ) : null}
    </div>
  );
}
