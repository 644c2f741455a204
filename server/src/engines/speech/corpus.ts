import type { Language } from '@alma/protocol';

/**
 * Sentences the viseme tables are checked against: every phoneme espeak emits for them must be
 * in the table of their language (visemes.test.ts). Chosen to reach every letter, digraph and
 * stress pattern of each language, plus numbers, abbreviations and loanwords a companion says.
 */
export const SPEECH_CORPUS: Record<Language, readonly string[]> = {
  es: [
    '¡Hola! ¿Cómo estás hoy?',
    'Me llamo Alma y me encanta conversar contigo.',
    'El perro de Roberto corre rápido por la carretera.',
    'Ayer llovió muchísimo, pero hoy hace un sol precioso.',
    'La guitarra de Guillermo suena genial en la fiesta.',
    'Quiero un café con leche y una tostada, por favor.',
    'El niño pequeño juega con su muñeca en el jardín.',
    'Tengo 3,5 kilos de naranjas y 27 manzanas.',
    'El Sr. García y la Dra. Pérez llegaron a las 8:30.',
    'Xavier toca el xilófono en el auditorio de México.',
    'La cigüeña y el pingüino no se conocen, ¿verdad?',
    'Hay que ser valiente para vivir con bondad y alegría.',
    'Chocolate, churros y chorizo: ¡qué combinación!',
    'Yo ya no ayudo a nadie que no quiera ayuda.',
    'El zapato azul está debajo del sofá de la sala.',
    'Fernando fue al fútbol el fin de semana con su familia.',
    'Juan y Jimena juegan a las cartas junto al hogar.',
    'Siempre pienso que mañana será un día mejor.',
    'Te extraño cuando no hablamos; eres muy importante para mí.',
    'Los ojos brillan cuando uno habla de lo que ama.',
    'Buenas noches, que descanses y sueñes bonito.',
    'El kiwi, el whisky y el wifi son palabras prestadas.',
    'Aunque haya huelga, el autobús ahumado sigue en la autopista.',
    'Psicología, gnomo y submarino son palabras curiosas.',
  ],
  en: [
    'Hello! How are you doing today?',
    'My name is Alma and I love talking with you.',
    'The quick brown fox jumps over the lazy dog.',
    'She sells seashells by the seashore every summer.',
    'I think they thought about this three times, though.',
    'Would you like a cup of tea or a glass of juice?',
    'The weather was gorgeous, so we went to the beach.',
    'Mr. Johnson paid $3.50 for 12 oranges, e.g. the big ones.',
    'Why did you choose that measure for the treasure?',
    'Please judge the singing of the young boy fairly.',
    'Our cat Oscar usually sleeps on the yellow chair.',
    'It is a pleasure to hear your voice again, really.',
    'The girl bought a purple shirt and a pair of boots.',
    'Look at the moon, it looks beautiful tonight.',
    'Annie, are you okay? You seem a little tired.',
    'Thank you for telling me about your wonderful day.',
    'We usually watch movies while eating popcorn.',
    'Can you hear the birds singing in the garden?',
    'Kind words cost nothing but mean everything.',
    'Through thick and thin, I will always be here for you.',
    'The car is parked near the door of the hotel.',
    'Water, bottle and little are tricky words to pronounce.',
    'Our tour of the pure, cure and sure sounds is done.',
    'Genre, vision and azure have unusual sounds.',
  ],
};

/** The voices a speech worker warms up with (S-12), one per language. */
export const WARM_UP_VOICES: Record<Language, string> = { es: 'es+f3', en: 'en-us+f3' };

/**
 * The corpus in the order a speech worker warms up on it (S-12): each Spanish sentence, then the
 * English one beside it, so both voices' code warms together.
 */
export function warmUpOrder(): { text: string; language: Language }[] {
  return SPEECH_CORPUS.es.flatMap((es, k) => {
    const en = SPEECH_CORPUS.en[k];
    return [{ text: es, language: 'es' as const }, ...(en ? [{ text: en, language: 'en' as const }] : [])];
  });
}
