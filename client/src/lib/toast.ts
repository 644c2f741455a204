import { create } from 'zustand';
import { TOAST_DURATION_MS } from '@alma/protocol';

/**
 * Short notices that dismiss themselves after TOAST_DURATION_MS (spec §2 "Toasts auto-dismiss after
 * 3.5 s by default"). Any screen may raise one; the Toaster component shows them.
 */
export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

interface ToastState {
  toasts: Toast[];
  show: (text: string, kind?: ToastKind, durationMs?: number) => number;
  dismiss: (id: number) => void;
}

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],
  show: (text, kind = 'info', durationMs = TOAST_DURATION_MS) => {
    const id = nextId++;
    set((s) => ({ toasts: [...s.toasts, { id, kind, text }] }));
    timers.set(
      id,
      setTimeout(() => get().dismiss(id), durationMs),
    );
    return id;
  },
  dismiss: (id) => {
    const timer = timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(id);
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** Raises a toast from outside React (stores, event handlers). */
export function toast(text: string, kind: ToastKind = 'info'): number {
  return useToasts.getState().show(text, kind);
}
