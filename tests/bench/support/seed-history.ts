/**
 * Sessions with a history, written straight into a benchmarked server's embedded database (its
 * `alma.db`, opened beside the server: SQLite's WAL lets two connections share the file, and the
 * server notices the commits as it would another instance's). A send into one of them reads its
 * session and its recent turns — the path most messages take — where a send that starts a session
 * reads neither.
 */
import { join } from 'node:path';
import { uuidv7 } from '../../../server/src/lib/ids.ts';
import { EMBEDDED_FILE_NAME, openEmbeddedStorage } from '../../../server/src/storage/index.ts';
import type { NewMessage } from '../../../server/src/storage/records.ts';

const USER_LINE = 'Hoy he estado pensando en lo que me dijiste ayer sobre descansar más';
const REPLY_LINE =
  'Me alegra que lo pienses. Descansar también es avanzar, aunque no lo parezca. ¿Qué te ayudaría a hacerlo esta semana?';

/** One session per user, each with `turns` exchanges (a user line and its complete reply); their ids, in order. */
export async function seedHistory(
  dataDir: string,
  userIds: readonly string[],
  turns: number,
): Promise<string[]> {
  const storage = openEmbeddedStorage({ file: join(dataDir, EMBEDDED_FILE_NAME) });
  try {
    const start = Date.now() - turns * 2 * 60_000;
    return await Promise.all(
      userIds.map(async (userId) => {
        const sessionId = uuidv7();
        const createdAt = new Date(start).toISOString();
        await storage.sessions.create({
          sessionId,
          userId,
          title: 'Descansar',
          titleSource: 'user',
          personality: 'default',
          createdAt,
          updatedAt: createdAt,
        });
        const rows: NewMessage[] = [];
        for (let turn = 0; turn < turns; turn++) {
          const at = (k: number) => new Date(start + (turn * 2 + k) * 60_000).toISOString();
          const asked: NewMessage = {
            _id: uuidv7(),
            sessionId,
            userId,
            role: 'user',
            content: USER_LINE,
            createdAt: at(0),
            clientMessageId: `seed-${sessionId}-${turn}`,
            replyTo: null,
            emotion: null,
            emotionAnalysis: null,
            language: 'es',
            userLanguage: 'es',
            personality: null,
            audioUrl: null,
            isComplete: true,
            voiceId: null,
            avatarId: null,
          };
          rows.push(asked, {
            ...asked,
            _id: uuidv7(),
            role: 'assistant',
            content: REPLY_LINE,
            createdAt: at(1),
            clientMessageId: null,
            replyTo: asked._id,
            personality: 'default',
          });
        }
        // One group commit for all of a user's rows (written in the same turn).
        await Promise.all(rows.map((row) => storage.messages.insert(row)));
        return sessionId;
      }),
    );
  } finally {
    await storage.close();
  }
}
