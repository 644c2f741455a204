import type { CustomVoiceSpeech, VoiceAnalysis, VoiceCategory, VoiceGender } from '@alma/protocol';
import { resample } from '../../audio/index.ts';

/**
 * What a voice sample sounds like, measured (SPEC.md VU-3), and the builtin engine's parameters
 * derived from it (VU-4). Level and clipping are read at the file's own rate; pitch (YIN) and the
 * syllable envelope on an 8 kHz copy, which keeps voices up to 500 Hz and costs a tenth.
 */

const ANALYSIS_RATE = 8000;
/** 32 ms windows every 20 ms for pitch; 10 ms frames for the envelope. */
const PITCH_WINDOW = 256;
const PITCH_HOP = 160;
const ENVELOPE_FRAME = 80;
const MIN_F0 = 60;
const MAX_F0 = 500;
const YIN_THRESHOLD = 0.15;
/** 30 s of voiced frames are plenty for a median; this bounds the cost of a long sample. */
const MAX_PITCH_FRAMES = 1500;
/** A sample at or above this magnitude counts as clipped. */
const CLIP_LEVEL = 0.999;
/** Frames quieter than this (dBFS), or 40 dB under the loudest, are silence. */
const SILENCE_DB = -50;
const SILENCE_BELOW_PEAK_DB = 40;
export const SHORT_SAMPLE_MS = 3000;
const QUIET_DB = -35;
const CLIPPING_WARN_RATIO = 0.001;

const toDb = (x: number) => (x > 0 ? 20 * Math.log10(x) : -120);
const round = (x: number, digits: number) => Number(x.toFixed(digits));

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.round((sorted.length - 1) * p)));
  return sorted[at] ?? NaN;
}

/** YIN on one window: the fundamental in Hz, or null when the window is not periodic enough. */
export function yinPitch(x: Float32Array, start: number, rate: number): number | null {
  const tauMin = Math.floor(rate / MAX_F0);
  const tauMax = Math.ceil(rate / MIN_F0);
  if (start + PITCH_WINDOW + tauMax > x.length) return null;
  const d = new Float32Array(tauMax + 1);
  for (let tau = 1; tau <= tauMax; tau++) {
    let sum = 0;
    for (let j = 0; j < PITCH_WINDOW; j++) {
      const diff = (x[start + j] ?? 0) - (x[start + j + tau] ?? 0);
      sum += diff * diff;
    }
    d[tau] = sum;
  }
  // Cumulative mean normalised difference.
  const cmnd = new Float32Array(tauMax + 1);
  cmnd[0] = 1;
  let running = 0;
  for (let tau = 1; tau <= tauMax; tau++) {
    running += d[tau] ?? 0;
    cmnd[tau] = running > 0 ? ((d[tau] ?? 0) * tau) / running : 1;
  }
  let tau = -1;
  for (let t = tauMin; t <= tauMax; t++) {
    if ((cmnd[t] ?? 1) < YIN_THRESHOLD) {
      while (t + 1 <= tauMax && (cmnd[t + 1] ?? 1) < (cmnd[t] ?? 1)) t++;
      tau = t;
      break;
    }
  }
  if (tau < 0) return null;
  // Parabolic interpolation around the minimum for sub-sample precision.
  const a = cmnd[tau - 1] ?? cmnd[tau] ?? 0;
  const b = cmnd[tau] ?? 0;
  const c = cmnd[tau + 1] ?? b;
  const denominator = a - 2 * b + c;
  const shift = denominator !== 0 ? (0.5 * (a - c)) / denominator : 0;
  const refined = tau + Math.max(-1, Math.min(1, shift));
  return rate / refined;
}

/** Frame RMS every 10 ms at the analysis rate. */
function envelope(x: Float32Array): Float32Array {
  const frames = Math.floor(x.length / ENVELOPE_FRAME);
  const out = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let j = 0; j < ENVELOPE_FRAME; j++) {
      const v = x[f * ENVELOPE_FRAME + j] ?? 0;
      sum += v * v;
    }
    out[f] = Math.sqrt(sum / ENVELOPE_FRAME);
  }
  return out;
}

/**
 * Syllable nuclei: peaks of the smoothed envelope (in dB) that stand at least 3 dB over the dip
 * before them, are above the silence floor and at least 100 ms apart; counted per second of
 * non-silent audio.
 */
function syllableRate(env: Float32Array, floorDb: number): number | null {
  const smooth = new Float32Array(env.length);
  for (let i = 0; i < env.length; i++) {
    let sum = 0;
    let n = 0;
    for (let j = Math.max(0, i - 2); j <= Math.min(env.length - 1, i + 2); j++) {
      sum += env[j] ?? 0;
      n++;
    }
    smooth[i] = toDb(sum / n);
  }
  let speechFrames = 0;
  for (const v of smooth) if (v > floorDb) speechFrames++;
  if (speechFrames < 20) return null;
  let peaks = 0;
  let lastPeak = -100;
  let dip = Infinity;
  for (let i = 1; i < smooth.length - 1; i++) {
    const v = smooth[i] ?? -120;
    dip = Math.min(dip, v);
    const isPeak = v >= (smooth[i - 1] ?? -120) && v > (smooth[i + 1] ?? -120);
    if (isPeak && v > floorDb && v - dip >= 3 && i - lastPeak >= 10) {
      peaks++;
      lastPeak = i;
      dip = v;
    }
  }
  return round(peaks / (speechFrames / 100), 2);
}

