import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { routes, type CustomVoice, type Health } from '@alma/protocol';
import { oggOpusOf, tone, wavOf } from '@alma/server/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startCluster, type TestCluster } from '../fixtures/cluster.ts';
import { stopProcess } from '../fixtures/processes.ts';

/**
 * SPEC.md M-9: voice samples analysed as jobs shared by real Alma processes on one Redis and one
 * database file. Instance A takes uploads but runs no analysis (VOICE_JOB_WORKERS=0), so every
 * sample it takes is analysed by B's or C's worker; then the instance analysing one is killed
 * and the other takes the job over once its lease is gone. The upload answers as on one process.
 */
const LEASE_MS = 3000; // short for the test; a loaded machine never starves a heartbeat past it

let cluster: TestCluster;
const url = (i: number) => cluster.instances[i]?.url ?? '';

beforeAll(async () => {
  // /health's counters are read right before and after each upload: no answer given again (H-1).
  const env = { SPEECH_ENGINE: 'none', INSTANCE_LEASE_MS: String(LEASE_MS), HEALTH_MAX_AGE_MS: '0' };
  cluster = await startCluster(1, { ...env, VOICE_JOB_WORKERS: '0' });
  await cluster.add({ VOICE_JOB_WORKERS: '1' });
  await cluster.add({ VOICE_JOB_WORKERS: '1' });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
});

async function uploadVoice(base: string, token: string, fileName: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('consent', 'true');
  form.append('voice', new Blob([new Uint8Array(bytes)]), fileName);
  const res = await fetch(`${base}${routes.voiceUploads.upload.path}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
  });
  return { status: res.status, body: (await res.json()) as { voice: CustomVoice; warnings: string[] } };
}

const voiceJobs = async (base: string) => {
  const health = (await (await fetch(`${base}/health`)).json()) as Health;
  if (!health.voiceJobs) throw new Error(`${base}/health has no voiceJobs`);
  return health.voiceJobs;
};
const finishedOn = async (at: number[]) =>
  Promise.all(at.map(async (i) => (await voiceJobs(url(i))).finished));

describe('M-9 voice analysis jobs across instances', () => {
  it('M-9 VU-1 a sample uploaded through A, whose workers analyse none, is analysed by another instance and answered 201 with its analysis', async () => {
    const user = await registerUser(url(0), { name: 'Voz en A' });
    expect(await voiceJobs(url(0))).toMatchObject({ workers: 0, running: [], finished: 0 });
    const before = await finishedOn([1, 2]);

    const { status, body } = await uploadVoice(
      url(0),
      user.token,
      'mi-voz.wav',
      wavOf(tone({ f0: 180, seconds: 4 })),
    );
    expect(status).toBe(201);
    expect(body.voice).toMatchObject({ isCustom: true, format: 'wav', approximation: true });
    expect(body.voice.analysis).toMatchObject({ decoded: true, durationMs: 4000 });
    expect(body.voice.analysis.pitchHz).toBeCloseTo(180, -1);
    expect(body.warnings[0]).toMatch(/approximation/);

    // A ran nothing; B or C ran it, once.
    expect((await voiceJobs(url(0))).finished).toBe(0);
    const after = await finishedOn([1, 2]);
    expect(after[0]! + after[1]! - before[0]! - before[1]!).toBe(1);
    // Recorded once, in the shared database: listed by another instance.
    const { voices } = await apiClient(url(2), { token: user.token })(routes.voiceUploads.list, {
      params: { userId: user.user.id },
    });
    expect(voices.map((v) => v.id)).toEqual([body.voice.id]);
  });

  it('M-9 kill -9 of the instance analysing a sample: the other takes the job over once the lease is gone; the upload still answers 201', async () => {
    const user = await registerUser(url(0), { name: 'Relevo de voz' });
    // Nearly two minutes of speech-like tone: about a second of analysis, long enough to be caught running.
    const sample = await oggOpusOf(tone({ f0: 180, seconds: 110, burstsPerSecond: 4 }));
    const answer = uploadVoice(url(0), user.token, 'larga.ogg', sample);

    let at = -1;
    for (let i = 0; i < 2000 && at < 0; i++) {
      for (const candidate of [1, 2])
        if ((await voiceJobs(url(candidate))).running.length > 0) at = candidate;
      if (at < 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(at).toBeGreaterThan(0);
    await stopProcess(cluster.instances[at]!.child, 'SIGKILL');
    const survivor = at === 1 ? 2 : 1;
    const finishedBefore = (await voiceJobs(url(survivor))).finished;

    const { status, body } = await answer;
    expect(status).toBe(201);
    expect(body.voice.analysis.durationMs).toBeGreaterThan(100_000);
    expect(body.voice.analysis.pitchHz).toBeCloseTo(180, -1);
    expect((await voiceJobs(url(survivor))).finished).toBe(finishedBefore + 1);
    // One voice, one sample: nothing left over from the dead instance's run.
    const { voices } = await apiClient(url(0), { token: user.token })(routes.voiceUploads.list, {
      params: { userId: user.user.id },
    });
    expect(voices.map((v) => v.id)).toEqual([body.voice.id]);
    const samples = readdirSync(join(cluster.dataDir, 'custom-voices')).filter((f) => f === body.voice.file);
    expect(samples).toEqual([body.voice.file]);
  });
});
