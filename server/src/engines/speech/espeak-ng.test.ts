import { beforeAll, describe, expect, it } from 'vitest';
import { createPristineEspeak, VOICE_SET_UPS, type PristineEspeak } from './espeak-ng.ts';

/** The samples espeak writes for `text`, joined. */
function speak(espeak: PristineEspeak, text: string): Buffer {
  const blocks: Buffer[] = [];
  espeak.worker.synthesize(text, (samples) => void blocks.push(Buffer.from(samples.buffer.slice(0))));
  return Buffer.concat(blocks);
}

let espeak: PristineEspeak;
beforeAll(async () => {
  espeak = await createPristineEspeak();
});

describe('espeak-ng from a known state (S-11), with each voice set up once', () => {
  /** A set-up that counts its runs. */
  const voice = (name: string, rate = 175, pitch = 50) => {
    const setUp = () => {
      setUp.runs++;
      expect(espeak.worker.set_voice(name)).toBe(0);
      espeak.worker.set_rate(rate);
      espeak.worker.set_pitch(pitch);
    };
    setUp.runs = 0;
    return setUp;
  };

  it("sets a voice up once, then starts each clause from that set-up's memory", () => {
    const slow = voice('es+f3', 120);
    const english = voice('en-us+f3');
    espeak.restoreVoice('es slow', slow);
    const first = speak(espeak, 'Lucía, ¿qué tal?');
    for (const other of ['es slow', 'en', 'es slow', 'en', 'en', 'es slow']) {
      if (other === 'en') {
        espeak.restoreVoice('en', english);
        speak(espeak, 'Something else entirely, and longer than the clause.');
        continue;
      }
      espeak.restoreVoice(other, slow);
      expect(speak(espeak, 'Lucía, ¿qué tal?').equals(first)).toBe(true);
    }
    // Without the copies, each clause would set its voice up again (~0.3 ms a clause).
    expect(slow.runs).toBe(1);
    expect(english.runs).toBe(1);
  });

  it('a kept set-up sounds as setting the voice up afresh does, voice after voice', async () => {
    // Voices of the catalogue (modules/voices/catalogue.ts): variants, the Klatt synthesiser, and
    // dictionaries of both languages, set up in turn on one instance.
    const catalogue: [voice: string, rate: number, pitch: number][] = [
      ['es+f3', 165, 56],
      ['es-419+m1', 170, 40],
      ['es+klatt2', 178, 46],
      ['en-gb-x-rp+m2', 152, 32],
      ['en-us+klatt', 170, 50],
      ['en-gb-scotland+f1', 158, 48],
    ];
    const clause = (voice: string) =>
      voice.startsWith('es') ? 'Siento mucho que estés así,' : "I'm so sorry,";
    const kept = catalogue.map((entry) => ({ entry, setUp: voice(...entry) }));
    for (const { entry, setUp } of kept) {
      espeak.restoreVoice(entry.join(' '), setUp);
      speak(espeak, clause(entry[0]));
    }
    for (const { entry, setUp } of kept.reverse()) {
      // Afresh: a new instance is in the warm-up's state; the voice set up directly, no copy.
      const fresh = await createPristineEspeak();
      expect(fresh.worker.set_voice(entry[0])).toBe(0);
      fresh.worker.set_rate(entry[1]);
      fresh.worker.set_pitch(entry[2]);
      const afresh = speak(fresh, clause(entry[0]));
      espeak.restoreVoice(entry.join(' '), setUp);
      expect(speak(espeak, clause(entry[0])).equals(afresh)).toBe(true);
      expect(setUp.runs).toBe(1);
    }
  });

  it(`keeps at most ${VOICE_SET_UPS} set-ups, dropping the least recently used`, () => {
    const setUps = Array.from({ length: VOICE_SET_UPS + 1 }, (_, k) => voice('es+f3', 100 + k * 10));
    setUps.forEach((setUp, k) => k < VOICE_SET_UPS && espeak.restoreVoice(`rate ${k}`, setUp));
    espeak.restoreVoice('rate 0', setUps[0]!); // used again: now the most recent
    espeak.restoreVoice(`rate ${VOICE_SET_UPS}`, setUps[VOICE_SET_UPS]!); // drops "rate 1"
    espeak.restoreVoice('rate 0', setUps[0]!);
    espeak.restoreVoice('rate 1', setUps[1]!);
    expect(setUps.map((s) => s.runs)).toEqual([1, 2, ...Array.from({ length: VOICE_SET_UPS - 1 }, () => 1)]);
  });

  it('keeps nothing of a set-up that failed', () => {
    let runs = 0;
    const failing = () => {
      runs++;
      throw new Error('no such voice');
    };
    expect(() => espeak.restoreVoice('broken', failing)).toThrow('no such voice');
    expect(() => espeak.restoreVoice('broken', failing)).toThrow('no such voice');
    expect(runs).toBe(2);
    // The next clause still starts clean.
    const english = voice('en-us+f3');
    espeak.restoreVoice('en clean', english);
    const once = speak(espeak, 'Hello there.');
    espeak.restoreVoice('en clean', english);
    expect(speak(espeak, 'Hello there.').equals(once)).toBe(true);
  });
});
