import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import WaveSurfer from 'wavesurfer.js';
import { decodePeaks, seekTarget } from './waveform.ts';

/**
 * The stopped recording's waveform (spec §2 Input "audio preview", §4 Recording): the note's
 * Blob is decoded here (waveform.ts) and wavesurfer.js draws its peaks on canvas and plays it
 * through the preview's own `<audio>` element, so the play/pause button and this view share one
 * player. Clicking or
 * dragging seeks; from the keyboard it is a slider — arrows move 1 s, Page keys 5 s, Home/End
 * the ends, Space or Enter plays or pauses.
 */
export function VoiceWaveform({
  blob,
  url,
  media,
  durationMs,
  onTogglePlay,
}: {
  blob: Blob;
  /** The same note as a blob URL: what the `<audio>` plays. */
  url: string;
  media: RefObject<HTMLAudioElement | null>;
  /** The recorder's own measure, until the decoded duration is known. */
  durationMs: number;
  onTogglePlay: () => void;
}) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(durationMs / 1000);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const container = host.current;
    const element = media.current;
    if (!container || !element) return;
    const style = getComputedStyle(container);
    const color = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    let cancelled = false;
    let ws: WaveSurfer | null = null;
    let unsubscribe: (() => void)[] = [];
    decodePeaks(blob)
      .then(({ peaks, duration: seconds }) => {
        if (cancelled) return;
        // Given the peaks, wavesurfer neither fetches nor decodes: it draws, and plays `url`
        // through the preview's `<audio>`.
        ws = WaveSurfer.create({
          container,
          media: element,
          url,
          peaks: [peaks],
          duration: seconds,
          height: 28,
          barWidth: 2,
          barGap: 2,
          barRadius: 2,
          barMinHeight: 1,
          cursorWidth: 1,
          normalize: true,
          dragToSeek: true,
          waveColor: color('--text-faint', '#8a8fa3'),
          progressColor: color('--accent', '#7c5cff'),
          cursorColor: color('--accent', '#7c5cff'),
        });
        surfer.current = ws;
        if (Number.isFinite(seconds) && seconds > 0) setDuration(seconds);
        unsubscribe = [
          ws.on('ready', () => setReady(true)),
          ws.on('timeupdate', (at) => setCurrent(at)),
          ws.on('finish', () => setCurrent(0)),
        ];
      })
      // Undecodable here (no Web Audio, an odd codec): no waveform, the preview still plays.
      .catch(() => undefined);
    return () => {
      cancelled = true;
      unsubscribe.forEach((off) => off());
      surfer.current = null;
      ws?.destroy();
    };
  }, [blob, url, media]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      onTogglePlay();
      return;
    }
    const to = seekTarget(event.key, current, duration);
    if (to === null) return;
    event.preventDefault();
    surfer.current?.setTime(to);
    setCurrent(to);
  }

  const total = Math.round(duration);
  // The <audio> element's own duration can fall a few hundred ms short of the decoded one, so a
  // seek to the end may report a slightly earlier time: within half a second of the end is the end.
  const at = duration - current <= 0.5 ? total : Math.min(Math.round(current), total);
  return (
    <div
      ref={host}
      className="voice-rec__wave"
      role="slider"
      tabIndex={0}
      aria-label={t('voiceNote.waveform')}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={at}
      aria-valuetext={t('voiceNote.position', { current: at, total })}
      data-ready={ready ? 'true' : 'false'}
      data-testid="voice-waveform"
      onKeyDown={onKeyDown}
    />
  );
}
