import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDiskBlobStore } from '../../storage/blobs.ts';
import { openEmbeddedStorage } from '../../storage/embedded/index.ts';
import type { Storage } from '../../storage/types.ts';
import { testUser } from '../../test-support/embedded-store.ts';
import { mp3Of, tone, wavOf } from '../../test-support/voice-samples.ts';
import {
  createVoiceUploadsService,
  ORPHAN_SWEEP_BATCH,
  type VoiceUploadsDeps,
} from './voice-uploads.service.ts';

/** The plan checks of spec §5 that the REST tests cannot reach cheaply (SPEC.md VU-5). */
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
let storage: Storage;
let dir: string;
let n = 0;
const wav = wavOf(tone({ f0: 200, seconds: 1 }), 16_000);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alma-vu-service-'));
  storage = openEmbeddedStorage({ file: ':memory:' });
  await storage.users.create(testUser({ id: 'u1' }));
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

function service(
  otherStorageBytes = 0,
  otherProcessingUploads = 0,
  ffmpeg?: null,
  more: Partial<VoiceUploadsDeps> = {},
) {
  return createVoiceUploadsService({
    ffmpeg,
    users: storage.users,
    voices: storage.customVoices,
    blobs: createDiskBlobStore(dir),
    newId: () => `0193a1b2-0000-7000-8000-${String(++n).padStart(12, '0')}`,
    clock: () => new Date('2026-11-22T12:00:00Z'),
    log: silent,
    otherStorageBytes: async () => otherStorageBytes,
    otherProcessingUploads: async () => otherProcessingUploads,
    ...more,
  });
}

