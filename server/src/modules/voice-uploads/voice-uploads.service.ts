import {
  CUSTOM_VOICE_NAME_MAX,
  CUSTOM_VOICES_URL_PREFIX,
  PLAN_TABLE,
  VOICE_UPLOAD_MAX_BYTES,
  hasVoiceExtension,
  isCustomVoiceId,
  type CustomVoice,
  type Language,
  type PlanLimits,
  type VoiceAnalysis,
  type VoiceUploadFormat,
} from '@alma/protocol';
import type { Readable } from 'node:stream';
import type { VoiceSample } from '../../engines/speech/types.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import type { CustomVoiceRecord, CustomVoiceRepository, UserRepository } from '../../storage/types.ts';
import {
  createLocalAnalysisQueue,
  createSampleAnalyser,
  type AnalysisQueue,
  type AnalysisQueueDeps,
} from './analysis-jobs.ts';
import { deriveVoice } from './analysis.ts';
import { sampleFormat } from './sample-audio.ts';
import { createMemoryUploadSlots, type UploadSlots } from './upload-slots.ts';

export interface VoiceUploadsDeps {
  users: Pick<UserRepository, 'findById'>;
  voices: CustomVoiceRepository;
  /** Where samples are kept: DATA_DIR/custom-voices. */
  blobs: BlobStore;
  newId: IdGenerator;
  clock: Clock;
  log: Log;
  /** The `ffmpeg` that decodes MP3/AAC/Vorbis for the analysis; null: none. Default: on PATH. */
  ffmpeg?: string | null;
  /**
   * Bytes of the user's other uploads (custom avatars) that count against the plan's total
   * storage with the voices (spec §3: storage is split into avatar and voice storage).
   */
  otherStorageBytes?: (userId: string) => Promise<number>;
  /** The user's other uploads in progress (custom avatars): they share the concurrent-upload slots. */
  otherProcessingUploads?: (userId: string) => Promise<number>;
  /** Where the slots of uploads in progress are counted; default: this process (no REDIS_URL). */
  slots?: UploadSlots;
  /** Analyses run at once on this instance (VOICE_JOB_WORKERS); default 1. */
  workers?: number;
  /** This process among instances (its analysis jobs' lease). */
  instanceId?: string;
  /** Where analyses wait and who runs them; default: this process alone (M-9). */
  analysisQueue?: (deps: AnalysisQueueDeps) => AnalysisQueue;
  /** How long an upload waits for its analysis, queue included; default VOICE_ANALYSIS_LIMIT_MS. */
  analysisLimitMs?: number;
}

/** How long an upload waits for its analysis (VU-1): a sample analyses in about a second. */
export const VOICE_ANALYSIS_LIMIT_MS = 60_000;

/**
 * A sample without a voice record this old was left behind (VU-10): its upload is long over,
 * since one waits at most for its analysis (`analysisLimitMs`) between writing the sample and
 * recording the voice. Ten minutes, or twice that limit when it is set longer.
 */
export const ORPHAN_SAMPLE_MIN_AGE_MS = 10 * 60_000;
/** How often the sweep runs after the one at start. */
export const ORPHAN_SWEEP_INTERVAL_MS = 60 * 60_000;
/** Old samples the sweep asks the store about in one query. */
export const ORPHAN_SWEEP_BATCH = 500;

export interface VoiceUploadInput {
  data: Uint8Array;
  fileName: string;
  name?: string | undefined;
  description?: string | undefined;
  language: Language;
}

const MIME: Record<VoiceUploadFormat, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
};

const WARNING_TEXT: Record<Language, Record<VoiceAnalysis['warnings'][number] | 'approximation', string>> = {
  es: {
    approximation:
      'La voz integrada habla con una aproximación de tu voz (tono y ritmo), no con tu voz real.',
    too_quiet: 'La grabación está muy baja: una muestra más alta se analiza mejor.',
    clipping: 'La grabación satura (distorsiona): grábala con menos volumen.',
    short: 'La muestra es corta: con al menos 10 segundos de habla el análisis es más fiable.',
    no_pitch: 'No se encontró el tono de la voz: se usan valores neutros.',
    not_decoded:
      'Este formato no se puede analizar en este servidor: se usan valores neutros hasta que se instale ffmpeg.',
  },
  en: {
    approximation:
      'The builtin voice speaks an approximation of your voice (pitch and pace), not your real voice.',
    too_quiet: 'The recording is very quiet: a louder sample analyses better.',
    clipping: 'The recording clips (distorts): record it at a lower volume.',
    short: 'The sample is short: with at least 10 seconds of speech the analysis is more reliable.',
    no_pitch: 'No voice pitch was found: neutral values are used.',
    not_decoded:
      'This format cannot be analysed on this server: neutral values are used until ffmpeg is installed.',
  },
};

