import { openEmbeddedStorage } from './index.ts';

/**
 * Test fixture for contract.test.ts: writes messages in bursts, prints each id once its insert
 * has resolved (the point at which a caller would acknowledge it), then prints `done` and idles
 * until the test kills it with SIGKILL. Usage: node --import tsx kill-writer.fixture.ts <file> <count>
 */
const [file, count] = process.argv.slice(2);
if (file === undefined || count === undefined)
  throw new Error('usage: kill-writer.fixture.ts <file> <count>');

const storage = openEmbeddedStorage({ file });
await storage.users.create({
  id: 'user-0001',
  name: 'Writer',
  email: 'writer@example.com',
  passwordHash: 'hash',
  plan: 'free',
  role: 'user',
  language: 'es',
  theme: 'dark',
  createdAt: new Date(0).toISOString(),
});
const { sessionId } = await storage.sessions.create({
  sessionId: 'session-0001',
  userId: 'user-0001',
  title: null,
  personality: 'default',
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
});
// In bursts of five at once, so writes share group commits (group-commit.ts) as under load.
const insert = async (n: number) => {
  const { message } = await storage.messages.insert({
    _id: `message-${String(n).padStart(4, '0')}`,
    sessionId,
    userId: 'user-0001',
    role: 'user',
    content: `message ${n}`,
    createdAt: new Date(n * 1000).toISOString(),
    clientMessageId: `client-${n}`,
    replyTo: null,
    emotion: null,
    emotionAnalysis: null,
    language: null,
    userLanguage: null,
    personality: null,
    audioUrl: null,
    isComplete: true,
  });
  process.stdout.write(`${message._id}\n`);
};
for (let n = 1; n <= Number(count); n += 5) {
  const burst = Array.from({ length: Math.min(5, Number(count) - n + 1) }, (_, i) => n + i);
  await Promise.all(burst.map(insert));
}
process.stdout.write('done\n');
// Stay alive, holding the database open, until killed.
setInterval(() => {}, 60_000);
