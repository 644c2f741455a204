import {
  VOICE_CATEGORIES,
  VOICE_GENDERS,
  VOICE_ID_PATTERN,
  VOICE_LANGUAGES,
  VoiceSchema,
} from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { createEspeakWorker } from '../../engines/speech/espeak-ng.ts';
import { AVATAR_VOICES, LANGUAGE_CODE, SYSTEM_VOICES, findSystemVoice } from './catalogue.ts';
import { toVoice } from './voices.service.ts';

const SYSTEM_AVATARS = ['golem', 'witch', 'elf', 'robot', 'samuraiF', 'deerWoman', 'vampireF', 'robotina'];
/** The ids the client's onboarding offers. */
const ONBOARDING_IDS = ['es-lucia', 'es-mateo', 'es-alex', 'en-emma', 'en-oliver', 'en-river'];

describe('V-1 the system voice catalogue', () => {
  it('has the 25 entries of spec §3, with unique stable ids', () => {
    expect(SYSTEM_VOICES).toHaveLength(25);
    const ids = SYSTEM_VOICES.map((v) => v.id);
    expect(new Set(ids).size).toBe(25);
    for (const id of ids) expect(id).toMatch(VOICE_ID_PATTERN);
    for (const id of ONBOARDING_IDS) expect(findSystemVoice(id), id).toBeDefined();
  });

  it('gives every voice every §3 field, with the spec values', () => {
    for (const system of SYSTEM_VOICES) {
      const voice = VoiceSchema.parse(toVoice(system));
      expect(voice.name.length, voice.id).toBeGreaterThan(1);
      expect(voice.description.length, voice.id).toBeGreaterThan(10);
      expect(VOICE_CATEGORIES).toContain(voice.category);
      expect(VOICE_LANGUAGES).toContain(voice.language);
      expect(VOICE_GENDERS).toContain(voice.gender);
      expect(voice.file).toBe(`${voice.id}.mp3`);
      expect(voice.previewUrl).toBe(`/system-voices/${voice.id}.mp3`);
      expect(voice).toMatchObject({ favorite: false, recent: false, isCustom: false });
      // The id's prefix, the language and the espeak voice agree.
      const code = LANGUAGE_CODE[voice.language];
      expect(voice.id.startsWith(`${code}-`), voice.id).toBe(true);
      expect(system.espeak.voice.startsWith(code), voice.id).toBe(true);
    }
  });

  it('covers every category in both languages, and recommends some', () => {
    for (const category of VOICE_CATEGORIES) {
      for (const language of VOICE_LANGUAGES) {
        expect(SYSTEM_VOICES.some((v) => v.category === category && v.language === language)).toBe(true);
      }
    }
    const recommended = SYSTEM_VOICES.filter((v) => v.recommended).map((v) => v.id);
    expect(recommended.sort()).toEqual([...ONBOARDING_IDS].sort());
  });

  it('makes each a distinct builtin voice (espeak voice + variant, pitch, rate)', () => {
    const keys = SYSTEM_VOICES.map((v) => `${v.espeak.voice}|${v.espeak.pitch}|${v.espeak.rate}`);
    expect(new Set(keys).size).toBe(25);
    for (const { id, espeak } of SYSTEM_VOICES) {
      expect(espeak.pitch, id).toBeGreaterThanOrEqual(0);
      expect(espeak.pitch, id).toBeLessThanOrEqual(99);
      expect(espeak.rate, id).toBeGreaterThanOrEqual(80);
      expect(espeak.rate, id).toBeLessThanOrEqual(450);
    }
  });

  it('names only voices espeak-ng has (no silent fallback to the language default)', async () => {
    const espeak = await createEspeakWorker();
    for (const { id, espeak: params } of SYSTEM_VOICES) {
      expect(espeak.set_voice(params.voice), `${id}: ${params.voice}`).toBe(0);
    }
  });

  it('recommends existing voices for each of the eight system avatars', () => {
    expect(Object.keys(AVATAR_VOICES).sort()).toEqual([...SYSTEM_AVATARS].sort());
    for (const ids of Object.values(AVATAR_VOICES)) {
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(findSystemVoice(id), id).toBeDefined();
    }
    expect(findSystemVoice(AVATAR_VOICES.witch![0]!)).toMatchObject({
      category: 'femenina',
      language: 'español',
    });
    expect(findSystemVoice(AVATAR_VOICES.golem![0]!)).toMatchObject({
      category: 'masculina',
      language: 'español',
    });
  });
});
