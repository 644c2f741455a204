import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * The sections of `src/locales/{es,en}.json` the first screens show (landing, sign-in, sign-up,
 * password recovery, and what every screen's shell says). The rest arrives with the first
 * signed-in or legal screen, or in the background after the first render (src/lib/i18n.ts).
 * `src/lib/i18n-parts.test.tsx` renders each first screen with only these and fails on a key
 * outside them.
 */
export const FIRST_SCREEN_SECTIONS: readonly string[] = ['app', 'common', 'nav', 'landing', 'auth', 'errors'];

const PART = /^(.*[\\/]locales[\\/][a-z]{2}\.json)\?(?:.*&)?part=(first|rest)(?:&.*)?$/;
const VIRTUAL = '\0alma-locale-part:';

/**
 * `locales/<lang>.json?part=first` and `?part=rest`: one language file (kept whole, as the
 * translators and the key types see it) served as two modules, hence two chunks.
 */
export function localeParts(): Plugin {
  return {
    name: 'alma:locale-parts',
    enforce: 'pre',
    async resolveId(source, importer) {
      const match = PART.exec(source);
      if (!match?.[1]) return null;
      const file = await this.resolve(match[1], importer, { skipSelf: true });
      // The id must not end in `.json`, or Vite's JSON handling would take the module over.
      return file ? `${VIRTUAL}${file.id}#${match[2]}` : null;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL)) return null;
      // Vite may append its own query (`?import`) to either end.
      const [file = '', part = ''] = id
        .slice(VIRTUAL.length)
        .split('#')
        .map((s) => s.replace(/\?.*$/, ''));
      this.addWatchFile(file);
      const first = part === 'first';
      const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const picked = Object.fromEntries(
        Object.entries(texts).filter(([section]) => FIRST_SCREEN_SECTIONS.includes(section) === first),
      );
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});`;
    },
  };
}
