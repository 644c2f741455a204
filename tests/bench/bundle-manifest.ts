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

/** Bytes as the figures print them: `117.5 KB`. */
export const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

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
 * also load the guards' layout), with the parts of the texts each awaits (`texts:<part>`,
 * client/locale-parts.ts). The entry (`index.html`) and the shell's texts load on every screen.
 */
const ALL_TEXTS = ['texts:landing', 'texts:auth', 'texts:rest'];
export const ROUTE_MODULES: Record<string, string[]> = {
  '/': ['src/features/landing/LandingPage.tsx', 'texts:landing'],
  '/login': ['src/features/auth/LoginPage.tsx', 'texts:auth'],
  '/register': ['src/features/auth/RegisterPage.tsx', 'texts:auth'],
  '/forgot-password': ['src/features/auth/ForgotPasswordPage.tsx', 'texts:auth'],
  '/reset-password/:token': ['src/features/auth/ResetPasswordPage.tsx', 'texts:auth'],
  '/onboarding': ['src/app/guards.tsx', 'src/app/onboarding-route.tsx', ...ALL_TEXTS],
  '/chat': ['src/app/guards.tsx', 'src/app/chat-route.tsx', ...ALL_TEXTS],
  '/dashboard': ['src/app/guards.tsx', 'src/features/dashboard/DashboardPage.tsx', ...ALL_TEXTS],
};

/**
 * The manifest key of one part of the Spanish texts (the default language, and the larger of the
 * two). Builds from before the texts were split have one `es.json` chunk (counted as the shell)
 * or none (the texts were in the entry).
 */
function textsKey(manifest: Manifest, part: string): string | undefined {
  const keys = Object.keys(manifest);
  const split = keys.find((k) => k.endsWith(`locales/es.json#${part}`));
  if (split) return split;
  if (keys.some((k) => k.includes('locales/es.json#'))) {
    throw new Error(`no "${part}" part of the texts in the build manifest: update ROUTE_MODULES`);
  }
  return part === 'shell' ? keys.find((k) => k.endsWith('locales/es.json')) : undefined;
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
  for (const key of ['index.html', 'texts:shell', ...modules]) {
    if (!key.startsWith('texts:')) visit(key);
    else {
      const texts = textsKey(manifest, key.slice('texts:'.length));
      if (texts) visit(texts);
    }
  }
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

/** One screen's weight: the files it needs before it renders and their gzip -9 bytes together. */
export interface ScreenWeight {
  route: string;
  files: string[];
  gzip: number;
}

/** What a build weighs per screen (every route of ROUTE_MODULES), and its 3D chunk if named. */
export interface BuildWeights {
  screens: ScreenWeight[];
  three?: { file: string; gzip: number; loadedBy: string[] };
}

/** The budgets' figures for the build in `dist`, each file compressed once. */
export function measureBuild(dist: string): BuildWeights {
  const manifest = readManifest(dist);
  const sizes = new Map<string, number>();
  const gz = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) {
      size = gzipSize(dist, file);
      sizes.set(file, size);
    }
    return size;
  };
  const screens = Object.entries(ROUTE_MODULES).map(([route, modules]) => {
    const files = filesOf(manifest, modules);
    return { route, files, gzip: files.reduce((sum, file) => sum + gz(file), 0) };
  });
  const file = namedChunk(manifest, 'three');
  if (!file) return { screens };
  const loadedBy = screens.filter((s) => s.files.includes(file)).map((s) => s.route);
  return { screens, three: { file, gzip: gz(file), loadedBy } };
}