export function analyseVoice(
  pcm: Float32Array | null,
  sampleRate: number,
  durationMs: number,
): VoiceAnalysis {
  const warnings: VoiceAnalysis['warnings'] = [];
  if (durationMs < SHORT_SAMPLE_MS) warnings.push('short');
  if (!pcm || pcm.length === 0) {
    warnings.push('not_decoded');
    return {
      durationMs,
      decoded: false,
      rmsDb: null,
      peakDb: null,
      clippingRatio: null,
      pitchHz: null,
      pitchRangeHz: null,
      syllablesPerSecond: null,
      warnings,
    };
  }
  let peak = 0;
  let clipped = 0;
  for (const v of pcm) {
    const m = Math.abs(v);
    if (m > peak) peak = m;
    if (m >= CLIP_LEVEL) clipped++;
  }
  const x = resample(pcm, sampleRate, ANALYSIS_RATE);
  const env = envelope(x);
  const loudest = env.reduce((m, v) => Math.max(m, v), 0);
  const floorDb = Math.max(SILENCE_DB, toDb(loudest) - SILENCE_BELOW_PEAK_DB);
  // RMS of the non-silent frames: the level of the voice, not of the pauses.
  let energy = 0;
  let voicedFrames = 0;
  for (const v of env) {
    if (toDb(v) > floorDb) {
      energy += v * v;
      voicedFrames++;
    }
  }
  const rmsDb = voicedFrames > 0 ? round(toDb(Math.sqrt(energy / voicedFrames)), 1) : -120;

  const pitches: number[] = [];
  for (let start = 0; start + PITCH_WINDOW < x.length; start += PITCH_HOP) {
    const frame = Math.floor((start + PITCH_WINDOW / 2) / ENVELOPE_FRAME);
    if (toDb(env[frame] ?? 0) <= floorDb + 6) continue;
    const f0 = yinPitch(x, start, ANALYSIS_RATE);
    if (f0 !== null && f0 >= MIN_F0 && f0 <= MAX_F0) pitches.push(f0);
    if (pitches.length >= MAX_PITCH_FRAMES) break;
  }
  pitches.sort((a, b) => a - b);
  const pitchHz = pitches.length >= 5 ? round(percentile(pitches, 0.5), 1) : null;
  const pitchRangeHz: [number, number] | null =
    pitchHz === null ? null : [round(percentile(pitches, 0.1), 1), round(percentile(pitches, 0.9), 1)];
  const clippingRatio = round(clipped / pcm.length, 5);
  if (rmsDb < QUIET_DB) warnings.push('too_quiet');
  if (clippingRatio > CLIPPING_WARN_RATIO) warnings.push('clipping');
  if (pitchHz === null) warnings.push('no_pitch');
  return {
    durationMs,
    decoded: true,
    rmsDb,
    peakDb: round(toDb(peak), 1),
    clippingRatio,
    pitchHz,
    pitchRangeHz,
    syllablesPerSecond: syllableRate(env, floorDb),
    warnings,
  };
}

/** The reference pitch each family of espeak variants speaks at espeak pitch 50, Hz (measured by ear and by YIN on espeak's output; approximate). */
const FAMILY = {
  male: { reference: 120, category: 'masculina', gender: 'male' },
  neutral: { reference: 160, category: 'neutral', gender: 'neutral' },
  female: { reference: 210, category: 'femenina', gender: 'female' },
} as const satisfies Record<string, { reference: number; category: VoiceCategory; gender: VoiceGender }>;

/** Average syllables per word, for turning syllables per second into espeak's words per minute. */
const SYLLABLES_PER_WORD = 1.6;
const DEFAULT_RATE = 170;

export interface DerivedVoice {
  speech: CustomVoiceSpeech;
  category: VoiceCategory;
  gender: VoiceGender;
}

/**
 * The builtin engine's voice for an analysis (VU-4): the variant family by the median pitch (below
 * 145 Hz male, above 175 Hz female, neutral between; `+m2` for very low voices, `+f4` for very
 * high ones), espeak's pitch 50 ± 4 per semitone from the family's reference (clamped 10–90),
 * and the rate from the syllable rate (120–230 wpm). Unknown figures keep neutral defaults.
 */
export function deriveVoice(analysis: VoiceAnalysis): DerivedVoice {
  const f0 = analysis.pitchHz;
  let family: keyof typeof FAMILY = 'neutral';
  let variant = '+klatt';
  if (f0 !== null && f0 < 145) {
    family = 'male';
    variant = f0 < 105 ? '+m2' : '+m3';
  } else if (f0 !== null && f0 > 175) {
    family = 'female';
    variant = f0 > 250 ? '+f4' : '+f3';
  }
  const semitones = f0 === null ? 0 : 12 * Math.log2(f0 / FAMILY[family].reference);
  const pitch = Math.round(Math.min(90, Math.max(10, 50 + 4 * semitones)));
  const sps = analysis.syllablesPerSecond;
  const rate =
    sps === null || sps <= 0
      ? DEFAULT_RATE
      : Math.round(Math.min(230, Math.max(120, (sps * 60) / SYLLABLES_PER_WORD)));
  return {
    speech: { variant, pitch, rate },
    category: FAMILY[family].category,
    gender: FAMILY[family].gender,
  };
}
