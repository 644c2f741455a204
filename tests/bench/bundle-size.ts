/**
 * First-screen weight (part of `npm run bench`; alone after `npm run build`:
 * `tsx tests/bench/bundle-size.ts`). README "A lean first screen".
 *
 * Per screen: the JS and CSS it needs before rendering (Vite's manifest walked from the entry and
 * the route's lazy modules), as gzip -9 (the budget's measure) and as sent by the server with
 * `Accept-Encoding: br` vs identity (measured over HTTP from a real server on the built client).
 * Budgets: landing and auth screens ≤ 120 KB gz; the 3D chunk ≤ 300 KB gz and only on screens
 * that show a 3D view (bundle-manifest.ts). Prints figures and verdicts; exits 0 either way —
 * tests/e2e/first-screen-budget.spec.ts is the check that fails.
 */
import { request } from 'node:http';
import { startTestServer } from '../fixtures/server.ts';
import {
  BUDGET_3D,
  BUDGET_FIRST,
  FIRST_SCREENS,
  gzipSize,
  kb,
  measureBuild,
  readManifest,
  SHOWS_3D,
} from './bundle-manifest.ts';

const dist = new URL('../../client/dist', import.meta.url).pathname;
const { screens, three } = measureBuild(dist);

/** Bytes the server puts on the wire for one asset with this Accept-Encoding. */
function wireBytes(base: string, file: string, encoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/${file}`, { headers: { 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${file}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const server = await startTestServer({ CLIENT_DIST: dist });
try {
  console.log('screen                    files  gzip -9     br on wire  identity    budget');
  for (const { route, files, gzip } of screens) {
    let br = 0;
    let identity = 0;
    for (const f of files) {
      br += await wireBytes(server.url, f, 'br');
      identity += await wireBytes(server.url, f, 'identity');
    }
    const budget = FIRST_SCREENS.includes(route)
      ? `${gzip <= BUDGET_FIRST ? 'ok' : 'OVER'} ≤ ${kb(BUDGET_FIRST)}`
      : '';
    const with3d = three?.loadedBy.includes(route) ? ' (3D)' : '';
    console.log(
      `${(route + with3d).padEnd(25)} ${String(files.length).padStart(5)}  ${kb(gzip).padStart(9)}  ${kb(br).padStart(11)}  ${kb(identity).padStart(9)}   ${budget}`,
    );
  }
  if (!three) {
    console.log('3D chunk: none named "three" (client/vite.config.ts codeSplitting)  OVER');
  } else {
    const { file, gzip, loadedBy } = three;
    const onlyWhere3d = loadedBy.every((r) => SHOWS_3D.includes(r));
    console.log(
      `3D chunk ${file}: ${kb(gzip)} gz (${gzip <= BUDGET_3D ? 'ok' : 'OVER'} ≤ ${kb(BUDGET_3D)}); ` +
        `loaded by ${loadedBy.join(', ') || 'no screen at first render'} (${onlyWhere3d ? 'ok' : 'OVER'}: only ${SHOWS_3D.join(', ')})`,
    );
  }
  const entry = readManifest(dist)['index.html'];
  if (entry) console.log(`entry ${entry.file}: ${kb(gzipSize(dist, entry.file))} gz`);
} finally {
  await server.dispose();
}
