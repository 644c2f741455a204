/**
 * One part of a language's texts (client/locale-parts.ts): some of the file's top-level sections.
 * Typed as part of the locale file where it is loaded (lib/i18n.ts).
 */
declare module '*.json?part=shell' {
  const texts: Record<string, unknown>;
  export default texts;
}

declare module '*.json?part=landing' {
  const texts: Record<string, unknown>;
  export default texts;
}

declare module '*.json?part=auth' {
  const texts: Record<string, unknown>;
  export default texts;
}

declare module '*.json?part=rest' {
  const texts: Record<string, unknown>;
  export default texts;
}
