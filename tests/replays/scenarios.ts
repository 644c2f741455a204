import type { Personality } from '@alma/protocol';

/**
 * The recorded scenarios (issue 4): each names the server environment it needs and the client's
 * steps. `pnpm run replays:record` runs them against a real server and writes
 * tests/replays/<name>.jsonl (the scenario first, then everything the client saw); replay.test.ts
 * runs the same steps against a fresh server with the same environment and compares.
 *
 * Timing that would otherwise race is tied to events: a cancel or a transport drop happens right
 * after the client has received the k-th `chat:delta`, and the reply is paced
 * (REPLY_TOKEN_DELAY_MS) far slower than a local round trip, so the server has not produced the
 * next piece yet.
 */
export type Step =
  | {
      kind: 'send';
      message: string;
      personality?: Personality;
      /** Sends `chat:cancel` once this many deltas of the reply have arrived. */
      cancelAfterDeltas?: number;
      /** Drops the transport (no clean disconnect) once this many deltas have arrived. */
      dropAfterDeltas?: number;
    }
  | { kind: 'personality'; personality: Personality };

/**
 * Engines pinned for recording and replaying, whatever the machine has installed: the replies and
 * speech are the builtin ones, and transcription is the browser hint (pocketsphinx, when Debian's
 * package is present, would change `server:status` and any voice note).
 */
export const DETERMINISTIC_ENGINES: Record<string, string> = { TRANSCRIBE_ENGINE: 'hint' };

export interface Scenario {
  name: string;
  /** Server environment on top of the test defaults (tests/fixtures/server.ts). */
  env: Record<string, string>;
  steps: Step[];
}

const send = (
  message: string,
  extra: Omit<Extract<Step, { kind: 'send' }>, 'kind' | 'message'> = {},
): Step => ({
  kind: 'send',
  message,
  ...extra,
});

export const SCENARIOS: Scenario[] = [
  {
    name: 'conversation-es',
    env: {},
    steps: [
      send('¡Hola! Me llamo Lucía'),
      send('Hoy estoy un poco triste por mi examen'),
      send('¿Qué tiempo hace mañana?'),
      send('Gracias, adiós'),
    ],
  },
  {
    name: 'conversation-en',
    env: {},
    steps: [
      send('Hi there, my name is Sam'),
      send('I got the job!! I am so happy'),
      send('My sister Ana helped me prepare for the interview'),
      send('Can you remember my name?'),
      send('Bye for now'),
    ],
  },
  {
    name: 'personality-change',
    env: {},
    steps: [
      send('Hola, ¿cómo estás?'),
      { kind: 'personality', personality: 'formal' },
      send('Cuéntame qué puedes hacer'),
      { kind: 'personality', personality: 'creative' },
      send('Dame una idea para el fin de semana'),
    ],
  },
  {
    name: 'limit-reached',
    env: { FREE_MESSAGES_PER_MONTH: '2' },
    steps: [send('Hola'), send('¿Sigues ahí?'), send('Un mensaje más allá del límite')],
  },
  {
    name: 'cancel-mid-reply',
    // Text only: how many speech chunks are ready when the cancel lands depends on the machine's
    // speed; cancelling spoken replies is tested in tests/socket/speech.test.ts (S-2).
    env: { REPLY_TOKEN_DELAY_MS: '150', SPEECH_ENGINE: 'none' },
    steps: [
      send('Cuéntame algo largo sobre cómo te sientes hoy y qué te gusta hacer', { cancelAfterDeltas: 3 }),
      send('Vale, otra cosa: mañana tengo una entrevista'),
    ],
  },
  {
    name: 'reconnect-mid-reply',
    env: { REPLY_TOKEN_DELAY_MS: '60' },
    steps: [
      send('Hoy tuve un día muy largo en el trabajo y quiero contarte cómo fue todo', { dropAfterDeltas: 2 }),
      send('Gracias por escucharme'),
    ],
  },
];
