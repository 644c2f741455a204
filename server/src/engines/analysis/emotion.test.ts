import { describe, expect, it } from 'vitest';
import type { Emotion, Language } from '@alma/protocol';
import { analyzeEmotion, chooseGesture } from './emotion.ts';
import evaluation from './emotion-eval.json' with { type: 'json' };
import freshEvaluation from './emotion-eval-fresh.json' with { type: 'json' };

interface Labelled {
  text: string;
  emotion: Emotion;
}

describe('analyzeEmotion', () => {
  it.each([
    ['es', 'Estoy muy feliz hoy', 'happy'],
    ['es', 'Me siento triste', 'sad'],
    ['es', 'no estoy feliz', 'sad'],
    ['es', 'Tengo miedo', 'fearful'],
    ['en', "I'm so happy", 'happy'],
    ['en', 'not happy at all', 'sad'],
    ['en', 'I am furious', 'angry'],
    ['en', 'I feel calm', 'calm'],
    ['en', 'The meeting is at noon', 'neutral'],
    ['es', 'La reunión es a mediodía', 'neutral'],
  ] as const)('reads %s %j as %s', (language, text, emotion) => {
    expect(analyzeEmotion(text, language).emotion).toBe(emotion);
  });

  it('grows stronger with an intensifier and exclamation marks', () => {
    const plain = analyzeEmotion('estoy enfadado', 'es');
    const strong = analyzeEmotion('¡estoy muy enfadado!', 'es');
    expect(strong.emotion).toBe('angry');
    expect(strong.intensity).toBeGreaterThan(plain.intensity);
  });

  it('turns joy into excitement with several exclamation marks', () => {
    expect(analyzeEmotion('so happy!!!', 'en').emotion).toBe('excited');
  });

  it('keeps intensity and confidence between 0 and 1', () => {
    for (const text of ['', '!!!!!', 'MUY MUY MUY FELIZ FELIZ FELIZ!!!!', '😭😭😭😭😭']) {
      const result = analyzeEmotion(text, 'es');
      for (const value of [result.intensity, result.confidence]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
  });

  // Held-out sets, never used to tune the lexicon (see their `_about`). The accuracy is printed for
  // the record; the test only asks for more than always answering the most common label.
  const sets = [
    ['emotion-eval', evaluation],
    ['emotion-eval-fresh', freshEvaluation],
  ] as const;
  describe.each(sets)('held-out set %s', (name, data) => {
    it.each(['es', 'en'] as const)('beats the majority-class baseline in %s', (language: Language) => {
      const set = (data as unknown as Record<Language, Labelled[]>)[language];
      expect(set.length).toBeGreaterThanOrEqual(40);
      const correct = set.filter(
        (item) => analyzeEmotion(item.text, language).emotion === item.emotion,
      ).length;
      const counts = new Map<Emotion, number>();
      for (const item of set) counts.set(item.emotion, (counts.get(item.emotion) ?? 0) + 1);
      const majority = Math.max(...counts.values());
      console.info(
        `emotion lexicon, ${name} (${language}): ${correct}/${set.length} = ` +
          `${((correct / set.length) * 100).toFixed(1)}% (majority baseline ${((majority / set.length) * 100).toFixed(1)}%)`,
      );
      expect(correct).toBeGreaterThan(majority);
    });
  });
});

describe('chooseGesture', () => {
  it('follows an explicit intent first', () => {
    expect(chooseGesture({ emotion: 'happy', intensity: 0.6, intent: 'greeting' })).toBe('greeting');
    expect(chooseGesture({ emotion: 'calm', intensity: 0.5, intent: 'farewell' })).toBe('goodbye');
    expect(chooseGesture({ emotion: 'calm', intensity: 0.5, intent: 'comfort' })).toBe('comforting');
    expect(chooseGesture({ emotion: 'calm', intensity: 0.9, intent: 'comfort' })).toBe('kneeling');
  });

  it('reads cues from text when no intent is given', () => {
    expect(chooseGesture({ emotion: 'happy', intensity: 0.5, text: '¡Hola, Ana!' })).toBe('greeting');
    expect(chooseGesture({ emotion: 'neutral', intensity: 0.2, text: 'Hasta mañana.' })).toBe('goodbye');
    expect(chooseGesture({ emotion: 'happy', intensity: 0.5, text: 'jajaja qué bueno' })).toBe('laughing');
    expect(chooseGesture({ emotion: 'neutral', intensity: 0.2, text: 'What do you think?' })).toBe(
      'thinking',
    );
  });

  it('falls back to the emotion', () => {
    expect(chooseGesture({ emotion: 'excited', intensity: 0.7, text: 'We did it' })).toBe('celebration');
    expect(chooseGesture({ emotion: 'sad', intensity: 0.5, text: 'That is hard' })).toBe('comforting');
    expect(
      chooseGesture({ emotion: 'neutral', intensity: 0.2, text: 'The train leaves at eight' }),
    ).toBeNull();
  });
});
