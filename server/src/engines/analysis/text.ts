/**
 * Small text helpers shared by the analysers and the reply engine. Matching works on a folded
 * form (lower case, no diacritics) because chat users type "que tal" as often as "qué tal".
 */

/** Lower case without diacritics: "Qué TAL, Ñandú" → "que tal, nandu". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Folded word tokens. Apostrophes stay inside words ("i'm", "don't") so English contractions
 * can be looked up whole; typographic apostrophes are unified first.
 */
export function words(text: string): string[] {
  return fold(text.replace(/[’‘]/g, "'")).match(/[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu) ?? [];
}
