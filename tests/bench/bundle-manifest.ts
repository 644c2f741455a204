import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One entry of Vite's build manifest (client/dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/**
 * The screens of client/src/app/routes.tsx and the modules each loads lazily (signed-in screens
 * also load the guards' layout). The entry (`index.html`) is loaded by every screen.
 */
export const ROUTE_MODULES: Record<string, string[]> = {
  '/': ['src/features/landing/LandingPage.tsx'],
  '/login': ['src/features/auth/LoginPage.tsx'],
  '/register': ['src/features/auth/RegisterPage.tsx'],
  '/forgot-password': ['src/features/auth/ForgotPasswordPage.tsx'],
  '/reset-password/:token': ['src/features/auth/ResetPasswordPage.tsx'],
  '/onboarding': ['src/app/guards.tsx', 'src/app/onboarding-route.tsx'],
  '/chat': ['src/app/guards.tsx', 'src/app/chat-route.tsx'],
  '/dashboard': ['src/app/guards.tsx', 'src/features/dashboard/DashboardPage.tsx'],
};

/**
 * The interface language's texts, loaded before the first render (client/src/app/main.tsx): one
 * language, Spanish (the default, and the larger of the two).
 */
const FIRST_LOCALE = 'src/locales/es.json';

/**
 * Every JS and CSS file a screen needs before it renders: the entry, the language's texts and the
 * route's modules with their static imports, recursively (what the browser fetches; other
 * dynamic imports load later).
 */
export function filesOf(manifest: Manifest, modules: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest: update ROUTE_MODULES`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const locale = manifest[FIRST_LOCALE] ? [FIRST_LOCALE] : [];
  for (const key of ['index.html', ...locale, ...modules]) visit(key);
  return [...files];
}

/** The chunk named `name` (codeSplitting group in client/vite.config.ts). */
export function namedChunk(manifest: Manifest, name: string): string | undefined {
  return Object.values(manifest).find((c) => c.name === name)?.file;
}
