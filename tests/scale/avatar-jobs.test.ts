import { request } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ServerEvent, routes, type CustomAvatar, type Health } from '@alma/protocol';
import { TEST_MODELS } from '@alma/server/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startCluster, type TestCluster } from '../fixtures/cluster.ts';
import { stopProcess } from '../fixtures/processes.ts';
import { socketClients, type TestClient } from '../fixtures/socket.ts';

/**
 * SPEC.md M-7: avatar jobs shared by real Alma processes on one Redis and one database file —
 * progress reaching a socket on another instance, a third instance starting while a job runs and
 * an upload arrives (it touches neither), and the instance running a job killed (another takes
 * the job over once its lease is gone). One cluster for the file; a third instance joins midway.
 */
const LEASE_MS = 3000; // short for the test; a loaded machine never starves a heartbeat past it

let cluster: TestCluster;
const clients = socketClients();
const { connect } = clients;
const url = (i: number) => cluster.instances[i]?.url ?? '';

beforeAll(async () => {
  // `runnerOf` looks for a job in /health's `running` while it runs: no answer given again (H-1).
  cluster = await startCluster(2, {
    SPEECH_ENGINE: 'none',
    INSTANCE_LEASE_MS: String(LEASE_MS),
    HEALTH_MAX_AGE_MS: '0',
  });
}, 120_000);
afterAll(async () => {
  clients.closeAll();
  await cluster?.stop();
});

/** A multipart avatar upload whose file arrives in two halves; the second when `rest` is called. */
function uploadInTwoHalves(base: string, token: string, name: string, bytes: Uint8Array) {
  const boundary = `----alma-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="${name}.glb"\r\n` +
      'Content-Type: model/gltf-binary\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(bytes.length / 2);
  const req = request(`${base}/api/upload/avatar`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + bytes.length + tail.length,
    },
  });
  const answer = new Promise<{ status: number; body: { avatar?: CustomAvatar } }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as never }));
    });
    req.on('error', reject);
  });
  req.write(head);
  req.write(bytes.subarray(0, half));
  return {
    answer,
    rest: () => {
      req.write(bytes.subarray(half));
      req.end(tail);
    },
  };
}

async function upload(base: string, token: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('name', name);
  form.append('avatar', new Blob([new Uint8Array(bytes)]), `${name}.glb`);
  const res = await fetch(`${base}/api/upload/avatar`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { avatar: CustomAvatar };
  expect(res.status).toBe(202);
  return body.avatar.id;
}

const progressOf = (c: TestClient, id: string) =>
  c.events
    .filter((e) => e.event === ServerEvent.uploadProgress && e.payload.id === id)
    .map((e) => e.payload as { status: string; step: string; progress: number });
const health = async (base: string) => (await (await fetch(`${base}/health`)).json()) as Health;
/** The instance whose workers run the job now, once one does. */
async function runnerOf(id: string, among: number[]): Promise<number> {
  for (let i = 0; i < 400; i++) {
    for (const at of among) if ((await health(url(at))).avatarJobs?.running.includes(id)) return at;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no instance runs ${id}`);
}
async function settled(base: string, token: string, id: string, timeoutMs: number) {
  const call = apiClient(base, { token });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { avatar } = await call(routes.avatarUploads.status, { params: { id } });
    if (!['pending', 'processing'].includes(avatar.status) || Date.now() > deadline) return avatar;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('M-7 avatar jobs across instances', () => {
  it('M-7 an avatar uploaded through A pushes every step to a socket on B, wherever the job runs', async () => {
    const user = await registerUser(url(0), { name: 'Sube en A' });
    const onB = await connect(url(1), user.token);
    const id = await upload(url(0), user.token, 'rpm', await TEST_MODELS.readyPlayerMe());
    await onB.waitFor(() => progressOf(onB, id).some((p) => p.status === 'completed'), 60_000);
    const seen = progressOf(onB, id);
    expect(seen.map((p) => p.status)).toEqual(expect.arrayContaining(['processing', 'completed']));
    const progress = seen.map((p) => p.progress);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect(onB.problems).toEqual([]);
  });

  it("M-7 an instance starting up touches neither a live instance's running job nor its upload still arriving", async () => {
    const runner = await registerUser(url(0), { name: 'Trabajo vivo' });
    const sender = await registerUser(url(0), { name: 'Subida a medias' });
    const watch = await connect(url(0), runner.token);
    const id = await upload(url(0), runner.token, 'grande', await TEST_MODELS.bigTexture());
    await watch.waitFor(() => progressOf(watch, id).some((p) => p.status === 'processing'), 30_000);
    const arriving = uploadInTwoHalves(url(1), sender.token, 'a-medias', await TEST_MODELS.mixamo());
    await new Promise((r) => setTimeout(r, 200)); // the first half is on B's disk

    await cluster.add(); // C runs its start-up recovery now
    arriving.rest();
    const answered = await arriving.answer;
    expect(answered.status).toBe(202);

    const done = await settled(url(0), runner.token, id, 60_000);
    expect(done.status).toBe('completed');
    // Never put back in the queue: once processing, it only went forward.
    const statuses = progressOf(watch, id).map((p) => p.status);
    expect(statuses.slice(statuses.indexOf('processing'))).not.toContain('pending');
    const sent = answered.body.avatar?.id ?? '';
    expect((await settled(url(2), sender.token, sent, 60_000)).status).toBe('completed');
  });

  it('M-7 kill -9 of the instance running a job: another instance takes it over once the lease is gone and finishes it', async () => {
    const user = await registerUser(url(0), { name: 'Relevo' });
    const id = await upload(url(1), user.token, 'relevo', await TEST_MODELS.bigTexture());
    const at = await runnerOf(id, [0, 1, 2]);
    await stopProcess(cluster.instances[at]!.child, 'SIGKILL');
    const survivor = url(at === 0 ? 1 : 0);

    const done = await settled(survivor, user.token, id, 4 * LEASE_MS + 60_000);
    expect(done.status).toBe('completed');
    const dir = join(cluster.dataDir, 'custom-avatars');
    // The model and its portrait (AV-7), nothing left over from the dead instance's run. The
    // upload goes just after the record says completed (a crash between the two must leave a
    // completed avatar, not an interrupted one), so it is waited for, not expected at once.
    await expect
      .poll(
        () =>
          readdirSync(dir)
            .filter((f) => f.startsWith(id))
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual([`${id}.glb`, `${id}.portrait.webp`]);
  });
});
