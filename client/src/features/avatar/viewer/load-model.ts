import type { Object3D, WebGLRenderer } from 'three';
import type { GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { isValidModelUrl, modelRequestHeaders } from '../model.ts';
import { gltfLoaderFor } from './decoders.ts';
import { ViewerLoadError } from './state.ts';

/** glTF binary files start with the ASCII magic "glTF"; a JSON glTF starts with "{". */
export function looksLikeGltf(buffer: ArrayBuffer): boolean {
  if (buffer.byteLength < 12) return false;
  const head = new Uint8Array(buffer, 0, 4);
  const magic = String.fromCharCode(head[0] ?? 0, head[1] ?? 0, head[2] ?? 0, head[3] ?? 0);
  if (magic === 'glTF') return true;
  const text = new TextDecoder().decode(new Uint8Array(buffer, 0, Math.min(64, buffer.byteLength)));
  return /^\s*\{/.test(text) && !/^\s*<!doctype|<html/i.test(text);
}

export interface LoadModelOptions {
  signal?: AbortSignal;
  /**
   * The renderer that will draw the model (KTX2 textures are transcoded for its GPU). The download
   * starts at once; parsing waits for it.
   */
  renderer?: Promise<Pick<WebGLRenderer, 'extensions'>>;
  /** How long parsing (decoders included) may take before it is a `timeout` (SPEC ST-1). */
  timeoutMs?: number;
}

/**
 * The longest a model may take to parse once downloaded. A decoder worker that never answers (a
 * transcoder refused by a security policy, a wasm that fails to start) would otherwise leave the
 * stage loading for ever; a large model parses in a few seconds even on a slow phone.
 */
export const MODEL_PARSE_TIMEOUT_MS = 30_000;

/**
 * Fetches and parses a model, classifying every failure as one of spec §8's texts: the URL is
 * checked first, the HTTP status next (404 is "not found"), then the bytes (not a glTF is "invalid
 * format", a glTF that does not parse is "corrupted"). Custom models need the bearer credential.
 */
export async function loadModel(
  url: string,
  { signal, renderer, timeoutMs = MODEL_PARSE_TIMEOUT_MS }: LoadModelOptions = {},
): Promise<{ scene: Object3D; gltf: GLTF }> {
  if (!isValidModelUrl(url)) throw new ViewerLoadError('invalidUrl');
  const headers = modelRequestHeaders(url);
  if (!headers) throw new ViewerLoadError('noToken');
  let res: Response;
  try {
    res = await fetch(url, { signal, headers });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ViewerLoadError('network');
  }
  if (res.status === 404) throw new ViewerLoadError('notFound', 404);
  if (!res.ok) throw new ViewerLoadError('generic', res.status);
  let buffer: ArrayBuffer;
  try {
    buffer = await res.arrayBuffer();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ViewerLoadError('network');
  }
  if (!looksLikeGltf(buffer)) throw new ViewerLoadError('format');
  const base = url.slice(0, url.lastIndexOf('/') + 1);
  const loader = gltfLoaderFor(renderer ? await renderer : null);
  signal?.throwIfAborted();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ViewerLoadError('timeout')), timeoutMs);
  });
  let gltf: GLTF;
  try {
    gltf = await Promise.race([loader.parseAsync(buffer, base), timedOut]);
  } catch (error) {
    throw error instanceof ViewerLoadError ? error : new ViewerLoadError('corrupted');
  } finally {
    clearTimeout(timer);
  }
  return { scene: gltf.scene, gltf };
}
