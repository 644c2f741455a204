import { z } from 'zod';
import { defineRoute } from './define-route.ts';
import { VoiceSchema } from './voices.ts';

/**
 * Custom voices (spec §3 Voice, §5 Files, §7 "voice uploads"; SPEC.md VU-1…VU-9): a user uploads
 * a WAV, MP3, M4A or OGG sample of a voice; the server checks it by content, analyses it and
 * stores it. The builtin engine then speaks with parameters derived from the analysis — an
 * approximation, and the UI says so; a provider that clones voices receives the sample.
 */

/** Spec §5 / §9: a voice file is at most 10 MB (the plan's `maxVoiceFileSize` may say less). */
export const VOICE_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** The audio formats accepted, recognised by content (VU-2). */
export const VOICE_UPLOAD_FORMATS = ['wav', 'mp3', 'm4a', 'ogg'] as const;
export type VoiceUploadFormat = (typeof VOICE_UPLOAD_FORMATS)[number];
/** File-name extensions accepted for each format's family (VU-2: the name must be an audio name). */
export const VOICE_UPLOAD_EXTENSIONS = [
  'wav',
  'wave',
  'mp3',
  'm4a',
  'mp4',
  'aac',
  'ogg',
  'oga',
  'opus',
] as const;
/** What the client's file input offers. */
export const VOICE_UPLOAD_ACCEPT =
  '.wav,.mp3,.m4a,.ogg,.oga,.opus,audio/wav,audio/x-wav,audio/mpeg,audio/mp4,audio/x-m4a,audio/ogg';
/** The name a custom voice gets when the upload gives none is its file name, cut to this. */
export const CUSTOM_VOICE_NAME_MAX = 60;
/** A sample shorter than this has too little speech to analyse (VU-3). */
export const VOICE_UPLOAD_MIN_MS = 1000;

/** Custom voice ids: `custom-` and a UUIDv7, so they never collide with catalogue ids (V-1). */
export const CUSTOM_VOICE_ID_PATTERN = /^custom-[0-9a-f-]{36}$/;
export const isCustomVoiceId = (id: string): boolean => CUSTOM_VOICE_ID_PATTERN.test(id);
/** Where a custom voice's sample is served: `/api/voices/custom/<userId>/<file>` (spec §7). */
export const CUSTOM_VOICES_URL_PREFIX = '/api/voices/custom/';

/** True when the file name ends in one of the accepted audio extensions (case-insensitive). */
export function hasVoiceExtension(name: string): boolean {
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(name.trim())?.[1]?.toLowerCase();
  return ext !== undefined && (VOICE_UPLOAD_EXTENSIONS as readonly string[]).includes(ext);
}

/**
 * What the analysis of the sample found (VU-3). Figures the server could not compute — a format
 * it can demux but not decode, such as MP3 or AAC without ffmpeg — are null, and `decoded` says
 * whether the level, pitch and rate come from the actual samples.
 */
export const VoiceAnalysisSchema = z.object({
  durationMs: z.number().int().nonnegative(),
  decoded: z.boolean(),
  /** RMS level of the voiced part, dBFS (≤ 0). */
  rmsDb: z.number().nullable(),
  /** Peak level, dBFS. */
  peakDb: z.number().nullable(),
  /** Share of samples at or next to full scale, 0–1. */
  clippingRatio: z.number().nullable(),
  /** Median fundamental frequency of voiced frames, Hz. */
  pitchHz: z.number().nullable(),
  /** 10th–90th percentile of the voiced pitch, Hz. */
  pitchRangeHz: z.tuple([z.number(), z.number()]).nullable(),
  /** Syllable nuclei per second of speech (envelope peaks). */
  syllablesPerSecond: z.number().nullable(),
  /** Advice for the user (quiet, clipped, too short…), as codes the client translates. */
  warnings: z.array(z.enum(['too_quiet', 'clipping', 'short', 'no_pitch', 'not_decoded'])),
});
export type VoiceAnalysis = z.infer<typeof VoiceAnalysisSchema>;

/** The builtin engine's parameters derived from the analysis (VU-4). */
export const CustomVoiceSpeechSchema = z.object({
  /** An espeak variant (`+f3`, `+m2`, `+klatt`), added to the reply language's voice. */
  variant: z.string(),
  /** espeak pitch, 0–99. */
  pitch: z.number().int(),
  /** Words per minute. */
  rate: z.number().int(),
});
export type CustomVoiceSpeech = z.infer<typeof CustomVoiceSpeechSchema>;

/** A custom voice: the catalogue's shape with `isCustom: true`, plus what the upload produced. */
export const CustomVoiceSchema = VoiceSchema.extend({
  isCustom: z.literal(true),
  userId: z.string(),
  format: z.enum(VOICE_UPLOAD_FORMATS),
  /** The original file name as uploaded. */
  originalName: z.string(),
  size: z.number().int().nonnegative(),
  createdAt: z.string(),
  analysis: VoiceAnalysisSchema,
  speech: CustomVoiceSpeechSchema,
  /** Always true for the builtin engine: it speaks an approximation, not the uploaded voice. */
  approximation: z.boolean(),
});
export type CustomVoice = z.infer<typeof CustomVoiceSchema>;

const IdSchema = z.string({ error: 'required' }).min(1, 'required').max(64, 'invalid');

/**
 * `POST /api/upload/voice` is multipart/form-data: the file in `voice`, text fields `consent`
 * (`true`, required: VU-1), `name`, `description`, `language` (`es` or `en`). Like
 * `POST /message-audio` it is not in `allRoutes`: the JSON fuzzer would only meet a 415.
 */
export const voiceUploadRoutes = {
  upload: defineRoute({
    method: 'POST',
    path: '/api/upload/voice',
    auth: true,
    status: 201,
    response: z.object({
      success: z.literal(true),
      voice: CustomVoiceSchema,
      warnings: z.array(z.string()),
    }),
  }),
  /** The caller's own custom voices; another user's id is `forbidden` (VU-6). */
  list: defineRoute({
    method: 'GET',
    path: '/api/upload/voices/:userId',
    auth: true,
    params: z.object({ userId: IdSchema }),
    response: z.object({ success: z.literal(true), voices: z.array(CustomVoiceSchema) }),
  }),
  /** Deletes one of the caller's voices and its sample; anyone else's is `not_found` (VU-7). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/upload/voice/:id',
    auth: true,
    params: z.object({ id: IdSchema }),
    body: z.object({ userId: z.string().max(64, 'invalid').optional() }).optional(),
    response: z.object({ success: z.literal(true), message: z.string() }),
  }),
} as const;
