import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
// Vite loads this with its config, in plain Node, which cannot import '@alma/protocol' (TypeScript
// source); the two files it needs are bundled in by path instead.
// eslint-disable-next-line no-restricted-imports -- see above
import type { Language } from '../protocol/src/constants.ts';
// eslint-disable-next-line no-restricted-imports -- see above
import { ERROR_MESSAGES, FIELD_MESSAGES } from '../protocol/src/messages.ts';

/**
 * The parts of each language's texts (`src/locales/{es,en}.json`), each its own chunk so a screen
 * loads only what it shows (issue 12, "a lean first screen"): `shell`, what every screen's frame
 * says (loaded before the first render, with the protocol's error texts); `landing` and `auth`,
 * the first screens' own; `rest`, every other section (the signed-in and legal screens).
 * `src/app/first-screens.test.tsx` renders each first screen with only its parts and fails on a
 * key outside them.
 */
export const TEXT_SECTIONS = {
  shell: ['app', 'common', 'nav', 'errors'],
  landing: ['landing'],
  auth: ['auth'],
} as const satisfies Record<string, readonly string[]>;

export type TextPart = keyof typeof TEXT_SECTIONS | 'rest';

const LISTED: readonly string[] = Object.values(TEXT_SECTIONS).flat();

function inPart(section: string, part: string): boolean {
  const listed = (TEXT_SECTIONS as Record<string, readonly string[]>)[part];
  return listed ? listed.includes(section) : !LISTED.includes(section);
}

/**
 * The protocol writes the error and field texts once (protocol/src/messages.ts); a language's
 * texts carry its own under `errors.*` and `validation.*`, beside the client's `errors.*` keys —
 * merged here, at build time, so no screen loads both languages' copies.
 */
export function withProtocolTexts<T extends { errors?: object }>(local: T, language: Language) {
  return {
    ...local,
    errors: { ...local.errors, ...ERROR_MESSAGES[language] },
    validation: { ...FIELD_MESSAGES[language] },
  };
}

const PART = /^(.*[\\/]locales[\\/][a-z]{2}\.json)\?(?:.*&)?part=(shell|landing|auth|rest)(?:&.*)?$/;
const VIRTUAL = '\0alma-locale-part:';

/**
 * `locales/<lang>.json?part=<part>`: one language file (kept whole, as the translators and the key
 * types see it) served as one module per part, hence one chunk per part.
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
      const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const picked = Object.fromEntries(Object.entries(texts).filter(([section]) => inPart(section, part)));
      const language = /([a-z]{2})\.json$/.exec(file)?.[1] as Language;
      const withProtocol = part === 'shell' ? withProtocolTexts(picked, language) : picked;
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(withProtocol))});`;
    },
  };
}