/** A user's upload in progress counts against the plan's concurrent uploads (spec §5). */
export function createVoiceUploadsService(deps: VoiceUploadsDeps) {
  const { voices, blobs } = deps;
  const slots = deps.slots ?? createMemoryUploadSlots();

  async function readSample(file: string): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    for await (const chunk of blobs.read(file)) chunks.push(chunk as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  }

  // VU-3, M-9: each analysis is a job on a worker thread, here or on any instance.
  const workers = deps.workers ?? 1;
  const analyser = createSampleAnalyser({ ffmpeg: deps.ffmpeg, threads: Math.max(1, workers) });
  const analyses = (deps.analysisQueue ?? createLocalAnalysisQueue)({
    instanceId: deps.instanceId ?? 'local',
    workers,
    run: async (job, limitMs, signal) => {
      const data = await readSample(job.file).catch(() => null);
      if (!data) return { ok: false, code: 'server_error', detail: `sample ${job.file} not found` };
      return analyser.analyse(data, { timeoutMs: limitMs, signal });
    },
    discard: async (job) => {
      await blobs.delete(job.file).catch(() => false);
    },
  });

  const limitMs = deps.analysisLimitMs ?? VOICE_ANALYSIS_LIMIT_MS;

  /**
   * Removes the samples no voice record names (VU-10): an instance stopped between writing a
   * sample and recording its voice (killed mid-analysis), or between removing a voice's record and
   * its sample (VU-7), leaves one that nothing would ever count, list or delete. Only samples
   * older than any upload can still be in progress are touched, so an upload under way on this
   * or another instance keeps its sample. Returns how many were removed.
   */
  async function sweepOrphans(): Promise<number> {
    const cutoff = deps.clock().getTime() - Math.max(ORPHAN_SAMPLE_MIN_AGE_MS, 2 * limitMs);
    // Only what an upload writes (`<voice id>.<format>`), old enough: anything else is not ours.
    const old: { name: string; id: string }[] = [];
    for (const info of await blobs.list()) {
      if (info.createdAt.getTime() >= cutoff) continue;
      const id = info.name.slice(0, info.name.indexOf('.'));
      if (isCustomVoiceId(id)) old.push({ name: info.name, id });
    }
    let removed = 0;
    // The store is asked about a batch of samples at once: one query, not one per sample.
    for (let at = 0; at < old.length; at += ORPHAN_SWEEP_BATCH) {
      const batch = old.slice(at, at + ORPHAN_SWEEP_BATCH);
      const recorded = await voices.existing(batch.map((sample) => sample.id));
      for (const { name, id } of batch) if (!recorded.has(id) && (await blobs.delete(name))) removed += 1;
    }
    if (removed > 0) deps.log.info({ removed }, 'custom voice samples without a voice removed');
    return removed;
  }
  let sweeping: NodeJS.Timeout | null = null;

  function toCustomVoice(record: CustomVoiceRecord): CustomVoice {
    return {
      id: record.id,
      name: record.name,
      description: record.description,
      category: record.category,
      language: record.language,
      gender: record.gender,
      file: record.file,
      previewUrl: `${CUSTOM_VOICES_URL_PREFIX}${encodeURIComponent(record.userId)}/${record.file}`,
      recommended: false,
      favorite: false,
      recent: false,
      isCustom: true,
      userId: record.userId,
      format: record.format,
      originalName: record.originalName,
      size: record.size,
      createdAt: record.createdAt,
      analysis: record.analysis,
      speech: record.speech,
      approximation: true,
    };
  }

  async function limitsOf(userId: string): Promise<PlanLimits> {
    const user = await deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', { detail: `no user ${userId}` });
    return PLAN_TABLE[user.plan].limits;
  }

  /** Takes one of the plan's concurrent upload slots, or refuses (spec §5). */
  async function acquire(userId: string): Promise<{ limits: PlanLimits; release: () => Promise<void> }> {
    const limits = await limitsOf(userId);
    const other = deps.otherProcessingUploads ? await deps.otherProcessingUploads(userId) : 0;
    const taken = await slots.take(userId, limits.maxConcurrentUploads, other);
    if (!taken.ok)
      throw new AppError('upload_concurrency_limit', {
        detail: `${taken.busy}/${limits.maxConcurrentUploads}`,
      });
    return { limits, release: taken.release };
  }

  /**
   * The plan checks of spec §5 in its order — feature, count, file size, total storage — then
   * the content: sniffed format (VU-2) and an audio file name. The sample is then stored and its
   * analysis queued (the whole structure, decoding and measures: VU-3, M-9); the voice is recorded
   * once the outcome is back. A refusal, a failure or the limit passing removes the sample.
   */
  async function upload(
    userId: string,
    limits: PlanLimits,
    input: VoiceUploadInput,
  ): Promise<{ voice: CustomVoice; warnings: string[] }> {
    const { data } = input;
    if (!limits.features.includes('custom_voices')) throw new AppError('upload_feature_not_included');
    const used = await voices.usage(userId);
    if (used.count >= limits.maxCustomVoices)
      throw new AppError('voice_limit_reached', { detail: `${used.count}/${limits.maxCustomVoices}` });
    if (data.length > Math.min(limits.maxVoiceFileSize, VOICE_UPLOAD_MAX_BYTES))
      throw new AppError('voice_file_too_large', { detail: `${data.length} bytes` });
    const other = deps.otherStorageBytes ? await deps.otherStorageBytes(userId) : 0;
    if (used.bytes + other + data.length > limits.maxTotalStorage)
      throw new AppError('upload_storage_full', {
        detail: `${used.bytes + other} + ${data.length} > ${limits.maxTotalStorage}`,
      });

    const format = sampleFormat(data);
    if (!format)
      throw new AppError('voice_format_invalid', { detail: 'content is not WAV, MP3, M4A or OGG' });
    if (!hasVoiceExtension(input.fileName))
      throw new AppError('voice_format_invalid', { detail: `file name ${JSON.stringify(input.fileName)}` });
    const id = `custom-${deps.newId()}`;
    const file = `${id}.${format}`;
    await blobs.put(file, data);
    try {
      const outcome = await analyses.analyse({ id, userId, file }, limitMs);
      if (!outcome.ok) throw new AppError(outcome.code, { detail: outcome.detail });
      return await record({ id, file, format, userId, input, analysis: outcome.analysis });
    } catch (error) {
      await blobs.delete(file).catch(() => false);
      throw error;
    }
  }

  /** Records an analysed voice whose sample is stored (VU-4, VU-5). */
  async function record(voice: {
    id: string;
    file: string;
    format: VoiceUploadFormat;
    userId: string;
    input: VoiceUploadInput;
    analysis: VoiceAnalysis;
  }): Promise<{ voice: CustomVoice; warnings: string[] }> {
    const { id, file, format, userId, input, analysis } = voice;
    const derived = deriveVoice(analysis);
    const baseName = input.fileName.replace(/\.[^.]*$/, '').trim();
    const name = (input.name?.trim() || baseName || 'Mi voz').slice(0, CUSTOM_VOICE_NAME_MAX);
    const record: CustomVoiceRecord = {
      id,
      userId,
      name,
      description: input.description?.trim() || describe(analysis, input.language),
      category: derived.category,
      language: input.language === 'en' ? 'inglés' : 'español',
      gender: derived.gender,
      format,
      originalName: input.fileName.slice(0, 200),
      file,
      size: input.data.length,
      createdAt: deps.clock().toISOString(),
      analysis,
      speech: derived.speech,
    };
    await voices.insert(record);
    const text = WARNING_TEXT[input.language];
    return {
      voice: toCustomVoice(record),
      warnings: [text.approximation, ...analysis.warnings.map((w) => text[w])],
    };
  }

  return {
    /** Runs one upload inside a concurrent-upload slot; `read` streams the body under `maxBytes`. */
    async withSlot<T>(userId: string, run: (limits: PlanLimits) => Promise<T>): Promise<T> {
      const slot = await acquire(userId);
      try {
        return await run(slot.limits);
      } finally {
        await slot.release();
      }
    },

    upload,

    /**
     * After start: the analysis queue's heartbeat and recovery (M-9), and the sweep of samples
     * left without a voice (VU-10), now and every `ORPHAN_SWEEP_INTERVAL_MS`.
     */
    async start(): Promise<void> {
      await analyses.start();
      const sweep = () => {
        sweepOrphans().catch((err: unknown) => deps.log.error({ err }, 'custom voice sample sweep failed'));
      };
      sweep();
      sweeping = setInterval(sweep, ORPHAN_SWEEP_INTERVAL_MS);
      sweeping.unref();
    },
    sweepOrphans,
    /** Stops analysing and ends the analysis threads (shutdown). */
    close: async () => {
      if (sweeping) clearInterval(sweeping);
      await analyses.close();
      await analyser.close();
    },
    /** The analysis queue as this instance sees it (`/health`). */
    jobs: () => analyses.state(),

    async list(userId: string): Promise<CustomVoice[]> {
      return (await voices.listForUser(userId)).map(toCustomVoice);
    },

    async find(userId: string, id: string): Promise<CustomVoice | null> {
      if (!isCustomVoiceId(id)) return null;
      const record = await voices.find(userId, id);
      return record ? toCustomVoice(record) : null;
    },

    /** Own voices only: anyone else's, like an unknown id, is `not_found` (VU-7). */
    async remove(userId: string, id: string): Promise<void> {
      const record = isCustomVoiceId(id) ? await voices.find(userId, id) : null;
      if (!record || !(await voices.delete(userId, id))) throw new AppError('not_found');
      await blobs.delete(record.file).catch((error: unknown) => {
        deps.log.warn({ err: error, file: record.file }, 'custom voice sample not removed');
        return false;
      });
    },

    /** What a reply speaks with for this custom voice (VU-8), or null when it is not the user's. */
    async speechOf(
      userId: string,
      voiceId: string,
    ): Promise<{ variant: string; pitch: number; rate: number; sample: VoiceSample } | null> {
      const record = isCustomVoiceId(voiceId) ? await voices.find(userId, voiceId) : null;
      if (!record) return null;
      return {
        ...record.speech,
        sample: {
          id: record.id,
          mimeType: MIME[record.format],
          read: () => readSample(record.file),
        },
      };
    },

    /** A sample to serve at `/api/voices/custom/<userId>/<file>` (VU-9), or null. */
    async sample(
      userId: string,
      file: string,
    ): Promise<{ stream: Readable; mimeType: string; size: number } | null> {
      const match = /^(custom-[0-9a-f-]{36})\.(wav|mp3|m4a|ogg)$/.exec(file);
      if (!match?.[1]) return null;
      const record = await voices.find(userId, match[1]);
      if (!record || record.file !== file) return null;
      const info = await blobs.stat(file);
      if (!info) return null;
      return { stream: blobs.read(file), mimeType: MIME[record.format], size: info.size };
    },

    /** The figures subscription limits report for voices (spec §3). */
    async usage(userId: string): Promise<{
      customVoices: number;
      voiceStorageBytes: number;
      currentProcessingUploads: number;
    }> {
      const used = await voices.usage(userId);
      return {
        customVoices: used.count,
        voiceStorageBytes: used.bytes,
        currentProcessingUploads: await slots.held(userId),
      };
    },
  };
}

function describe(analysis: VoiceAnalysis, language: Language): string {
  const pitch = analysis.pitchHz === null ? null : `${Math.round(analysis.pitchHz)} Hz`;
  if (language === 'en')
    return pitch
      ? `Your uploaded voice (approximation), pitch about ${pitch}.`
      : 'Your uploaded voice (approximation).';
  return pitch ? `Tu voz subida (aproximación), tono de unos ${pitch}.` : 'Tu voz subida (aproximación).';
}

export type VoiceUploadsService = ReturnType<typeof createVoiceUploadsService>;
