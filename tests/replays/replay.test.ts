import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer } from '../fixtures/server.ts';
import { connectClient } from '../fixtures/socket.ts';
import { normalise, readRecording, runScenario } from './replay.ts';
import { DETERMINISTIC_ENGINES, SCENARIOS } from './scenarios.ts';

/**
 * Every recording in tests/replays is replayed against a fresh server, started with the
 * recording's environment and the deterministic builtin engines: the steps run again and what the
 * client sees — events, acks, REST answers — must match the recording (ids and times normalised).
 * A deliberate change of behaviour re-records with `pnpm run replays:record`.
 */
const dir = new URL('.', import.meta.url).pathname;
const recordings = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));

describe('socket replays', () => {
  it('has a recording for every scenario, at least the six of issue 4', () => {
    expect(recordings.sort()).toEqual(SCENARIOS.map((s) => `${s.name}.jsonl`).sort());
    expect(recordings.length).toBeGreaterThanOrEqual(6);
  });

  it.each(recordings)('%s replays to the same sequence', { timeout: 180_000 }, async (file) => {
    const { scenario, lines } = readRecording(join(dir, file));
    // The scenario in the file is the one that was recorded; it must still be the declared one.
    expect(scenario).toEqual(SCENARIOS.find((s) => s.name === scenario.name));
    const server = await startTestServer({ ...DETERMINISTIC_ENGINES, ...scenario.env });
    const user = await registerUser(server.url);
    const client = connectClient(server.url, user.token);
    try {
      await client.connected();
      const live = await runScenario(scenario, client, { url: server.url, token: user.token });
      expect(client.problems).toEqual([]);
      expect(normalise(live)).toEqual(normalise(lines));
    } finally {
      client.close();
      await server.dispose();
    }
  });
});
