import type { Language } from '@alma/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinSynthesizer, type BuiltinSpeechSynthesizer } from './builtin.ts';
import { SPEECH_CORPUS } from './corpus.ts';
import type { VisemeKey } from './types.ts';
import {
  estimateTimings,
  estimateVisemes,
  segmentPhoneme,
  VISEMES,
  visemesFromPhonemes,
  voicedRegions,
  withLipClosures,
} from './visemes.ts';

/** Every espeak voice of the two languages (list_voices, ENGINES.md). */
const VOICES: Record<Language, string[]> = {
  es: ['es', 'es-419'],
  en: [
    'en-us',
    'en',
    'en-gb-x-rp',
    'en-029',
    'en-gb-scotland',
    'en-us-nyc',
    'en-gb-x-gbclan',
    'en-gb-x-gbcwmd',
  ],
};
const MOUTH_OPEN = new Set(['aa', 'E', 'I', 'O', 'U']);

let synth: BuiltinSpeechSynthesizer;
beforeAll(() => {
  synth = createBuiltinSynthesizer();
});

describe('viseme tables', () => {
  for (const language of ['es', 'en'] as const) {
    it(`cover every phoneme espeak emits for the ${language} corpus, in every ${language} voice`, async () => {
      expect(SPEECH_CORPUS[language].length).toBeGreaterThanOrEqual(20);
      const emitted = new Map<string, number>();
      for (const voice of VOICES[language]) {
        for (const text of SPEECH_CORPUS[language]) {
          const { phonemes } = await synth.synthesizeDetailed({
            text,
            language,
            voice: { voice },
            signal: new AbortController().signal,
          });
          for (const p of phonemes) emitted.set(p.id, (emitted.get(p.id) ?? 0) + 1);
        }
      }
      const uncovered = [...emitted.keys()].filter((id) => segmentPhoneme(id, language).unknown.length > 0);
      console.info(
        `${language}: ${emitted.size} phoneme ids from espeak (${VOICES[language].join(', ')}):`,
        [...emitted.keys()].map((id) => (id === '' ? '(pause)' : id)).join(' '),
      );
      expect(uncovered).toEqual([]);
      // Each table entry names one of the 15 Oculus visemes.
      for (const id of emitted.keys()) {
        for (const s of segmentPhoneme(id, language).segments) expect(VISEMES).toContain(s.v);
      }
      // The whole corpus in every voice of the language: a budget of work, not a timing check.
    }, 60_000);
  }

  it('maps sounds to the mouth shapes that make them', () => {
    const first = (id: string, language: Language) => segmentPhoneme(id, language).segments[0]?.v;
    expect(first('m', 'es')).toBe('PP');
    expect(first('f', 'es')).toBe('FF');
    expect(first('θ', 'es')).toBe('TH');
    expect(first('tʃ', 'es')).toBe('CH');
    expect(first('ɾ', 'es')).toBe('RR');
    expect(first('ˈa', 'es')).toBe('aa');
    expect(first('ˈo', 'es')).toBe('O');
    expect(first('v', 'en')).toBe('FF');
    expect(first('dʒ', 'en')).toBe('CH');
    expect(first('ɹ', 'en')).toBe('RR');
    expect(segmentPhoneme('ˈaɪ', 'en').segments.map((s) => s.v)).toEqual(['aa', 'I']);
    expect(segmentPhoneme('ɑːɹ', 'en').segments.map((s) => s.v)).toEqual(['aa', 'RR']);
    expect(segmentPhoneme('ˈoʊ', 'en').stressed).toBe(true);
  });
});

