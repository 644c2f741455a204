import type { Language, VoiceCategory, VoiceGender, VoiceLanguage } from '@alma/protocol';

/**
 * The 25 system voices (spec §3 Voice; SPEC.md V-1). Each is a distinct builtin voice: an
 * espeak-ng voice of its language (`es`, `es-419`, `en-us`, `en` (British), …), a variant (`+f1`…`+f5`
 * female, `+m1`…`+m7` male, `+klatt…` the Klatt synthesiser, our neutral timbre), a pitch
 * (0–99) and a rate (words per minute). The ids are stable: users' preferences and the client's
 * onboarding store them. Names and descriptions are in Spanish, the product's default language.
 */
export interface SystemVoice {
  id: string;
  name: string;
  description: string;
  category: VoiceCategory;
  language: VoiceLanguage;
  gender: VoiceGender;
  recommended: boolean;
  /** What the builtin synthesiser speaks with (engines/speech/types.ts VoiceParams). */
  espeak: { voice: string; rate: number; pitch: number };
}

const GENDER_OF: Record<VoiceCategory, VoiceGender> = {
  femenina: 'female',
  masculina: 'male',
  neutral: 'neutral',
};

type Entry = [
  id: string,
  name: string,
  category: VoiceCategory,
  voice: string,
  pitch: number,
  rate: number,
  description: string,
  recommended?: true,
];

// prettier-ignore
const ENTRIES: readonly Entry[] = [
  // español (13)
  ['es-lucia', 'Lucía', 'femenina', 'es+f3', 56, 165, 'Cálida y cercana, acento de España. Ideal para conversar cada día.', true],
  ['es-mateo', 'Mateo', 'masculina', 'es+m3', 44, 165, 'Serena y amable, acento de España. Una voz de confianza.', true],
  ['es-alex', 'Alex', 'neutral', 'es+klatt', 50, 170, 'Neutra y clara, acento de España. Ni grave ni aguda.', true],
  ['es-sofia', 'Sofía', 'femenina', 'es-419+f2', 62, 170, 'Alegre y luminosa, acento latinoamericano.'],
  ['es-valentina', 'Valentina', 'femenina', 'es-419+f4', 66, 182, 'Enérgica y juvenil, acento latinoamericano.'],
  ['es-carmen', 'Carmen', 'femenina', 'es+f1', 40, 150, 'Grave y pausada, con un aire misterioso. Acento de España.'],
  ['es-elena', 'Elena', 'femenina', 'es+f5', 52, 160, 'Firme y elegante, acento de España.'],
  ['es-diego', 'Diego', 'masculina', 'es-419+m1', 40, 170, 'Cercana y desenfadada, acento latinoamericano.'],
  ['es-javier', 'Javier', 'masculina', 'es+m2', 30, 150, 'Profunda y solemne, acento de España.'],
  ['es-pablo', 'Pablo', 'masculina', 'es+m5', 54, 186, 'Joven y animada, acento de España.'],
  ['es-andres', 'Andrés', 'masculina', 'es-419+m4', 46, 158, 'Tranquila y reflexiva, acento latinoamericano.'],
  ['es-ariel', 'Ariel', 'neutral', 'es-419+klatt3', 58, 172, 'Suave y etérea, acento latinoamericano.'],
  ['es-noa', 'Noa', 'neutral', 'es+klatt2', 46, 178, 'Sintética y precisa, con un toque robótico. Acento de España.'],
  // inglés (12)
  ['en-emma', 'Emma', 'femenina', 'en-us+f3', 56, 170, 'Cálida y natural, inglés americano.', true],
  ['en-oliver', 'Oliver', 'masculina', 'en+m3', 44, 165, 'Amable y serena, inglés británico.', true],
  ['en-river', 'River', 'neutral', 'en-us+klatt', 50, 170, 'Neutra y clara, inglés americano.', true],
  ['en-olivia', 'Olivia', 'femenina', 'en-gb-x-rp+f2', 60, 162, 'Elegante y refinada, inglés británico clásico (RP).'],
  ['en-ava', 'Ava', 'femenina', 'en-us+f4', 64, 182, 'Vivaz y juvenil, inglés americano.'],
  ['en-isla', 'Isla', 'femenina', 'en-gb-scotland+f1', 48, 158, 'Dulce y misteriosa, acento escocés.'],
  ['en-grace', 'Grace', 'femenina', 'en-029+f5', 54, 168, 'Luminosa y rítmica, acento caribeño.'],
  ['en-james', 'James', 'masculina', 'en-us+m1', 38, 168, 'Segura y directa, inglés americano.'],
  ['en-harry', 'Harry', 'masculina', 'en-gb-x-rp+m2', 32, 152, 'Grave y señorial, inglés británico clásico (RP).'],
  ['en-liam', 'Liam', 'masculina', 'en-us-nyc+m4', 50, 186, 'Rápida y desenvuelta, acento de Nueva York.'],
  ['en-callum', 'Callum', 'masculina', 'en-gb-scotland+m5', 42, 162, 'Cordial y firme, acento escocés.'],
  ['en-sky', 'Sky', 'neutral', 'en-gb-x-gbcwmd+klatt2', 56, 176, 'Sintética y curiosa, acento de las Midlands inglesas.'],
];

export const SYSTEM_VOICES: readonly SystemVoice[] = ENTRIES.map(
  ([id, name, category, voice, pitch, rate, description, recommended]) => ({
    id,
    name,
    description,
    category,
    language: id.startsWith('es-') ? 'español' : 'inglés',
    gender: GENDER_OF[category],
    recommended: recommended === true,
    espeak: { voice, rate, pitch },
  }),
);

const BY_ID = new Map(SYSTEM_VOICES.map((voice) => [voice.id, voice]));

export function findSystemVoice(id: string): SystemVoice | undefined {
  return BY_ID.get(id);
}

/** The reply language a catalogue language speaks. */
export const LANGUAGE_CODE: Record<VoiceLanguage, Language> = { español: 'es', inglés: 'en' };

/**
 * Voices suited to each system avatar (spec §3: golem, witch, elf, robot, samuraiF, deerWoman,
 * vampireF, robotina), best first, Spanish before English. An avatar not listed (a custom one)
 * gets the general recommended set (V-3).
 */
export const AVATAR_VOICES: Readonly<Record<string, readonly string[]>> = {
  golem: ['es-javier', 'es-mateo', 'en-harry', 'en-callum'],
  witch: ['es-carmen', 'es-elena', 'en-isla', 'en-olivia'],
  elf: ['es-sofia', 'es-ariel', 'en-olivia', 'en-isla'],
  robot: ['es-noa', 'es-alex', 'en-sky', 'en-river'],
  samuraiF: ['es-elena', 'es-lucia', 'en-grace', 'en-emma'],
  deerWoman: ['es-sofia', 'es-lucia', 'en-isla', 'en-emma'],
  vampireF: ['es-carmen', 'es-valentina', 'en-olivia', 'en-ava'],
  robotina: ['es-ariel', 'es-noa', 'en-sky', 'en-ava'],
};

/** The sentence each language's previews speak. */
export const PREVIEW_SENTENCES: Record<Language, (name: string) => string> = {
  es: (name) => `Hola, soy ${name}. Me encantará acompañarte y charlar contigo cuando quieras.`,
  en: (name) => `Hi, I'm ${name}. I'd love to keep you company and chat whenever you like.`,
};