describe('VU-5 plan checks', () => {
  it('one upload at a time on the free plan: a second while the first runs is refused', async () => {
    const s = service();
    let release!: () => void;
    const first = s.withSlot('u1', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(s.withSlot('u1', async () => 'second')).rejects.toMatchObject({
      code: 'upload_concurrency_limit',
    });
    expect((await s.usage('u1')).currentProcessingUploads).toBe(1);
    release();
    await first;
    expect(await s.withSlot('u1', async () => 'after')).toBe('after');
    expect((await s.usage('u1')).currentProcessingUploads).toBe(0);
  });

  it('an avatar being processed takes the slot too', async () => {
    await expect(service(0, 1).withSlot('u1', async () => 'x')).rejects.toMatchObject({
      code: 'upload_concurrency_limit',
    });
  });

  it('counts other uploads (avatars) against the total storage', async () => {
    const s = service(100 * 1024 * 1024 - 100);
    const limits = await s.withSlot('u1', async (l) => l);
    await expect(
      s.upload('u1', limits, { data: wav, fileName: 'a.wav', language: 'es' }),
    ).rejects.toMatchObject({
      code: 'upload_storage_full',
    });
    expect(await s.list('u1')).toEqual([]);
  });

  it('refuses a plan without custom_voices', async () => {
    const s = service();
    const limits = await s.withSlot('u1', async (l) => ({ ...l, features: [] }));
    await expect(
      s.upload('u1', limits, { data: wav, fileName: 'a.wav', language: 'es' }),
    ).rejects.toMatchObject({
      code: 'upload_feature_not_included',
    });
  });

  it('stores the sample and the record, and answers the voice with its speech params', async () => {
    const s = service();
    const limits = await s.withSlot('u1', async (l) => l);
    const { voice, warnings } = await s.upload('u1', limits, {
      data: wav,
      fileName: 'Hola.WAV',
      language: 'en',
    });
    expect(voice).toMatchObject({ name: 'Hola', language: 'inglés', isCustom: true, approximation: true });
    expect(warnings[0]).toMatch(/approximation/);
    expect(await s.speechOf('u1', voice.id)).toMatchObject({ variant: voice.speech.variant });
    expect(await s.speechOf('u2', voice.id)).toBeNull();
    expect(await s.usage('u1')).toMatchObject({ customVoices: 1, voiceStorageBytes: wav.length });
  });
});

describe('VU-3 without ffmpeg', () => {
  it('keeps an MP3 checked whole but not analysed: decoded false, neutral voice, the warning said', async () => {
    const s = service(0, 0, null);
    const limits = await s.withSlot('u1', async (l) => l);
    const mp3 = mp3Of(tone({ f0: 220, seconds: 3 }));
    const { voice, warnings } = await s.upload('u1', limits, {
      data: mp3,
      fileName: 'a.mp3',
      language: 'es',
    });
    expect(voice.format).toBe('mp3');
    expect(voice.analysis).toMatchObject({ decoded: false, pitchHz: null, rmsDb: null });
    expect(Math.abs(voice.analysis.durationMs - 3000)).toBeLessThan(100);
    expect(voice.analysis.warnings).toContain('not_decoded');
    expect(voice.speech).toEqual({ variant: '+klatt', pitch: 50, rate: 170 });
    expect(warnings).toContain(
      'Este formato no se puede analizar en este servidor: se usan valores neutros hasta que se instale ffmpeg.',
    );
    await expect(
      s.upload('u1', limits, { data: mp3.subarray(0, 5000), fileName: 'b.mp3', language: 'es' }),
    ).rejects.toMatchObject({ code: 'voice_file_damaged' });
  });
});

describe('VU-10 samples left without a voice', () => {
  /** A sample written `minutesAgo` before the service's clock (12:00 UTC), as the disk store keeps it. */
  function sampleFile(name: string, minutesAgo: number): string {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, wav);
    const at = new Date(Date.parse('2026-11-22T12:00:00Z') - minutesAgo * 60_000);
    utimesSync(path, at, at);
    return name;
  }
  const id = (k: number) => `custom-0193a1b2-0000-7000-8000-${String(900 + k).padStart(12, '0')}`;

  it('removes an old sample no voice names, and keeps recorded, recent and foreign files', async () => {
    const s = service();
    const limits = await s.withSlot('u1', async (l) => l);
    const { voice } = await s.upload('u1', limits, {
      data: wav,
      fileName: 'mi voz.wav',
      language: 'es',
    });
    utimesSync(join(dir, voice.file), new Date(0), new Date(0)); // recorded long ago: kept
    const orphan = sampleFile(`${id(1)}.wav`, 11); // killed mid-analysis 11 minutes ago
    const young = sampleFile(`${id(2)}.ogg`, 2); // an upload maybe still being analysed elsewhere
    const foreign = sampleFile('notes.txt', 60 * 24); // not a sample's name: not ours
    expect(await s.sweepOrphans()).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([voice.file, young, foreign].sort());
    expect(readdirSync(dir)).not.toContain(orphan);
    expect(await s.find('u1', voice.id)).toMatchObject({ id: voice.id });
  });

  it('asks the store about the old samples a batch at a time, not one query each', async () => {
    const existing = vi.fn(storage.customVoices.existing);
    const s = service(0, 0, undefined, { voices: { ...storage.customVoices, existing } });
    const limits = await s.withSlot('u1', async (l) => l);
    const { voice } = await s.upload('u1', limits, { data: wav, fileName: 'mi voz.wav', language: 'es' });
    utimesSync(join(dir, voice.file), new Date(0), new Date(0));
    const orphans = ORPHAN_SWEEP_BATCH + 1;
    for (let k = 0; k < orphans; k++) sampleFile(`${id(10 + k)}.wav`, 60);
    expect(await s.sweepOrphans()).toBe(orphans);
    expect(readdirSync(dir)).toEqual([voice.file]);
    expect(existing).toHaveBeenCalledTimes(2);
    expect(existing.mock.calls.map(([ids]) => ids.length).sort((a, b) => a - b)).toEqual([
      2,
      ORPHAN_SWEEP_BATCH,
    ]);
  });

  it('leaves a sample alone for twice the analysis limit when that is longer than ten minutes', async () => {
    const s = service(0, 0, undefined, { analysisLimitMs: 15 * 60_000 });
    sampleFile(`${id(3)}.wav`, 20);
    sampleFile(`${id(4)}.wav`, 31);
    expect(await s.sweepOrphans()).toBe(1);
    expect(readdirSync(dir)).toEqual([`${id(3)}.wav`]);
  });

  it('runs when the service starts, so a restart after a kill cleans up', async () => {
    const s = service();
    sampleFile(`${id(5)}.m4a`, 90);
    await s.start();
    try {
      await vi.waitFor(() => expect(readdirSync(dir)).toEqual([]));
    } finally {
      await s.close();
    }
  });
});
