import {
  SYSTEM_VOICES_URL_PREFIX,
  fieldMessage,
  isSystemVoiceFile,
  type Language,
  type Preferences,
  type Voice,
} from '@alma/protocol';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { SpeechSynthesizer } from '../../engines/speech/types.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  AVATAR_VOICES,
  LANGUAGE_CODE,
  PREVIEW_SENTENCES,
  SYSTEM_VOICES,
  findSystemVoice,
  type SystemVoice,
} from './catalogue.ts';

/** The wire shape of a system voice (V-2): favourites and recents are the client's (spec §3). */
export function toVoice(voice: SystemVoice): Voice {
  const file = `${voice.id}.mp3`;
  return {
    id: voice.id,
    name: voice.name,
    description: voice.description,
    category: voice.category,
    language: voice.language,
    gender: voice.gender,
    file,
    previewUrl: `${SYSTEM_VOICES_URL_PREFIX}${file}`,
    recommended: voice.recommended,
    favorite: false,
    recent: false,
    isCustom: false,
  };
}

/** What a preview's bytes depend on, hashed: a changed voice or sentence gets a new cache file. */
export function previewVersion(voice: SystemVoice): string {
  const text = PREVIEW_SENTENCES[LANGUAGE_CODE[voice.language]](voice.name);
  return createHash('sha256')
    .update(JSON.stringify([voice.espeak, text]))
    .digest('hex')
    .slice(0, 12);
}

/** Speaks one voice's preview sentence and encodes it as one MP3 (V-5). */
export async function renderPreview(synthesizer: SpeechSynthesizer, voice: SystemVoice): Promise<Uint8Array> {
  const language = LANGUAGE_CODE[voice.language];
  const result = await synthesizer.synthesize({
    text: PREVIEW_SENTENCES[language](voice.name),
    language,
    voice: voice.espeak,
    signal: new AbortController().signal,
  });
  const file = await synthesizer.encodeFile(result.pcm, result.sampleRate);
  return file.data;
}

export interface VoicesServiceDeps {
  /** Only preferences are touched: `select` stores `defaultVoiceId`. */
  preferences: {
    updatePreferences(userId: string, patch: Partial<Preferences>): Promise<Preferences | null>;
  };
  /** The builtin synthesiser (previews are of builtin voices, whatever SPEECH_ENGINE says). */
  synthesizer: SpeechSynthesizer;
  /** Where generated previews are cached: DATA_DIR/system-voices. */
  previewDir: string;
  /** The user's uploaded voices (SPEC.md VU-8): listed beside the catalogue, selectable. */
  customVoices?: {
    list(userId: string): Promise<Voice[]>;
    find(userId: string, id: string): Promise<Voice | null>;
  };
}

export function createVoicesService(deps: VoicesServiceDeps) {
  const { preferences, synthesizer, previewDir } = deps;
  /** Previews being generated: concurrent first requests share one generation (V-5). */
  const generating = new Map<string, Promise<Uint8Array>>();
  let generated = 0;

  function mustFind(id: string): SystemVoice {
    const voice = findSystemVoice(id);
    if (!voice) throw new AppError('not_found', { detail: `no voice ${id}` });
    return voice;
  }

  async function generate(voice: SystemVoice, path: string): Promise<Uint8Array> {
    const data = await renderPreview(synthesizer, voice);
    await mkdir(previewDir, { recursive: true });
    // Written aside then renamed: a reader never sees half a file, even across processes.
    const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(temp, data);
      await rename(temp, path);
    } finally {
      await rm(temp, { force: true });
    }
    generated++;
    return data;
  }

  const service = {
    list(): Voice[] {
      return SYSTEM_VOICES.map(toVoice);
    },

    get(id: string): Voice {
      return toVoice(mustFind(id));
    },

    recommended(avatarId: string): Voice[] {
      const ids = Object.hasOwn(AVATAR_VOICES, avatarId) ? AVATAR_VOICES[avatarId] : undefined;
      if (!ids) return SYSTEM_VOICES.filter((v) => v.recommended).map(toVoice);
      return ids.map((id) => toVoice(mustFind(id)));
    },

    /** The catalogue followed by the user's own custom voices (VU-8). */
    async listFor(userId: string): Promise<Voice[]> {
      const custom = deps.customVoices ? await deps.customVoices.list(userId) : [];
      return [...service.list(), ...custom];
    },

    /** A catalogue voice, or one of the user's custom voices (VU-8); anything else `not_found`. */
    async getFor(userId: string, id: string): Promise<Voice> {
      const custom = deps.customVoices ? await deps.customVoices.find(userId, id) : null;
      return custom ?? service.get(id);
    },

    /** `language` is the caller's, for the field error's text. */
    async select(userId: string, voiceId: string, language: Language): Promise<Voice> {
      const custom = deps.customVoices ? await deps.customVoices.find(userId, voiceId) : null;
      if (custom) {
        const stored = await preferences.updatePreferences(userId, { defaultVoiceId: custom.id });
        if (!stored) throw new AppError('unauthorized');
        return custom;
      }
      const voice = findSystemVoice(voiceId);
      if (!voice) {
        throw new AppError('validation_failed', {
          fields: [{ field: 'voiceId', code: 'invalid', message: fieldMessage(language, 'invalid') }],
          detail: `no voice ${voiceId}`,
        });
      }
      const stored = await preferences.updatePreferences(userId, { defaultVoiceId: voice.id });
      if (!stored) throw new AppError('unauthorized');
      return toVoice(voice);
    },

    /**
     * A system preview's bytes and version, generated on first request and cached in
     * `previewDir` under `<id>-<version>.mp3` (V-5). Anything but `<catalogue id>.mp3` is
     * `not_found`.
     */
    async preview(file: string): Promise<{ data: Uint8Array; version: string }> {
      if (!isSystemVoiceFile(file)) throw new AppError('not_found');
      const voice = findSystemVoice(file.slice(0, -'.mp3'.length));
      if (!voice) throw new AppError('not_found');
      const version = previewVersion(voice);
      const key = `${voice.id}-${version}.mp3`;
      const path = join(previewDir, key);
      const cached = await readFile(path).catch(() => null);
      if (cached) return { data: new Uint8Array(cached), version };
      let pending = generating.get(key);
      if (!pending) {
        pending = generate(voice, path).finally(() => generating.delete(key));
        generating.set(key, pending);
      }
      return { data: await pending, version };
    },

    /** Generates every missing preview (the `voices:previews` script); answers how many were made. */
    async generateAll(): Promise<number> {
      const before = generated;
      for (const voice of SYSTEM_VOICES) await service.preview(`${voice.id}.mp3`);
      return generated - before;
    },

    /** Where previews are cached. */
    previewDir,

    /** Previews generated by this process (tests: "generated once"). */
    get generatedCount(): number {
      return generated;
    },
  };
  return service;
}

export type VoicesService = ReturnType<typeof createVoicesService>;