describe('visemes from phoneme events', () => {
  const track = (events: [number, string][], duration: number, language: Language = 'es') =>
    visemesFromPhonemes(
      events.map(([t, id]) => ({ t, id })),
      language,
      duration,
    );

  it('keys each phoneme at its start, with sil at pauses and at the end', () => {
    const keys = track(
      [
        [0, 'ˈo'],
        [139, 'l'],
        [203, 'a'],
        [257, ''],
      ],
      414,
    );
    expect(keys.map((k) => [k.t, k.v])).toEqual([
      [0, 'O'],
      [139, 'nn'],
      [203, 'aa'],
      [257, 'sil'],
    ]);
  });

  it('starts with sil when speech starts late, and closes the mouth at the end', () => {
    const keys = track(
      [
        [30, 'm'],
        [90, 'ˈa'],
      ],
      300,
    );
    expect(keys[0]).toEqual({ t: 0, v: 'sil', w: 1 });
    expect(keys[keys.length - 1]).toEqual({ t: 300, v: 'sil', w: 1 });
  });

  it('lets a zero-length phoneme give way to the next, and lightens short ones (no flicker)', () => {
    const keys = track(
      [
        [0, 'ˈa'],
        [100, ''],
        [100, 't'],
        [110, 'ˈa'],
        [200, 'k'],
        [290, 'a'],
      ],
      400,
    );
    expect(keys.filter((k) => k.t === 100)).toEqual([expect.objectContaining({ v: 'DD' })]);
    const shortT = keys.find((k) => k.t === 100)!;
    const longK = keys.find((k) => k.t === 200)!;
    // 10 ms of t is approached, not reached; 90 ms of k gets its full (light) tongue weight.
    expect(shortT.w).toBeLessThan(0.6 * 0.5);
    expect(longK.w).toBeCloseTo(0.5);
    // A closure shows even when brief.
    const brief = track(
      [
        [0, 'ˈa'],
        [100, 'p'],
        [110, 'a'],
      ],
      300,
    );
    expect(brief.find((k) => k.t === 100)).toMatchObject({ v: 'PP', w: 1 });
  });

  it('anticipates lip shapes: a half-weight key of PP/FF/O/U shortly before it sounds', () => {
    // The 200 ms vowel anticipates the m; the 60 ms m is too short to anticipate the o.
    const keys = track(
      [
        [0, 'ˈa'],
        [200, 'm'],
        [260, 'o'],
      ],
      400,
    );
    expect(keys.map((k) => [k.t, k.v, k.w])).toEqual([
      [0, 'aa', 1],
      [160, 'PP', 0.5],
      [200, 'PP', 1],
      [260, 'O', 0.81],
      [400, 'sil', 1],
    ]);
  });

  it('splits a diphthong across its duration', () => {
    const keys = track(
      [
        [0, 'ˈaɪ'],
        [200, ''],
      ],
      300,
      'en',
    );
    expect(keys.map((k) => [k.t, k.v])).toEqual([
      [0, 'aa'],
      [100, 'I'],
      [200, 'sil'],
    ]);
  });

  it('shuts the lips on a Spanish n before m, as Spanish speaks it ("con más": [komˈmas])', () => {
    const events: [number, string][] = [
      [0, 'k'],
      [40, 'o'],
      [100, 'n'],
      [160, 'm'],
      [230, 'ˈa'],
      [300, 'n'],
      [360, 'o'],
    ];
    const at = (keys: VisemeKey[], t: number) => keys.find((k) => k.t === t);
    const es = track(events, 450);
    expect(at(es, 100)).toEqual({ t: 100, v: 'PP', w: 1 });
    expect(at(es, 160)).toEqual({ t: 160, v: 'PP', w: 1 });
    // An n before a vowel keeps the tongue's shape; English keeps its n before m.
    expect(at(es, 300)?.v).toBe('nn');
    expect(at(track(events, 450, 'en'), 100)?.v).toBe('nn');
  });

  it("in espeak's Spanish, the lips shut where the n before an m starts", async () => {
    // espeak writes m for an n before p or b ("un poco") but keeps n before m.
    const result = await synth.synthesizeDetailed({
      text: 'Vamos con más calma, también me gusta.',
      language: 'es',
      voice: { voice: 'es+f3' },
      signal: new AbortController().signal,
    });
    const ns = result.phonemes.filter((p, i) => p.id === 'n' && result.phonemes[i + 1]?.id === 'm');
    expect(ns.length).toBe(2);
    for (const n of ns) expect(result.visemes.find((k) => k.t === n.t)).toMatchObject({ v: 'PP', w: 1 });
  });
});

