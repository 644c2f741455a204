import type { ReactNode } from 'react';
import { SkipLink } from './SkipLink.tsx';
import { TopBar } from './TopBar.tsx';

/**
 * The frame of the simple screens (sign-in, onboarding, legal): a page wrapper with an optional
 * skip link and the top bar; the children bring their own <main> and footer.
 */
export function PageShell({
  className,
  skipLink = false,
  children,
}: {
  className: string;
  skipLink?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      {skipLink ? <SkipLink /> : null}
      <TopBar />
      {children}
    </div>
  );
}
