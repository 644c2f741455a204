/** Keyboard seeking on the preview waveform (VoiceWaveform): small steps with the arrows. */
export const SEEK_STEP_S = 1;
export const SEEK_PAGE_S = 5;

/** Where a key moves the playhead, clamped to the note; null for keys that do not seek. */
export function seekTarget(key: string, current: number, duration: number): number | null {
  const clamp = (s: number) => Math.max(0, Math.min(duration, s));
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(current - SEEK_STEP_S);
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(current + SEEK_STEP_S);
    case 'PageDown':
      return clamp(current - SEEK_PAGE_S);
    case 'PageUp':
      return clamp(current + SEEK_PAGE_S);
    case 'Home':
      return 0;
    case 'End':
      return clamp(duration);
    default:
      return null;
  }
}

/** How many bars the preview draws at most (wavesurfer stretches them to its width). */
export const PEAK_COUNT = 600;

/** The largest |sample| in each of `count` equal slices: what a waveform bar shows. */
export function peaksOf(samples: Float32Array, count: number = PEAK_COUNT): Float32Array {
  const n = Math.max(1, Math.min(count, samples.length));
  const peaks = new Float32Array(n);
  const size = samples.length / n;
  for (let i = 0; i < n; i++) {
    let max = 0;
    const end = Math.min(samples.length, Math.ceil((i + 1) * size));
    for (let j = Math.floor(i * size); j < end; j++) max = Math.max(max, Math.abs(samples[j] ?? 0));
    peaks[i] = max;
  }
  return peaks;
}

/**
 * A recording's peaks and duration, decoded in the page (Web Audio) from the Blob itself: the
 * app's CSP (`connect-src`) forbids fetching `blob:` URLs, which wavesurfer would do otherwise,
 * and Chrome's webm recordings carry no duration for the `<audio>` element to report.
 */
export async function decodePeaks(blob: Blob): Promise<{ peaks: Float32Array; duration: number }> {
  const context = new OfflineAudioContext(1, 1, 8000);
  const audio = await context.decodeAudioData(await blob.arrayBuffer());
  return { peaks: peaksOf(audio.getChannelData(0)), duration: audio.duration };
}
