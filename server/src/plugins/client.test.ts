import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp } from '../test-support/app.ts';

let t: TestApp;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'alma-dist-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'decoders'));
  writeFileSync(join(dist, 'decoders', 'basis-worker.js'), 'importScripts()');
  const page = '<!doctype html><title>Alma</title>';
  writeFileSync(join(dist, 'index.html'), page);
  writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  // What the build's precompress step writes beside each text asset (client/vite.config.ts).
  for (const [file, text] of [
    ['assets/app-1234.js', 'console.log(1)'],
    ['index.html', page],
  ] as const) {
    writeFileSync(join(dist, `${file}.br`), brotliCompressSync(text));
    writeFileSync(join(dist, `${file}.gz`), gzipSync(text));
  }
  t = await buildTestApp({ CLIENT_DIST: dist });
});
afterAll(async () => t.close());

/** A response's policy as directive → sources. */
function policyOf(res: { headers: Record<string, unknown> }): Map<string, string[]> {
  return new Map(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources] as const),
  );
}

describe('serving the client', () => {
  it.each(['/', '/chat', '/auth/callback?token=x', '/dashboard', '/no/such/page'])(
    'a page load of %s gets the app (the client router takes over)',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>Alma</title>');
    },
  );

  it('an API call to an unknown path gets a JSON 404, not the page', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/auth/nothing',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toMatchObject({ error: { code: 'not_found' } });
  });

  it('fingerprinted assets are cached for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('max-age=31536000');
  });

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip', 'gzip'],
    ['identity', undefined],
  ])('assets go out precompressed: Accept-Encoding %s gets %s', async (accept, encoding) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-1234.js',
      headers: { 'accept-encoding': accept },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const body = res.rawPayload;
    const text =
      encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
    expect(text.toString()).toBe('console.log(1)');
    if (encoding) expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
  });

  it('the page itself goes out compressed and is never cached stale', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/chat',
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<title>Alma</title>');
  });

  it('sends the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it("lets three.js read a model's embedded textures and start its decoder workers, nothing wider", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const directives = policyOf(res);
    // GLTFLoader fetches a .glb's images through blob: URLs; KTX2/Draco decoders run in blob: workers.
    expect(directives.get('connect-src')).toContain('blob:');
    expect(directives.get('img-src')).toContain('blob:');
    expect(directives.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    for (const name of ['connect-src', 'img-src', 'worker-src', 'script-src'])
      for (const wide of ['*', 'https:', 'http:']) expect(directives.get(name)).not.toContain(wide);
  });

  it('the Basis transcoder worker alone may eval (embind), with no network and no DOM (SPEC AU-10)', async () => {
    const worker = await t.app.inject({ method: 'GET', url: '/decoders/basis-worker.js' });
    expect(worker.statusCode).toBe(200);
    const own = policyOf(worker);
    expect(own.get('script-src')).toEqual(["'self'", 'blob:', "'unsafe-eval'", "'wasm-unsafe-eval'"]);
    expect(own.get('default-src')).toEqual(["'none'"]);
    expect(own.get('connect-src')).toEqual(["'none'"]);
    // The page, and every other asset, keep the policy without eval.
    for (const url of ['/', '/assets/app-1234.js', '/decoders/basis-worker.js.map']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(policyOf(res).get('script-src')).not.toContain("'unsafe-eval'");
    }
  });
});
