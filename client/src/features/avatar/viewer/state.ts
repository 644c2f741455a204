import { VIEWER_MAX_CONTEXTS } from '@alma/protocol';

/**
 * The 3D viewer's state machine (spec §2 "3D viewer behaviour", §8 3D viewer errors): loading,
 * error (with retry) and ready; a lost WebGL context is shown over the last state until the
 * browser restores it, and turns into advice when it does not.
 */

/** The error texts of spec §8, as i18n keys under `avatar.viewer.errors`. */
export const VIEWER_ERROR_CODES = [
  'notFound',
  'format',
  'corrupted',
  'network',
  'invalidUrl',
  'noToken',
  'timeout',
  'empty',
  'generic',
] as const;
export type ViewerErrorCode = (typeof VIEWER_ERROR_CODES)[number];

/** A load failure already classified; `loadModel` throws only these. */
export class ViewerLoadError extends Error {
  constructor(
    readonly code: ViewerErrorCode,
    readonly status?: number,
  ) {
    super(code);
    this.name = 'ViewerLoadError';
  }
}

/**
 * Maps whatever a load threw to one of the spec's texts: the loader's own classification, an
 * HTTP 404, a network failure, a parse failure; anything else is the generic text.
 */
export function classifyLoadError(error: unknown): ViewerErrorCode {
  if (error instanceof ViewerLoadError) return error.code;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  if (/\b404\b|not found/i.test(message)) return 'notFound';
  if (error instanceof TypeError && /fetch|network/i.test(message)) return 'network';
  if (/network|failed to fetch|load failed/i.test(message)) return 'network';
  if (/unsupported asset|not a valid|invalid.*(format|magic)|unexpected token/i.test(message))
    return 'format';
  if (/corrupt|offset is outside|out of bounds|malformed|decod/i.test(message)) return 'corrupted';
  return 'generic';
}

export type ContextState = 'ok' | 'lost' | 'failed';

export type ViewerState =
  | { status: 'loading'; context: ContextState }
  | { status: 'error'; code: ViewerErrorCode; context: ContextState }
  | { status: 'ready'; context: ContextState };

export type ViewerAction =
  | { type: 'load' }
  | { type: 'loaded' }
  | { type: 'failed'; code: ViewerErrorCode }
  | { type: 'contextLost' }
  | { type: 'contextRestored' }
  | { type: 'contextFailed' };

export const initialViewerState: ViewerState = { status: 'loading', context: 'ok' };

export function viewerReducer(state: ViewerState, action: ViewerAction): ViewerState {
  switch (action.type) {
    case 'load':
      // Retry, or a new model: a fresh canvas, so a failed context is forgotten too.
      return { status: 'loading', context: 'ok' };
    case 'loaded':
      return state.status === 'loading' ? { status: 'ready', context: state.context } : state;
    case 'failed':
      return { status: 'error', code: action.code, context: state.context };
    case 'contextLost':
      return { ...state, context: 'lost' };
    case 'contextRestored':
      return { ...state, context: 'ok' };
    case 'contextFailed':
      return state.context === 'lost' ? { ...state, context: 'failed' } : state;
  }
}

/**
 * At most VIEWER_MAX_CONTEXTS live WebGL contexts (spec §2): browsers drop the oldest beyond
 * their own limit, so viewers past ours show a static fallback instead of a canvas. A viewer
 * waiting for a slot gets one as soon as another viewer releases it. Only the latest viewer (the
 * one in front: a preview over the stage) animates continuously; the others hold their frame.
 */
export type SlotStatus = 'pending' | 'granted' | 'denied';

export function createContextRegistry(max: number = VIEWER_MAX_CONTEXTS) {
  /** In the order the slots were given: the last one is in front. */
  const granted = new Set<symbol>();
  const waiting: symbol[] = [];
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());
  return {
    /** Asks for a slot: granted when one is free, otherwise queued (and shown as denied). */
    request(token: symbol): SlotStatus {
      if (!granted.has(token) && !waiting.includes(token)) {
        if (granted.size < max) granted.add(token);
        else waiting.push(token);
        emit();
      }
      return granted.has(token) ? 'granted' : 'denied';
    },
    release(token: symbol): void {
      const queued = waiting.indexOf(token);
      if (queued >= 0) waiting.splice(queued, 1);
      if (granted.delete(token)) {
        const next = waiting.shift();
        if (next) granted.add(next);
      }
      emit();
    },
    isForeground: (token: symbol): boolean => [...granted].pop() === token,
    status: (token: symbol): SlotStatus => {
      return granted.has(token) ? 'granted' : waiting.includes(token) ? 'denied' : 'pending';
    },
    subscribe: (listener: () => void): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get size(): number {
      return granted.size;
    },
  };
}

export const contextRegistry = createContextRegistry();
