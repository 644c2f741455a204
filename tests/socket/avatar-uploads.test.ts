import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerEvent, routes, type CustomAvatar } from '@alma/protocol';
import { TEST_MODELS } from '@alma/server/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

/** The files left under a folder, whatever the subfolder (each instance has its own: M-7). */
const filesUnder = (path: string) =>
  readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

/**
 * Custom avatar processing seen from a real client (issue #7): progress pushed live over
 * `upload:progress` in order and matching the polled status, cancel mid-processing, two uploads
 * against a concurrency limit of one, and a server restart in the middle of processing.
 */
const servers: TestServer[] = [];
const clients: TestClient[] = [];
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of servers) await s.dispose();
});

async function start(dataDir?: string) {
  const server = await startTestServer({}, dataDir);
  servers.push(server);
  return server;
}

async function upload(server: TestServer, token: string, name: string, data: Uint8Array) {
  const form = new FormData();
  form.append('name', name);
  form.append('avatar', new Blob([new Uint8Array(data)]), `${name}.glb`);
  const res = await fetch(`${server.url}/api/upload/avatar`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'es' },
  });
  return {
    status: res.status,
    body: (await res.json()) as { avatar: CustomAvatar; error?: { code: string } },
  };
}

const progressOf = (client: TestClient, id: string) =>
  client.events
    .filter((e) => e.event === ServerEvent.uploadProgress && e.payload.id === id)
    .map((e) => e.payload as { status: string; progress: number; step: string });

const finished = (client: TestClient, id: string) =>
  client.waitFor(
    () => progressOf(client, id).some((p) => ['completed', 'failed', 'cancelled'].includes(p.status)),
    60_000,
  );

describe('avatar processing, live', () => {
  it("pushes every step in order to the owner's sockets, matching the polled status", async () => {
    const server = await start();
    const session = await registerUser(server.url);
    const client = connectClient(server.url, session.token);
    clients.push(client);
    const other = await registerUser(server.url);
    const otherClient = connectClient(server.url, other.token);
    clients.push(otherClient);
    await Promise.all([client.connected(), otherClient.connected()]);

    const res = await upload(server, session.token, 'rpm', await TEST_MODELS.readyPlayerMe());
    expect(res.status).toBe(202);
    const { id } = res.body.avatar;
    await finished(client, id);

    const seen = progressOf(client, id);
    // AU-4: validating is pushed as it starts (10) and as it passes (20).
    expect(seen.map((p) => p.progress)).toEqual([5, 10, 20, 40, 60, 80, 100]);
    expect(seen.map((p) => p.step)).toEqual([
      'queued',
      'validating',
      'validating',
      'inspecting',
      'analysing',
      'optimising',
      'stored',
    ]);
    expect(seen.at(-1)?.status).toBe('completed');
    const call = apiClient(server.url, { token: session.token });
    const polled = await call(routes.avatarUploads.status, { params: { id } });
    expect(polled.avatar).toMatchObject({
      status: 'completed',
      progress: 100,
      step: 'stored',
      isReady: true,
    });
    expect(client.problems).toEqual([]);
    // Nobody else hears about it.
    expect(progressOf(otherClient, id)).toEqual([]);
  });

  it('cancels mid-processing: the job stops, the files go, the record says cancelled', async () => {
    const server = await start();
    const session = await registerUser(server.url);
    const client = connectClient(server.url, session.token);
    clients.push(client);
    await client.connected();
    const res = await upload(server, session.token, 'big', await TEST_MODELS.bigTexture());
    const { id } = res.body.avatar;
    await client.waitFor(() => progressOf(client, id).some((p) => p.status === 'processing'));
    const call = apiClient(server.url, { token: session.token });
    const cancelled = await call(routes.avatarUploads.cancel, { params: { id } });
    expect(cancelled.avatar.status).toBe('cancelled');
    await finished(client, id);
    await new Promise((r) => setTimeout(r, 300));
    expect((await call(routes.avatarUploads.status, { params: { id } })).avatar.status).toBe('cancelled');
    expect(progressOf(client, id).at(-1)?.status).toBe('cancelled');
    const dir = join(server.dataDir, 'custom-avatars');
    expect(readdirSync(dir).filter((f) => f.startsWith(id))).toEqual([]);
    // Cancelling again is refused: only a job in progress can be cancelled.
    await expect(call(routes.avatarUploads.cancel, { params: { id } })).rejects.toMatchObject({
      status: 409,
    });
  });

  it('two uploads against a concurrency limit of one: the second is refused, the first completes', async () => {
    const server = await start();
    const session = await registerUser(server.url);
    const [first, second] = await Promise.all([
      upload(server, session.token, 'uno', await TEST_MODELS.bigTexture()),
      TEST_MODELS.mixamo().then((bytes) => new Promise((r) => setTimeout(r, 50)).then(() => bytes)),
    ]).then(async ([one, bytes]) => [one, await upload(server, session.token, 'dos', bytes)] as const);
    expect(first.status).toBe(202);
    expect(second.status).toBe(429);
    expect(second.body.error?.code).toBe('upload_concurrency_limit');
    const call = apiClient(server.url, { token: session.token });
    const list = await call(routes.avatarUploads.list, { params: { userId: session.user.id } });
    expect(list.avatars.map((a) => a.name)).toEqual(['uno']);
  });

  it('a restart mid-processing resumes the job; a job whose upload is gone fails as interrupted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'alma-restart-'));
    try {
      const first = await start(dataDir);
      const session = await registerUser(first.url);
      const client = connectClient(first.url, session.token);
      await client.connected();
      const resumed = (await upload(first, session.token, 'sigue', await TEST_MODELS.bigTexture())).body
        .avatar.id;
      await client.waitFor(() => progressOf(client, resumed).some((p) => p.status === 'processing'));
      client.close();
      await first.close();

      const second = await start(dataDir);
      const call = apiClient(second.url, { token: session.token });
      let status = (await call(routes.avatarUploads.status, { params: { id: resumed } })).avatar;
      for (let i = 0; i < 400 && ['pending', 'processing'].includes(status.status); i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await call(routes.avatarUploads.status, { params: { id: resumed } })).avatar;
      }
      expect(status.status).toBe('completed');
      const dir = join(dataDir, 'custom-avatars');
      // The processed model and its portrait for the picker (SPEC.md AV-7), nothing else; the
      // upload goes just after the record says completed, so it is waited for.
      await expect
        .poll(
          () =>
            readdirSync(dir)
              .filter((f) => f.startsWith(resumed))
              .sort(),
          { timeout: 10_000 },
        )
        .toEqual([`${resumed}.glb`, `${resumed}.portrait.webp`]);
      expect(existsSync(join(dir, 'incoming')) ? filesUnder(join(dir, 'incoming')) : []).toEqual([]);
      await second.close();

      // Now lose an upload file while its job is pending, and restart again.
      const third = await start(dataDir);
      const bytes = await TEST_MODELS.bigTexture();
      const lostClient = connectClient(third.url, session.token);
      await lostClient.connected();
      const lost = (await upload(third, session.token, 'perdido', bytes)).body.avatar.id;
      await lostClient.waitFor(() => progressOf(lostClient, lost).some((p) => p.status === 'processing'));
      lostClient.close();
      await third.close();
      rmSync(join(dir, `${lost}.upload.glb`), { force: true });
      const fourth = await start(dataDir);
      const after = await apiClient(fourth.url, { token: session.token })(routes.avatarUploads.get, {
        params: { id: lost },
      });
      expect(after.avatar).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
      expect(readdirSync(dir).filter((f) => f.startsWith(lost))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
