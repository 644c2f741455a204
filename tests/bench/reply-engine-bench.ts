/**
 * Builtin reply engine benchmark (alone: `tsx tests/bench/reply-engine-bench.ts`; `BENCH_QUICK=1`
 * for a small run).
 *
 * What composing one reply costs the event loop as a session grows (issue 14: the engine is asked
 * before the message is acknowledged). Each round holds one conversation per language of
 * `TURNS` turns, the history the last 40 messages as the server gives it; every user message
 * carries the round's number, so no round replays another's texts. Each turn is composed once, as
 * the server does, and timed. Baseline in the same run: like messages (another number) composed
 * with no history.
 * Figures are medians over the rounds; no thresholds.
 */
import type { Language } from '@alma/protocol';
import { composeReply } from '../../server/src/engines/reply/compose.ts';
import { fmt, machine, median, printTable, QUICK, ratio, writeResult } from './support/report.ts';

const ROUNDS = QUICK ? 3 : 15;
const TURNS = QUICK ? 30 : 60;
const HISTORY = 40;

const SAYS: Record<Language, ((n: number) => string)[]> = {
  es: [
    (n) => `Hola, me llamo Lucía y hoy he trabajado ${n} horas seguidas.`,
    (n) => `Mi hija Marta tiene una entrevista mañana a las ${n} y estoy nerviosa por ella.`,
    (n) => `Ayer fuimos al parque con el perro, caminamos ${n} minutos y llovió muchísimo.`,
    (n) => `Estoy pensando en cambiar de trabajo, llevo ${n} días sin sentirme valorada.`,
    (n) => `Mi madre está enferma desde hace ${n} días y me preocupa mucho su salud.`,
    (n) => `El fin de semana quiero ir a la playa con ${n} amigas.`,
    (n) => `He empezado a leer una novela de misterio de ${n} páginas muy buena.`,
    (n) => `No duermo bien últimamente, esta semana me he despertado ${n} veces a las cuatro.`,
    (n) => `Mi hermano se casa en junio con ${n} invitados y tengo que preparar un discurso.`,
    (n) => `Hoy cociné paella para ${n} personas por primera vez y salió bastante bien.`,
  ],
  en: [
    (n) => `Hi, my name is Sam and I worked ${n} hours straight today.`,
    (n) => `My daughter Emma has a job interview tomorrow at ${n} and I am nervous for her.`,
    (n) => `We walked the dog in the park for ${n} minutes yesterday and it rained a lot.`,
    (n) => `I am thinking about changing jobs, for ${n} days I have not felt valued.`,
    (n) => `My mother has been ill for ${n} days and I worry about her health.`,
    (n) => `This weekend I want to go to the beach with ${n} friends.`,
    (n) => `I started reading a ${n} page mystery novel and it is really good.`,
    (n) => `I have not been sleeping well, I woke up at four ${n} times this week.`,
    (n) => `My brother is getting married in June with ${n} guests and I must write a speech.`,
    (n) => `Today I cooked paella for ${n} people for the first time and it went well.`,
  ],
};

type Turn = { role: 'user' | 'assistant'; content: string; language: Language };

/** µs of one call. */
function timed(work: () => unknown): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1000;
}

/** One conversation: µs per reply by turn, and for like messages with no history. */
function conversation(language: Language, round: number): { withHistory: number[]; alone: number[] } {
  const history: Turn[] = [];
  const withHistory: number[] = [];
  const alone: number[] = [];
  const says = SAYS[language];
  for (let turn = 0; turn < TURNS; turn++) {
    const text = says[turn % says.length]!(round * 1000 + turn + 2);
    const request = { text, language, personality: 'default' as const, history: history.slice(-HISTORY) };
    // A message like it (another number) with no history, timed first on every other turn: what
    // one message reads first costs more than what follows it.
    const like = says[turn % says.length]!(round * 1000 + turn + 500);
    const timeAlone = () => alone.push(timed(() => composeReply({ ...request, text: like, history: [] })));
    if (turn % 2 === 0) timeAlone();
    let reply = '';
    withHistory.push(timed(() => (reply = composeReply(request).text)));
    if (turn % 2 === 1) timeAlone();
    history.push({ role: 'user', content: text, language }, { role: 'assistant', content: reply, language });
  }
  return { withHistory, alone };
}

// Warm-up (the engine's phrase books and regular expressions), not counted.
conversation('es', -1);
conversation('en', -2);

/** Turns by how much history they carry: the first ten, and those with a full window. */
const BANDS = [
  { name: 'turns 1–10', from: 0, to: 10 },
  { name: `turns ${HISTORY / 2 + 1}–${TURNS} (${HISTORY} messages)`, from: HISTORY / 2, to: TURNS },
];
const figures = new Map<string, { withHistory: number[]; alone: number[] }>();
for (let round = 0; round < ROUNDS; round++) {
  for (const language of ['es', 'en'] as const) {
    const { withHistory, alone } = conversation(language, round);
    for (const band of BANDS) {
      const key = `${language} ${band.name}`;
      const f = figures.get(key) ?? { withHistory: [], alone: [] };
      f.withHistory.push(median(withHistory.slice(band.from, band.to)));
      f.alone.push(median(alone.slice(band.from, band.to)));
      figures.set(key, f);
    }
  }
}

const rows = [...figures].map(([name, f]) => ({
  name,
  withHistory: median(f.withHistory),
  alone: median(f.alone),
}));
console.info(`reply engine (builtin): ${ROUNDS} rounds of a ${TURNS}-turn conversation per language`);
printTable(
  ['turns', 'µs a reply', 'like message, no history', 'ratio'],
  rows.map((r) => [r.name, fmt(r.withHistory), fmt(r.alone), `×${fmt(ratio(r.withHistory, r.alone), 2)}`]),
);
writeResult('reply-engine-latest', {
  ...machine(),
  config: { rounds: ROUNDS, turns: TURNS, history: HISTORY },
  rows,
});
