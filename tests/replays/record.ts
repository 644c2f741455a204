/**
 * Records the scripted conversations below as tests/replays/<name>.jsonl, through a real server
 * with SOCKET_RECORD_DIR set. Run after a deliberate change of reply behaviour:
 *   pnpm run replays:record
 */
import { ClientEvent } from '@alma/protocol';
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer } from '../fixtures/server.ts';
import { connectClient } from '../fixtures/socket.ts';

const conversations: Record<string, string[]> = {
  'conversation-es': [
    '¡Hola! Me llamo Lucía',
    'Hoy estoy un poco triste por mi examen',
    '¿Qué tiempo hace mañana?',
    'Gracias, adiós',
  ],
  'conversation-en': [
    'Hi there, my name is Sam',
    'I got the job!! I am so happy',
    'Can you remember my name?',
    'Bye for now',
  ],
};

for (const [name, lines] of Object.entries(conversations)) {
  const recordDir = mkdtempSync(join(tmpdir(), 'alma-rec-'));
  const server = await startTestServer({ SOCKET_RECORD_DIR: recordDir });
  const user = await registerUser(server.url);
  const client = connectClient(server.url, user.token);
  await client.connected();
  let sessionId: string | undefined;
  for (const [i, message] of lines.entries()) {
    const ack = await client.request(ClientEvent.chatSend, {
      clientMessageId: `${name}-${i + 1}`,
      message,
      ...(sessionId ? { sessionId } : {}),
    });
    if (!ack.ok) throw new Error(ack.error.message);
    sessionId = ack.data.sessionId;
    await client.waitForReplyEnd(ack.data.replyId);
  }
  client.close();
  await new Promise((r) => setTimeout(r, 200)); // let the recorder flush on disconnect
  await server.dispose();
  const [file] = readdirSync(recordDir);
  if (!file) throw new Error('no recording written');
  copyFileSync(join(recordDir, file), new URL(`./${name}.jsonl`, import.meta.url).pathname);
  console.info(`recorded ${name}.jsonl`);
}
