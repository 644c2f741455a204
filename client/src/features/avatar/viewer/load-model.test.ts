import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadModel, looksLikeGltf } from './load-model.ts';
import { ViewerLoadError } from './state.ts';

function answer(body: BodyInit | null, status = 200) {
  const fetchMock = vi.fn(() => Promise.resolve(new Response(body, { status })));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof ViewerLoadError ? error.code : `other: ${String(error)}`;
  }
}

const glbHeader = (rest: number[]) => new Uint8Array([0x67, 0x6c, 0x54, 0x46, ...rest]).buffer;

afterEach(() => vi.unstubAllGlobals());

describe('loading a model (spec §8 3D viewer errors)', () => {
  it('refuses an invalid URL before any request', async () => {
    const fetchMock = answer(null);
    expect(await codeOf(loadModel('not a model'))).toBe('invalidUrl');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('404 is "not found", another HTTP failure the generic text', async () => {
    answer('nope', 404);
    expect(await codeOf(loadModel('/models/witch.glb'))).toBe('notFound');
    answer('boom', 500);
    expect(await codeOf(loadModel('/models/witch.glb'))).toBe('generic');
  });

  it('a network failure is the network text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await codeOf(loadModel('/models/witch.glb'))).toBe('network');
  });

  it('a page instead of a model is an invalid format; a broken glTF is corrupted', async () => {
    answer('<!doctype html><html><body>app</body></html>');
    expect(await codeOf(loadModel('/models/witch.glb'))).toBe('format');
    answer(glbHeader([2, 0, 0, 0, 40, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]));
    expect(await codeOf(loadModel('/models/witch.glb'))).toBe('corrupted');
  });

  it('a parse that never finishes is a timeout, not a viewer loading for ever (SPEC ST-1)', async () => {
    // A glTF whose buffer never arrives: what a decoder worker that never answers looks like.
    const model = JSON.stringify({
      asset: { version: '2.0' },
      buffers: [{ uri: 'never.bin', byteLength: 12 }],
      bufferViews: [{ buffer: 0, byteLength: 12 }],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 1, type: 'VEC3', min: [0, 0, 0], max: [0, 0, 0] },
      ],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      nodes: [{ mesh: 0 }],
      scenes: [{ nodes: [0] }],
      scene: 0,
    });
    vi.stubGlobal(
      'Request',
      class {
        constructor(readonly url: string) {}
      },
    );
    vi.stubGlobal(
      'fetch',
      vi.fn((input: unknown) =>
        String(typeof input === 'string' ? input : (input as { url: string }).url).endsWith('.glb')
          ? Promise.resolve(new Response(model))
          : new Promise(() => undefined),
      ),
    );
    expect(await codeOf(loadModel('/models/witch.glb', { timeoutMs: 50 }))).toBe('timeout');
  });

  it('a custom model needs the sign-in token', async () => {
    answer(null);
    expect(await codeOf(loadModel('/api/upload/avatar/a1/model'))).toBe('noToken');
  });

  it('recognises glTF bytes', () => {
    expect(looksLikeGltf(glbHeader([2, 0, 0, 0, 0, 0, 0, 0]))).toBe(true);
    expect(looksLikeGltf(new TextEncoder().encode('{"asset":{"version":"2.0"}}').buffer)).toBe(true);
    expect(looksLikeGltf(new TextEncoder().encode('<!doctype html><html></html>').buffer)).toBe(false);
    expect(looksLikeGltf(new Uint8Array(4).buffer)).toBe(false);
  });
});
