/**
 * Records the scenarios of scenarios.ts as tests/replays/<name>.jsonl, each through a real server
 * started with the scenario's environment. Run after a deliberate change of behaviour:
 *   pnpm run replays:record            (all)
 *   pnpm run replays:record cancel-mid-reply
 */
import { writeFileSync } from 'node:fs';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer } from '../fixtures/server.ts';
import { connectClient } from '../fixtures/socket.ts';
import { encodeForRecording, runScenario, type RecordLine } from './replay.ts';
import { DETERMINISTIC_ENGINES, SCENARIOS } from './scenarios.ts';

const only = process.argv.slice(2);
for (const scenario of SCENARIOS.filter((s) => only.length === 0 || only.includes(s.name))) {
  const server = await startTestServer({ ...DETERMINISTIC_ENGINES, ...scenario.env });
  const user = await registerUser(server.url);
  const client = connectClient(server.url, user.token);
  try {
    await client.connected();
    const lines = await runScenario(scenario, client, { url: server.url, token: user.token });
    if (client.problems.length > 0) throw new Error(client.problems.join('; '));
    const meta: RecordLine = { t: 0, dir: 'meta', event: 'scenario', payload: scenario };
    const text = [meta, ...lines].map((line) => JSON.stringify(encodeForRecording(line))).join('\n');
    writeFileSync(new URL(`./${scenario.name}.jsonl`, import.meta.url), `${text}\n`);
    console.info(`recorded ${scenario.name}.jsonl (${lines.length} lines)`);
  } finally {
    client.close();
    await server.dispose();
  }
}
