import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient } from '../fixtures/socket.ts';
import { normalise, readRecording, replay } from './replay.ts';

/**
 * Every recording in tests/replays is replayed against a fresh server with the deterministic
 * builtin engines; the server's events and acks must match the recording (ids and times
 * normalised). A deliberate change of behaviour re-records with `pnpm run replays:record`.
 */
const dir = new URL('.', import.meta.url).pathname;
const recordings = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.dispose());

describe('socket replays', () => {
  it('has recordings to replay', () => {
    expect(recordings.length).toBeGreaterThan(0);
  });

  it.each(recordings)('%s replays to the same event sequence', async (file) => {
    const recording = readRecording(join(dir, file));
    const user = await registerUser(server.url);
    const client = connectClient(server.url, user.token);
    try {
      await client.connected();
      const live = await replay(recording, client);
      const expected = normalise(recording.filter((l) => l.dir !== 'in'));
      expect(normalise(live)).toEqual(expected);
    } finally {
      client.close();
    }
  });
});