describe("lip closures: a p or b shuts the lips when its closure starts, before espeak's event", () => {
  const RATE = 22_050;
  /** PCM: a loud 220 Hz tone over each [fromMs, toMs) span, near silence (±2) elsewhere. */
  const pcm = (totalMs: number, loud: [number, number][]) =>
    Int16Array.from({ length: Math.round((totalMs * RATE) / 1000) }, (_, i) => {
      const ms = (i / RATE) * 1000;
      const on = loud.some(([from, to]) => ms >= from && ms < to);
      return on ? Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / RATE)) : i % 2 ? 2 : -2;
    });
  const events = (list: [number, string][]) => list.map(([t, id]) => ({ t, id }));

  it('adds an event at the start of the silence before the release; the release keeps its own', () => {
    // "apa": the vowel sounds 0–200, the closure is silent 200–240, the release at 240.
    const phonemes = events([
      [0, 'ˈa'],
      [240, 'p'],
      [270, 'a'],
    ]);
    const closed = withLipClosures(
      phonemes,
      pcm(400, [
        [0, 200],
        [240, 400],
      ]),
      RATE,
    );
    expect(closed).toEqual(
      events([
        [0, 'ˈa'],
        [200, 'p'],
        [240, 'p'],
        [270, 'a'],
      ]),
    );
    // The track: the lips are anticipated before the closure, shut through it, part after the release.
    expect(visemesFromPhonemes(closed, 'es', 400).map((k) => [k.t, k.v, k.w])).toEqual([
      [0, 'aa', 1],
      [160, 'PP', 0.5],
      [200, 'PP', 1],
      [240, 'PP', 1],
      [270, 'aa', 0.85],
      [400, 'sil', 1],
    ]);
  });

  it('leaves an m (the lips shut as it sounds), a stop after a pause, and a stop without a silence', () => {
    const sound = pcm(400, [
      [0, 200],
      [240, 400],
    ]);
    const unchanged = [
      events([
        [0, 'ˈa'],
        [240, 'm'],
        [300, 'a'],
      ]),
      events([
        [0, ''],
        [240, 'p'],
        [270, 'a'],
      ]),
    ];
    for (const phonemes of unchanged) expect(withLipClosures(phonemes, sound, RATE)).toEqual(phonemes);
    const voiced = events([
      [0, 'ˈa'],
      [200, 'b'],
      [240, 'a'],
    ]);
    expect(withLipClosures(voiced, pcm(400, [[0, 400]]), RATE)).toEqual(voiced);
  });

  it('looks for the closure before a phoneme that is not heard, and drops that phoneme', () => {
    // American "help": the vowel sounds 0–200 (its l-coloured end included), espeak's l at 202
    // is already the p's silence, the release at 240. Only the l's own time was searched: all of
    // it quiet, no closure — the lips stayed open until the release, 40 ms late.
    const phonemes = events([
      [0, 'ˈɛ'],
      [202, 'l'],
      [240, 'p'],
      [270, 'ɐ'],
    ]);
    const sound = pcm(400, [
      [0, 200],
      [240, 400],
    ]);
    expect(withLipClosures(phonemes, sound, RATE)).toEqual(
      events([
        [0, 'ˈɛ'],
        [200, 'p'],
        [240, 'p'],
        [270, 'ɐ'],
      ]),
    );
    // A quiet consonant that is heard keeps its event, and the closure starts after it ("asp").
    const quiet = Int16Array.from(sound, (x, i) => (i >= 200 * 22.05 && i < 220 * 22.05 ? 1000 : x));
    const asp = events([
      [0, 'a'],
      [200, 's'],
      [240, 'p'],
    ]);
    expect(withLipClosures(asp, quiet, RATE)).toEqual([...asp.slice(0, 2), { t: 220, id: 'p' }, asp[2]]);
  });

  /**
   * espeak speaks `text`: every p after a phoneme `before` accepts has its lips shut ≥ 15 ms before
   * its release, and the sound between is the closure's silence (12 dB under the 40 ms before).
   */
  async function expectShutThroughSilence(
    text: string,
    language: Language,
    voice: string,
    before: RegExp,
    atLeast: number,
  ) {
    const result = await synth.synthesizeDetailed({
      text,
      language,
      voice: { voice },
      signal: new AbortController().signal,
    });
    const db = (fromMs: number, toMs: number) => {
      const samples = result.pcm.subarray(Math.round(fromMs * 22.05), Math.round(toMs * 22.05));
      const sum = samples.reduce((acc, x) => acc + x * x, 0);
      return 10 * Math.log10(sum / Math.max(1, samples.length) + 1);
    };
    const releases = result.phonemes.filter(
      (p, i) => p.id === 'p' && before.test(result.phonemes[i - 1]?.id ?? ''),
    );
    expect(releases.length).toBeGreaterThanOrEqual(atLeast);
    for (const release of releases) {
      const keys = result.visemes;
      const at = keys.findIndex((k) => k.t === release.t);
      const closure = keys[at - 1]!;
      expect(closure.v, `p at ${release.t}`).toBe('PP');
      expect(closure.w).toBe(1);
      expect(release.t - closure.t).toBeGreaterThanOrEqual(15);
      expect(db(closure.t, release.t)).toBeLessThan(db(closure.t - 40, closure.t) - 12);
    }
  }

  it("in espeak's own speech, every p after a vowel is shut through its silent closure", async () => {
    await expectShutThroughSilence(
      'La sopa, la pera y la papa: una película preciosa.',
      'es',
      'es+f3',
      /[aeiou]/,
      4,
    );
  });

  it('in espeak’s American English, a p after an l ("help", "will pick") is shut where the sound stops', async () => {
    // Its l is coloured into the vowel, and its event is already the p's silence.
    await expectShutThroughSilence('It might help a lot, and we will pick one.', 'en', 'en-us+f3', /^l$/, 2);
  });
});

