import { useCallback, useEffect, useReducer, useRef } from 'react';
import {
  initialRecorder,
  pickMimeType,
  RECORDING_CONSTRAINTS,
  reduceRecorder,
  type RecordedNote,
} from './machine.ts';

const TICK_MS = 250;

interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: (() => void) | null;
  start: () => void;
  stop: () => void;
}

type RecognitionConstructor = new () => SpeechRecognitionLike;

function recognitionConstructor(): RecognitionConstructor | null {
  if (typeof window === 'undefined') return null;
  const w = window as unknown as {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** Does this browser offer speech recognition (Web Speech API: Chrome, Edge, Safari)? */
export function browserCanRecognize(): boolean {
  return recognitionConstructor() !== null;
}

/** The browser's own recognizer offers a transcript hint (SPEC.md V-3 `hint`). */
function createRecognizer(lang: string): SpeechRecognitionLike | null {
  const Ctor = recognitionConstructor();
  if (!Ctor) return null;
  try {
    const r = new Ctor();
    r.lang = lang;
    r.continuous = true;
    r.interimResults = false;
    return r;
  } catch {
    return null;
  }
}

/**
 * Microphone → MediaRecorder with the spec §9 settings, a seconds timer, and the recorder state
 * machine (machine.ts). `onStart` runs as a recording begins (barge-in: stop speech, cancel reply).
 * With `recognize`, the browser's recognizer listens too and its transcript goes with the note —
 * only when the user was told so (in Chrome and Edge the audio goes to the vendor's service).
 */
export function useRecorder(options: { lang: string; recognize: boolean; onStart?: () => void }) {
  const [state, dispatch] = useReducer(reduceRecorder, initialRecorder);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const chunks = useRef<Blob[]>([]);
  const cancelled = useRef(false);
  const startedAt = useRef(0);
  const recognizer = useRef<SpeechRecognitionLike | null>(null);
  const hint = useRef<string[]>([]);
  const urlRef = useRef<string | null>(null);
  const { lang, recognize, onStart } = options;

  const releaseStream = useCallback(() => {
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
    try {
      recognizer.current?.stop();
    } catch {
      // already stopped
    }
    recognizer.current = null;
  }, []);

  const revokeUrl = useCallback(() => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
  }, []);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      dispatch({ type: 'request' });
      dispatch({ type: 'denied', reason: 'unsupported' });
      return;
    }
    dispatch({ type: 'request' });
    revokeUrl();
    let media: MediaStream;
    try {
      media = await navigator.mediaDevices.getUserMedia(RECORDING_CONSTRAINTS);
    } catch {
      dispatch({ type: 'denied', reason: 'micDenied' });
      return;
    }
    onStart?.();
    stream.current = media;
    chunks.current = [];
    cancelled.current = false;
    hint.current = [];
    const mimeType = pickMimeType((t) => MediaRecorder.isTypeSupported(t));
    const rec = new MediaRecorder(media, mimeType ? { mimeType } : undefined);
    recorder.current = rec;
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.current.push(e.data);
    };
    rec.onstop = () => {
      const durationMs = Date.now() - startedAt.current;
      releaseStream();
      recorder.current = null;
      if (cancelled.current) return;
      const type = rec.mimeType || mimeType || 'audio/webm';
      const blob = new Blob(chunks.current, { type });
      const url = URL.createObjectURL(blob);
      urlRef.current = url;
      const transcriptHint = hint.current.join(' ').trim();
      const note: RecordedNote = {
        blob,
        mimeType: type,
        durationMs,
        url,
        ...(transcriptHint ? { transcriptHint } : {}),
      };
      dispatch({ type: 'stopped', note });
    };
    startedAt.current = Date.now();
    rec.start(250);
    dispatch({ type: 'started', at: startedAt.current });
    const r = recognize ? createRecognizer(lang) : null;
    if (r) {
      r.onresult = (event) => {
        const parts: string[] = [];
        for (let i = 0; i < event.results.length; i++) {
          const alt = event.results[i]?.[0];
          if (alt) parts.push(alt.transcript);
        }
        hint.current = parts;
      };
      r.onerror = () => undefined;
      try {
        r.start();
        recognizer.current = r;
      } catch {
        recognizer.current = null;
      }
    }
  }, [lang, recognize, onStart, releaseStream, revokeUrl]);

  const stop = useCallback(() => {
    const rec = recorder.current;
    if (rec && rec.state !== 'inactive') rec.stop();
  }, []);

  const cancel = useCallback(() => {
    cancelled.current = true;
    dispatch({ type: 'cancel' });
    const rec = recorder.current;
    if (rec && rec.state !== 'inactive') rec.stop();
    else releaseStream();
  }, [releaseStream]);

  const discard = useCallback(() => dispatch({ type: 'delete' }), []);
  const markSent = useCallback(() => dispatch({ type: 'send' }), []);
  const reset = useCallback(() => dispatch({ type: 'reset' }), []);

  // The seconds timer while recording.
  const recording = state.status === 'recording';
  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => dispatch({ type: 'tick', at: Date.now() }), TICK_MS);
    return () => clearInterval(timer);
  }, [recording]);

  // Sent or deleted: back to idle.
  useEffect(() => {
    if (state.status === 'deleted' || state.status === 'sent') dispatch({ type: 'reset' });
  }, [state.status]);

  // Leaving the page stops the microphone.
  useEffect(
    () => () => {
      cancelled.current = true;
      const rec = recorder.current;
      if (rec && rec.state !== 'inactive') rec.stop();
      releaseStream();
      revokeUrl();
    },
    [releaseStream, revokeUrl],
  );

  return { state, start, stop, cancel, discard, markSent, reset };
}
