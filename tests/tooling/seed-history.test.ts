import { routes } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { seedHistory } from '../bench/support/seed-history.ts';

/**
 * The speech bench's BENCH_HISTORY: sessions written into a running server's database, beside
 * it. The server reads them as its own, and a send into one reads its history.
 */
describe('bench: sessions seeded with a history', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SPEECH_ENGINE: 'none' });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('gives each user a session of their own, with its exchanges in order, that a send goes on', async () => {
    const [ana, ben] = await Promise.all([registerUser(server.url), registerUser(server.url)]);
    const [anaSession, benSession] = await seedHistory(server.dataDir, [ana.user.id, ben.user.id], 3);
    const asAna = apiClient(server.url, { token: ana.token });

    const { sessions } = await asAna(routes.chat.listSessions);
    expect(sessions.map((s) => [s.sessionId, s.messageCount])).toEqual([[anaSession, 6]]);
    const page = await asAna(routes.chat.listMessages, { query: { sessionId: anaSession ?? '' } });
    expect(page.items.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    for (const [i, m] of page.items.entries()) {
      if (m.role === 'assistant') expect(m.replyTo).toBe(page.items[i - 1]?._id);
      expect(m.isComplete).toBe(true);
    }
    // Ben's session is his alone.
    await expect(
      asAna(routes.chat.listMessages, { query: { sessionId: benSession ?? '' } }),
    ).rejects.toMatchObject({
      status: 404,
    });

    const reply = await asAna(routes.chat.sendMessage, {
      body: { message: 'Hola otra vez', sessionId: anaSession },
    });
    expect(reply.sessionId).toBe(anaSession);
    const after = await asAna(routes.chat.listMessages, { query: { sessionId: anaSession ?? '' } });
    expect(after.items).toHaveLength(8);
    expect(after.items.at(-2)?.content).toBe('Hola otra vez');
  });
});
