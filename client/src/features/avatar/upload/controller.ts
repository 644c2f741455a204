import type { AvatarUploadStatus, CustomAvatar, SubscriptionLimits } from '@alma/protocol';
import type { UploadProgressEvent } from '../../../lib/upload-progress.ts';
import { UploadError } from '../../../lib/upload.ts';
import { validateAvatarFile, type AvatarUploadProblem } from './upload-logic.ts';

export type UploadTextKey =
  | `errors.${AvatarUploadProblem}`
  | 'avatarUpload.failed'
  | 'avatarUpload.noModelInfo'
  | 'avatarUpload.cancelFailed';

/**
 * One avatar upload from file to ready avatar (spec §4 Custom avatar upload; SPEC.md AU-1…AU-5),
 * as a small state machine outside React so it can be tested with fake timers:
 * idle → uploading (bytes sent) → processing (live `upload:progress`, or polling every 2 s when the
 * socket is down) → completed (the ready avatar is handed over 2 s later) | failed (retry) |
 * cancelled. Cancel exists only while processing, and the status is fetched again after it.
 */

export const POLL_INTERVAL_MS = 2000;
export const HAND_OVER_DELAY_MS = 2000;

export type ProgressEvent = Pick<UploadProgressEvent, 'id' | 'status' | 'progress' | 'step' | 'error'>;

export interface StatusView {
  status: AvatarUploadStatus;
  progress: number;
  step: string;
  error: { message: string } | null;
}

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading'; progress: number; fileName: string }
  | { phase: 'processing'; id: string; progress: number; step: string; fileName: string }
  | { phase: 'completed'; avatar: CustomAvatar }
  | { phase: 'failed'; message: string; canRetry: boolean }
  | { phase: 'cancelled' };

export interface UploadDeps {
  upload: (input: {
    file: File;
    fields: Record<string, string>;
    onProgress: (percent: number) => void;
  }) => Promise<CustomAvatar>;
  status: (id: string) => Promise<StatusView>;
  fetchAvatar: (id: string) => Promise<CustomAvatar>;
  cancel: (id: string) => Promise<StatusView>;
  /** Live progress from the socket; returns the unsubscribe. */
  subscribe: (id: string, listener: (event: ProgressEvent) => void) => () => void;
  socketConnected: () => boolean;
  loadLimits: () => Promise<SubscriptionLimits | null>;
  /** The localised text for a problem code (`errors.<code>`) or one of the panel's own failures. */
  text: (key: UploadTextKey) => string;
  onCompleted?: (avatar: CustomAvatar) => void;
}

export function createUploadController(deps: UploadDeps) {
  let state: UploadState = { phase: 'idle' };
  const listeners = new Set<() => void>();
  let last: { file: File; fields: Record<string, string> } | null = null;
  let stopWatching: (() => void) | null = null;
  let handOver: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;
  let onCompleted = deps.onCompleted;

  const set = (next: UploadState) => {
    if (disposed) return;
    state = next;
    for (const l of listeners) l();
  };

  const stop = () => {
    stopWatching?.();
    stopWatching = null;
  };

  async function finish(id: string) {
    stop();
    try {
      const avatar = await deps.fetchAvatar(id);
      set({ phase: 'completed', avatar });
      handOver = setTimeout(() => onCompleted?.(avatar), HAND_OVER_DELAY_MS);
    } catch {
      set({ phase: 'failed', message: deps.text('avatarUpload.noModelInfo'), canRetry: true });
    }
  }

  function apply(
    id: string,
    view: { status: AvatarUploadStatus; progress: number; step: string; error?: { message: string } | null },
  ) {
    if (state.phase !== 'processing' || state.id !== id) return;
    if (view.status === 'completed') return void finish(id);
    if (view.status === 'failed') {
      stop();
      return set({
        phase: 'failed',
        message: view.error?.message ?? deps.text('avatarUpload.failed'),
        canRetry: true,
      });
    }
    if (view.status === 'cancelled') {
      stop();
      return set({ phase: 'cancelled' });
    }
    // Progress only moves forward: a late poll never takes a pushed step back.
    if (view.progress >= state.progress) set({ ...state, progress: view.progress, step: view.step });
  }

  /** Live events while the socket is up; a poll every 2 s while it is down (spec §4). */
  function watch(id: string) {
    const unsubscribe = deps.subscribe(id, (event) => apply(id, event));
    const poll = setInterval(() => {
      if (deps.socketConnected()) return;
      deps.status(id).then(
        (view) => apply(id, view),
        () => undefined, // a failed poll is retried at the next tick
      );
    }, POLL_INTERVAL_MS);
    stopWatching = () => {
      unsubscribe();
      clearInterval(poll);
    };
  }

  async function start(file: File, fields: Record<string, string> = {}) {
    if (state.phase === 'uploading' || state.phase === 'processing') return;
    if (handOver) clearTimeout(handOver);
    last = { file, fields };
    const limits = await deps.loadLimits().catch(() => null);
    const [problem] = validateAvatarFile(file, limits);
    if (problem) return set({ phase: 'failed', message: deps.text(`errors.${problem}`), canRetry: false });
    set({ phase: 'uploading', progress: 0, fileName: file.name });
    try {
      const avatar = await deps.upload({
        file,
        fields,
        onProgress: (progress) => {
          if (state.phase === 'uploading') set({ ...state, progress });
        },
      });
      set({
        phase: 'processing',
        id: avatar.id,
        progress: avatar.progress,
        step: avatar.step,
        fileName: file.name,
      });
      watch(avatar.id);
      // The job may have moved on before we listened: ask once.
      apply(avatar.id, await deps.status(avatar.id).catch(() => avatar));
    } catch (error) {
      const message = error instanceof UploadError ? error.message : deps.text('avatarUpload.failed');
      set({
        phase: 'failed',
        message,
        canRetry: !(error instanceof UploadError) || error.code === 'network_error',
      });
    }
  }

  async function cancel() {
    if (state.phase !== 'processing') return;
    const { id } = state;
    try {
      await deps.cancel(id);
    } catch {
      set({ phase: 'failed', message: deps.text('avatarUpload.cancelFailed'), canRetry: true });
      return;
    }
    // Spec §4: after a cancel, the status is fetched again.
    const view = await deps.status(id).catch(() => null);
    stop();
    if (view?.status === 'completed') return void finish(id);
    set({ phase: 'cancelled' });
  }

  return {
    getState: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** The completion callback (the panel's latest); returns nothing to clean up. */
    setOnCompleted: (callback: ((avatar: CustomAvatar) => void) | undefined): undefined => {
      onCompleted = callback;
    },
    start,
    cancel,
    retry: () => (last ? start(last.file, last.fields) : Promise.resolve()),
    reset: () => {
      stop();
      set({ phase: 'idle' });
    },
    dispose() {
      stop();
      if (handOver) clearTimeout(handOver);
      disposed = true;
      listeners.clear();
    },
  };
}

export type UploadController = ReturnType<typeof createUploadController>;
