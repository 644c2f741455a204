import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GLTF_EXTENSIONS_SUPPORTED } from '@alma/protocol';
import { gltfLoaderFor } from './decoders.ts';

// The Draco extension preloads its decoder (a fetch); there is no file server here: the request
// is taken and left waiting.
beforeAll(() => {
  vi.stubGlobal(
    'Request',
    class {
      constructor(readonly url: string) {}
    },
  );
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
});
afterAll(() => vi.unstubAllGlobals());
afterEach(() => vi.restoreAllMocks());

/** A glTF with no content that uses and requires `extensions`. */
const gltfUsing = (extensions: readonly string[]) =>
  JSON.stringify({
    asset: { version: '2.0' },
    extensionsUsed: extensions,
    extensionsRequired: extensions,
    scenes: [{ nodes: [] }],
    scene: 0,
  });

describe('the shared glTF loader (SPEC AU-10: the client loads what the server accepts)', () => {
  it('knows every extension a model may require, the decoders included', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const loader = gltfLoaderFor(null);
    // Draco throws at once without its loader; the others would warn "Unknown extension".
    await expect(loader.parseAsync(gltfUsing(GLTF_EXTENSIONS_SUPPORTED), '')).resolves.toBeTruthy();
    expect(warn.mock.calls.flat().join('\n')).not.toMatch(/Unknown extension/);
  });

  it('warns about an extension outside the list (so the test above can fail)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await gltfLoaderFor(null).parseAsync(gltfUsing(['EXT_not_a_real_one']), '');
    expect(warn.mock.calls.flat().join('\n')).toMatch(/Unknown extension "EXT_not_a_real_one"/);
  });
});
