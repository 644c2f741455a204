import type { ReactNode } from 'react';
import { LanguageToggle } from './LanguageToggle.tsx';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

/** The top bar of the non-chat screens: the logo, then language and theme and any extra actions. */
export function TopBar({ children }: { children?: ReactNode }) {
  return (
    <header className="topbar">
      <Logo />
      <div className="topbar__actions">
        <LanguageToggle />
        <ThemeToggle />
        {children}
      </div>
    </header>
  );
}
