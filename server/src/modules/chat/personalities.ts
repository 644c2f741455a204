import { PERSONALITIES, type Language, type Personality, type PersonalityInfo } from '@alma/protocol';

/**
 * The four built-in personalities (spec §3 "Personality"), described in each language for
 * `GET /personalities` and named in the system message that confirms a change (SPEC.md C-14).
 * The builtin reply engine's voices (engines/reply/phrases.*.ts) follow these descriptions.
 */
type Description = Omit<PersonalityInfo, 'personality' | 'language'>;

const DESCRIPTIONS: Record<Language, Record<Personality, Description>> = {
  es: {
    default: {
      name: 'Predeterminada',
      style: 'Cercana y cálida: frases cortas, tuteo y preguntas para seguir la conversación.',
      context: 'Para charlar del día a día, desahogarse o simplemente hacer compañía.',
    },
    formal: {
      name: 'Formal',
      style: 'Educada y mesurada: trata de usted, sin expresiones coloquiales.',
      context: 'Para conversaciones serias o cuando se prefiere cierta distancia.',
    },
    creative: {
      name: 'Creativa',
      style: 'Imaginativa y expresiva: imágenes, metáforas y un toque de juego.',
      context: 'Para ideas, historias y ver las cosas desde otro ángulo.',
    },
    technical: {
      name: 'Técnica',
      style:
        'Precisa y ordenada: va al grano, estructura las respuestas y distingue lo que sabe de lo que no.',
      context: 'Para pensar problemas paso a paso y preguntas concretas.',
    },
  },
  en: {
    default: {
      name: 'Default',
      style: 'Warm and close: short sentences and questions that keep the conversation going.',
      context: 'For everyday chat, letting off steam or simply some company.',
    },
    formal: {
      name: 'Formal',
      style: 'Polite and measured, without slang.',
      context: 'For serious conversations, or when some distance feels better.',
    },
    creative: {
      name: 'Creative',
      style: 'Imaginative and expressive: images, metaphors and a playful touch.',
      context: 'For ideas, stories and seeing things from another angle.',
    },
    technical: {
      name: 'Technical',
      style: 'Precise and orderly: to the point, structured, clear about what it knows and what it does not.',
      context: 'For working through problems step by step and concrete questions.',
    },
  },
};

export function personalities(language: Language): Record<Personality, PersonalityInfo> {
  return Object.fromEntries(
    PERSONALITIES.map((personality) => [
      personality,
      { ...DESCRIPTIONS[language][personality], personality, language },
    ]),
  ) as Record<Personality, PersonalityInfo>;
}

/** The system message that confirms a change: "Personalidad cambiada a Formal." */
export function personalityChangedText(language: Language, personality: Personality): string {
  const name = DESCRIPTIONS[language][personality].name;
  return language === 'es' ? `Personalidad cambiada a ${name}.` : `Personality changed to ${name}.`;
}
