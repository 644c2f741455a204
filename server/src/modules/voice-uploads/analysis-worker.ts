import type { VoiceAnalysis } from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import { serveWorkerJobs } from '../../lib/worker-job.ts';
import { analyseVoice } from './analysis.ts';
import { decodeSample } from './sample-audio.ts';

/**
 * The worker thread that analyses one voice sample (analysis-jobs.ts starts it; SPEC.md VU-3):
 * the whole structure walked, the first two minutes decoded and measured. A damaged or foreign
 * file fails with its VU-2 code.
 */
export interface AnalysisInput {
  data: Uint8Array;
  /** The `ffmpeg` that decodes MP3/AAC/Vorbis; null: none. */
  ffmpeg: string | null | undefined;
}

serveWorkerJobs<AnalysisInput, VoiceAnalysis>(
  async ({ data, ffmpeg }) => {
    const decoded = await decodeSample(data, ffmpeg);
    return analyseVoice(decoded.pcm, decoded.sampleRate, decoded.durationMs);
  },
  (error) => ({ code: error instanceof AppError ? error.code : 'processing_failed' }),
);
