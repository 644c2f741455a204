import { describe, expect, it } from 'vitest';
import es from '../../../locales/es.json';
import en from '../../../locales/en.json';
import {
  classifyLoadError,
  createContextRegistry,
  initialViewerState,
  VIEWER_ERROR_CODES,
  ViewerLoadError,
  viewerReducer,
  type ViewerAction,
  type ViewerState,
} from './state.ts';

const run = (actions: ViewerAction[], from: ViewerState = initialViewerState) =>
  actions.reduce(viewerReducer, from);

describe('3D viewer states (spec §2 "3D viewer behaviour")', () => {
  it('starts loading, becomes ready or error; a retry loads again', () => {
    expect(initialViewerState.status).toBe('loading');
    expect(run([{ type: 'loaded' }])).toEqual({ status: 'ready', context: 'ok' });
    const failed = run([{ type: 'failed', code: 'notFound' }]);
    expect(failed).toEqual({ status: 'error', code: 'notFound', context: 'ok' });
    expect(run([{ type: 'load' }], failed)).toEqual({ status: 'loading', context: 'ok' });
  });

  it('a late "loaded" does not hide an error', () => {
    expect(run([{ type: 'failed', code: 'network' }, { type: 'loaded' }]).status).toBe('error');
  });

  it('a lost context shows over the state, recovers, or turns into advice', () => {
    const ready = run([{ type: 'loaded' }]);
    const lost = run([{ type: 'contextLost' }], ready);
    expect(lost).toEqual({ status: 'ready', context: 'lost' });
    expect(run([{ type: 'contextRestored' }], lost).context).toBe('ok');
    expect(run([{ type: 'contextFailed' }], lost).context).toBe('failed');
    // The advice never replaces a context that came back.
    expect(run([{ type: 'contextRestored' }, { type: 'contextFailed' }], lost).context).toBe('ok');
  });
});

describe('load error texts (spec §8)', () => {
  it('classifies what a load throws', () => {
    expect(classifyLoadError(new ViewerLoadError('notFound', 404))).toBe('notFound');
    expect(classifyLoadError(new Error('HTTP 404 Not Found'))).toBe('notFound');
    expect(classifyLoadError(new TypeError('Failed to fetch'))).toBe('network');
    expect(
      classifyLoadError(new Error('THREE.GLTFLoader: Unsupported asset. glTF versions >=2.0 are supported.')),
    ).toBe('format');
    expect(classifyLoadError(new RangeError('Offset is outside the bounds of the DataView'))).toBe(
      'corrupted',
    );
    expect(classifyLoadError(new Error('something odd'))).toBe('generic');
    expect(classifyLoadError(undefined)).toBe('generic');
  });

  it('shows the spec texts: English as written, Spanish where the spec gives Spanish', () => {
    const enErrors = en.avatar.viewer.errors;
    expect(enErrors.notFound).toBe('Avatar model not found');
    expect(enErrors.format).toBe('Invalid avatar file format');
    expect(enErrors.corrupted).toBe('Avatar file corrupted');
    expect(enErrors.network).toBe('Network error loading avatar');
    expect(enErrors.generic).toBe('Error loading 3D model');
    expect(es.avatar.viewer.errors.invalidUrl).toBe('URL del modelo inválida');
    expect(es.avatar.viewer.contextLost).toBe('Contexto WebGL perdido - intentando recuperar...');
    expect(es.avatar.viewer.contextAdvice).toMatch(/reinicia la aplicación/);
    expect(es.avatar.viewer.contextAdvice).toMatch(/intenta cambiar de avatar/);
    for (const code of VIEWER_ERROR_CODES) {
      expect(es.avatar.viewer.errors[code]).toBeTruthy();
      expect(en.avatar.viewer.errors[code]).toBeTruthy();
    }
  });
});

describe('WebGL context registry (spec §2: at most 4 contexts)', () => {
  it('grants four; the fifth waits with a static fallback and gets the first freed slot', () => {
    const registry = createContextRegistry(4);
    const tokens = [1, 2, 3, 4, 5].map((n) => Symbol(String(n)));
    const [a, , , , e] = tokens as [symbol, symbol, symbol, symbol, symbol];
    expect(tokens.map((t) => registry.request(t))).toEqual([
      'granted',
      'granted',
      'granted',
      'granted',
      'denied',
    ]);
    expect(registry.size).toBe(4);
    expect(registry.status(e)).toBe('denied');
    let notified = 0;
    const off = registry.subscribe(() => notified++);
    registry.release(a);
    expect(registry.status(e)).toBe('granted');
    expect(registry.status(a)).toBe('pending');
    expect(registry.size).toBe(4);
    expect(notified).toBe(1);
    off();
  });

  it('only the latest viewer is in front (it animates; the ones behind hold their frame)', () => {
    const registry = createContextRegistry(4);
    const stage = Symbol('stage');
    const preview = Symbol('preview');
    registry.request(stage);
    expect(registry.isForeground(stage)).toBe(true);
    registry.request(preview);
    expect([registry.isForeground(stage), registry.isForeground(preview)]).toEqual([false, true]);
    registry.release(preview);
    expect(registry.isForeground(stage)).toBe(true);
  });

  it('asking twice holds one slot; releasing a waiting viewer frees nothing', () => {
    const registry = createContextRegistry(1);
    const a = Symbol('a');
    const b = Symbol('b');
    registry.request(a);
    registry.request(a);
    expect(registry.size).toBe(1);
    registry.request(b);
    registry.release(b);
    expect(registry.status(a)).toBe('granted');
    expect(registry.status(b)).toBe('pending');
  });
});
