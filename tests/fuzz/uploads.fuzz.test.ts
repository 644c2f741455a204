import { ApiErrorSchema, routes, type AuthSession } from '@alma/protocol';
import fc from 'fast-check';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileAudioCorpus } from '../../server/src/test-support/hostile-audio.ts';
import { HOSTILE_MODELS, sparseBomb } from '../../server/src/test-support/hostile-glb.ts';
import { TEST_MODELS } from '../../server/src/test-support/index.ts';
import { makeVoiceNote } from '../../server/src/test-support/voice-note.ts';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { fuzzSeed } from './arbitraries.ts';

/**
 * Upload fuzzing (SPEC.md E-1, AU-10, V-2; issue 11): the files users' tools make and the hostile
 * corpus, each mutated the way files break in the wild — bits flipped, cut short, bytes inserted,
 * a length field overwritten — and sent as a voice note (`POST /message-audio`) and as a model to
 * check (`POST /api/upload/avatar/compatibility-check`). Whatever arrives: never a 5xx, every
 * refusal is `ApiErrorSchema` in the request's language, a refused note stores nothing and
 * counts nothing, a check never stores, and the server stays healthy. FUZZ_SEED replays a run;
 * FUZZ_UPLOAD_RUNS sets the files per route.
 */

const RUNS = Number(process.env.FUZZ_UPLOAD_RUNS) || 40;
const seed = fuzzSeed();

type Op =
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'cut'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'length'; at: number; value: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
  }),
  // Containers keep sizes in their first bytes (RIFF, Ogg pages, EBML, glb chunks): a lie there.
  fc.record({
    kind: fc.constant('length' as const),
    at: fc.nat({ max: 64 }),
    value: fc.constantFrom(0, 1, 0x7fffffff, 0xffffffff, 2 ** 30),
  }),
);

function mutate(data: Uint8Array, ops: readonly Op[]): Uint8Array {
  let out = Uint8Array.from(data);
  for (const o of ops) {
    const at = out.length === 0 ? 0 : o.at % out.length;
    if (o.kind === 'flip' && out.length > 0) out[at] = (out[at] ?? 0) ^ o.xor;
    else if (o.kind === 'cut') out = out.slice(0, at);
    else if (o.kind === 'insert') out = Uint8Array.from([...out.slice(0, at), ...o.bytes, ...out.slice(at)]);
    else if (o.kind === 'length' && at + 4 <= out.length)
      new DataView(out.buffer, out.byteOffset).setUint32(at, o.value, true);
  }
  return out;
}

/** Three times in four a real file (the first `real` seeds) is broken, else one of the corpus. */
const cases = (count: number, seeds: number, real: number, offset: number) =>
  fc.sample(
    fc.record({
      from: fc.oneof(
        { weight: 3, arbitrary: fc.nat({ max: real - 1 }) },
        { weight: 1, arbitrary: fc.nat({ max: seeds - 1 }) },
      ),
      ops: fc.array(op, { minLength: 1, maxLength: 4 }),
      language: fc.constantFrom('es' as const, 'en' as const),
    }),
    { seed: seed + offset, numRuns: count },
  );

let server: TestServer;
let user: AuthSession;
let notes: { name: string; data: Uint8Array }[];
let models: { name: string; data: Uint8Array }[];

beforeAll(async () => {
  console.info(`uploads fuzz: FUZZ_SEED=${seed}, ${RUNS} files per route`);
  // The browser's transcript stands in for a transcriber, and replies are text only: a mutated
  // note that is still valid costs little, so every run is about the upload.
  server = await startTestServer({ SPEECH_ENGINE: 'none', TRANSCRIBE_ENGINE: 'hint' });
  user = await registerUser(server.url, { name: 'Fuzz' });
  notes = [
    { name: 'nota.webm', data: (await makeVoiceNote('webm')).data },
    { name: 'nota.ogg', data: (await makeVoiceNote('ogg')).data },
    ...(await hostileAudioCorpus()).map((h) => ({ name: h.file, data: h.data })),
  ];
  models = [
    { name: 'rpm.glb', data: await TEST_MODELS.readyPlayerMe() },
    { name: 'bomba.glb', data: sparseBomb() },
    ...Object.entries(HOSTILE_MODELS).map(([name, m]) => ({ name: `${name}.glb`, data: m.build() })),
  ];
}, 120_000);
afterAll(async () => {
  await server?.dispose();
});

/** The files (not folders) under `dir`, by path relative to it. */
const files = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    : [];

async function send(path: string, field: string, name: string, data: Uint8Array, language: 'es' | 'en') {
  const form = new FormData();
  form.append('transcriptHint', 'hola, esto es una nota');
  form.append(field, new Blob([data as Uint8Array<ArrayBuffer>]), name);
  const res = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'accept-language': language },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** A case in a failure message: the file and its mutations (inserted bytes by their count). */
const caseName = (name: string, ops: readonly Op[]) =>
  `${name} ${JSON.stringify(ops, (_, v: unknown) => (v instanceof Uint8Array ? v.length : v))}`;

function expectRefusal(status: number, body: unknown, context: string) {
  expect(status, context).toBeLessThan(500);
  expect(ApiErrorSchema.safeParse(body).success, `${context}: ${JSON.stringify(body)}`).toBe(true);
}

describe('upload fuzz (E-1, AU-10, V-2)', () => {
  it(`E-1 V-2 ${RUNS} mutated voice notes: never a 5xx; a refused note stores and counts nothing`, async () => {
    const call = apiClient(server.url, { token: user.token });
    const usage = async () => (await call(routes.account.usage)).usage.messagesThisMonth;
    let accepted = 0;
    for (const c of cases(RUNS, notes.length, 2, 1)) {
      const source = notes[c.from]!;
      const data = mutate(source.data, c.ops);
      const [before, counted] = [files(join(server.dataDir, 'audio')), await usage()];
      const { status, body } = await send('/message-audio', 'audio', source.name, data, c.language);
      const context = caseName(source.name, c.ops);
      if (status < 300) {
        accepted += 1;
        continue;
      }
      expectRefusal(status, body, context);
      expect(files(join(server.dataDir, 'audio')), context).toEqual(before);
      expect(await usage(), context).toBe(counted);
    }
    console.info(`uploads fuzz: ${accepted} of ${RUNS} mutated notes were still playable and accepted`);
  }, 600_000);

  it(`E-1 AU-10 ${RUNS} mutated models checked: never a 5xx, nothing stored`, async () => {
    const before = files(server.dataDir).filter((f) => !f.startsWith('audio'));
    for (const c of cases(RUNS, models.length, 1, 2)) {
      const source = models[c.from]!;
      const data = mutate(source.data, c.ops);
      const { status, body } = await send(
        '/api/upload/avatar/compatibility-check',
        'model',
        source.name,
        data,
        c.language,
      );
      const context = caseName(source.name, c.ops);
      if (status >= 300) expectRefusal(status, body, context);
    }
    const after = files(server.dataDir).filter((f) => !f.startsWith('audio'));
    expect(
      after.filter((f) => !before.includes(f) && !f.endsWith('.db-wal') && !f.endsWith('.db-shm')),
    ).toEqual([]);
    const health = await fetch(new URL('/health', server.url));
    expect(health.status).toBe(200);
  }, 600_000);
});
