import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The budgets of issue 12 ("a lean first screen"), in gzip -9 bytes of what a screen needs before
 * it renders: the first screens ≤ 120 KB of JS + CSS; the 3D chunk ≤ 300 KB, loaded only by the
 * screens that show a 3D view. tests/bench/bundle-size.ts prints the figures,
 * tests/e2e/first-screen-budget.spec.ts holds the build to them.
 */
export const KB = 1024;
export const BUDGET_FIRST = 120 * KB;
export const BUDGET_3D = 300 * KB;
export const FIRST_SCREENS = ['/', '/login', '/register', '/forgot-password', '/reset-password/:token'];
export const SHOWS_3D = ['/onboarding', '/chat'];

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
 * The first screens' texts in the interface language, loaded before the first render
 * (client/src/app/main.tsx; client/locale-parts.ts makes the part): Spanish, the default and the
 * larger of the two. Its manifest key names the language file and the part.
 */
function firstLocaleKey(manifest: Manifest): string {
  const keys = Object.keys(manifest);
  const key =
    keys.find((k) => /locales[\\/]es\.json#first$/.test(k)) ??
    keys.find((k) => /locales[\\/]es\.json$/.test(k)); // before the texts were split in two
  if (!key) throw new Error('the Spanish texts are not in the build manifest: update firstLocaleKey');
  return key;
}

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
  const locale = firstLocaleKey(manifest);
  for (const key of ['index.html', locale, ...modules]) visit(key);
  return [...files];
}

/** The chunk named `name` (codeSplitting group in client/vite.config.ts). */
export function namedChunk(manifest: Manifest, name: string): string | undefined {
  return Object.values(manifest).find((c) => c.name === name)?.file;
}

/** gzip -9 bytes of one built file (the budgets' measure). */
export function gzipSize(dist: string, file: string): number {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
}
