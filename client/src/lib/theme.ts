import { create } from 'zustand';
import { DEFAULT_THEME, THEMES, type Theme } from '@alma/protocol';
import { readString, StorageKey, writeString } from './storage.ts';

/** Themes of spec §1: dark (default), light, and auto (offered only in dashboard preferences). */
export type ResolvedTheme = Exclude<Theme, 'auto'>;

function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

function prefersLight(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: light)').matches;
}

export function resolveTheme(theme: Theme): ResolvedTheme {
  if (theme === 'auto') return prefersLight() ? 'light' : 'dark';
  return theme;
}

function apply(theme: Theme): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.theme = resolveTheme(theme);
}

interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  /** Dark ↔ light; from auto it flips whatever auto currently shows. */
  toggle: () => void;
}

const stored = readString(StorageKey.theme);

export const useTheme = create<ThemeState>()((set, get) => ({
  theme: isTheme(stored) ? stored : DEFAULT_THEME,
  setTheme: (theme) => {
    writeString(StorageKey.theme, theme);
    apply(theme);
    set({ theme });
  },
  toggle: () => get().setTheme(resolveTheme(get().theme) === 'dark' ? 'light' : 'dark'),
}));

/** Applies the stored theme and follows the system while on auto. */
export function initTheme(): void {
  apply(useTheme.getState().theme);
  if (typeof matchMedia === 'function') {
    matchMedia('(prefers-color-scheme: light)').addEventListener('change', () => {
      if (useTheme.getState().theme === 'auto') apply('auto');
    });
  }
}
