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

  it('a copy sounds as the set-up did: the same samples as setting the voice up afresh', async () => {
    const fresh = await createPristineEspeak();
    fresh.restoreVoice('es high', () => {
      fresh.worker.set_voice('es+f3');
      fresh.worker.set_pitch(90);
    });
    const afresh = speak(fresh, 'Siento mucho que estés así,');
    const high = voice('es+f3', 175, 90);
    espeak.restoreVoice('es high', high);
    speak(espeak, 'Otra frase antes.');
    espeak.restoreVoice('es high', high);
    expect(speak(espeak, 'Siento mucho que estés así,').equals(afresh)).toBe(true);
    expect(high.runs).toBe(1);
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