describe('estimated visemes (providers without timings)', () => {
  const RATE = 24_000;
  /** Silence and a voiced buzz (a 180 Hz tone with harmonics) at the given ms spans. */
  function audio(totalMs: number, voiced: [number, number][]): Int16Array {
    const pcm = new Int16Array(Math.round((totalMs * RATE) / 1000));
    for (const [from, to] of voiced) {
      for (let i = Math.round((from * RATE) / 1000); i < Math.round((to * RATE) / 1000); i++) {
        const x = (2 * Math.PI * 180 * i) / RATE;
        pcm[i] = Math.round(8000 * (Math.sin(x) + 0.5 * Math.sin(2 * x) + 0.25 * Math.sin(3 * x)));
      }
    }
    return pcm;
  }
  const inside = (t: number, regions: [number, number][]) => regions.some(([a, b]) => t >= a && t < b);

  function expectOpenOnlyWhereVoiced(keys: VisemeKey[], regions: [number, number][]) {
    const open = keys.filter((k) => MOUTH_OPEN.has(k.v));
    expect(open.length).toBeGreaterThan(3);
    for (const key of open) expect(inside(key.t, regions), `${key.v} at ${key.t}`).toBe(true);
    keys.slice(1).forEach((key, i) => expect(key.t).toBeGreaterThan(keys[i]!.t));
    expect(keys[keys.length - 1]!.v).toBe('sil');
  }

  it('finds the voiced regions of the envelope', () => {
    const regions = voicedRegions(
      audio(2000, [
        [300, 800],
        [1200, 1700],
      ]),
      RATE,
    );
    expect(regions).toEqual([
      [300, 800],
      [1200, 1700],
    ]);
  });

  it('times the regions by their samples at any rate (22 050 Hz: a 10 ms frame is 221 samples)', () => {
    const rate = 22_050;
    const pcm = new Int16Array(Math.round(21 * rate));
    for (let i = 20 * rate; i < 20.5 * rate; i++)
      pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 180 * i) / rate));
    const [region, ...rest] = voicedRegions(pcm, rate);
    expect(rest).toEqual([]);
    // Within one frame of where the sound is.
    expect(Math.abs(region![0] - 20_000)).toBeLessThanOrEqual(10);
    expect(Math.abs(region![1] - 20_500)).toBeLessThanOrEqual(10);
  });

  it('opens the mouth only where there is sound, and closes it over each silence', () => {
    const voiced: [number, number][] = [
      [300, 800],
      [1200, 1700],
    ];
    const { visemes, words } = estimateTimings('Hola, ¿qué tal estás hoy?', 'es', audio(2000, voiced), RATE);
    expectOpenOnlyWhereVoiced(visemes, voiced);
    expect(visemes[0]).toEqual({ t: 0, v: 'sil', w: 1 });
    // The silence between the regions is keyed sil at the first region's end.
    expect(visemes.find((k) => k.t === 800)?.v).toBe('sil');
    expect(words.map((w) => w.text)).toEqual(['Hola', 'qué', 'tal', 'estás', 'hoy']);
    for (const w of words) expect(inside(w.t, voiced)).toBe(true);
  });

  it('follows the envelope of real speech (espeak audio, its timings withheld)', async () => {
    for (const [language, text, voice] of [
      ['es', 'Me encanta hablar contigo. Cuéntame más, por favor.', 'es+f3'],
      ['en', 'Thank you for telling me about your wonderful day.', 'en-us+m3'],
    ] as const) {
      const spoken = await synth.synthesize({
        text,
        language,
        voice: { voice },
        signal: new AbortController().signal,
      });
      const regions = voicedRegions(spoken.pcm, spoken.sampleRate);
      expect(regions.length).toBeGreaterThan(0);
      const keys = estimateVisemes(text, language, spoken.pcm, spoken.sampleRate);
      expectOpenOnlyWhereVoiced(keys, regions);
    }
  });

  it('gives a closed mouth for silence', () => {
    expect(estimateVisemes('Hola', 'es', new Int16Array(24_000), RATE)).toEqual([{ t: 0, v: 'sil', w: 1 }]);
  });
});
