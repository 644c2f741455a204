import { ClientEvent, ServerEvent, routes, type AuthSession } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorStatus,
  startFakeOpenAI,
  streamPieces,
  type FakeOpenAI,
} from '../../server/src/engines/reply/testing/fake-openai.ts';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

// REPLY_ENGINE=openai through the real server and a real socket client. The provider is a local
// HTTP server speaking OpenAI's streaming wire format: a test double at a boundary the tests
// cannot reach (see server/src/engines/reply/testing/fake-openai.ts).
let provider: FakeOpenAI;
let server: TestServer;
let user: AuthSession;
let client: TestClient;
let sessionId: string;

beforeAll(async () => {
  provider = await startFakeOpenAI();
  server = await startTestServer({
    REPLY_ENGINE: 'openai',
    OPENAI_BASE_URL: provider.baseUrl,
    OPENAI_MODEL: 'test',
    OPENAI_MAX_RETRIES: '0',
  });
  user = await registerUser(server.url, { name: 'Ana' });
  client = connectClient(server.url, user.token);
  await client.connected();
});
afterAll(async () => {
  client.close();
  await server.dispose();
  await provider.close();
});

describe('REPLY_ENGINE=openai', () => {
  it('reports the engine in /health', async () => {
    const health = await apiClient(server.url)(routes.health.health);
    expect(health.engines.reply).toBe('openai:test');
  });

  it('streams the provider reply without the side-channel tag, and stores it', async () => {
    provider.respond(
      streamPieces(['[[emotion=happy;', 'gesture=greeting]]\n', 'Hello Ana! ', 'Nice to meet you.'], {
        delayMs: 5,
      }),
    );
    const ack = await client.request(ClientEvent.chatSend, {
      clientMessageId: 'openai-1',
      message: 'Hello! My name is Ana.',
    });
    if (!ack.ok) throw new Error(ack.error.message);
    sessionId = ack.data.sessionId;
    await client.waitForReplyEnd(ack.data.replyId);

    const events = client.replyEvents(ack.data.replyId);
    const deltas = events
      .filter((e) => e.event === ServerEvent.chatDelta)
      .map((e) => e.payload.text as string);
    expect(deltas.join('')).toBe('Hello Ana! Nice to meet you.');
    expect(events.find((e) => e.event === ServerEvent.chatEmotion)?.payload).toMatchObject({
      emotion: 'happy',
    });
    expect(events.find((e) => e.event === ServerEvent.avatarIntent)?.payload).toMatchObject({
      gesture: 'greeting',
      emotion: 'happy',
    });
    expect(events.at(-1)?.event).toBe(ServerEvent.chatReply);
    expect(client.problems).toEqual([]);

    // What the provider was asked: the model, streaming, the English system prompt, the message.
    const body = provider.requests.at(-1)?.body as {
      model: string;
      stream: boolean;
      messages: { role: string; content: string }[];
    };
    expect(body).toMatchObject({ model: 'test', stream: true });
    expect(body.messages[0]?.content).toContain('Answer in English');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Hello! My name is Ana.' });

    const page = await apiClient(server.url, { token: user.token })(routes.chat.listMessages, {
      query: { sessionId: ack.data.sessionId },
    });
    const stored = page.items.find((m) => m.role === 'assistant');
    expect(stored).toMatchObject({ content: 'Hello Ana! Nice to meet you.', emotion: 'happy' });
  });

  it('sends the history on the next turn', async () => {
    provider.respond(streamPieces(['Of course, Ana.']));
    const ack = await client.request(ClientEvent.chatSend, {
      clientMessageId: 'openai-2',
      sessionId,
      message: 'Do you remember my name?',
    });
    if (!ack.ok) throw new Error(ack.error.message);
    await client.waitForReplyEnd(ack.data.replyId);
    const body = provider.requests.at(-1)?.body as { messages: { role: string; content: string }[] };
    // The session context (C-11) reaches the model too.
    expect(body.messages[0]?.content).toMatch(/People mentioned.*: Ana/);
    expect(body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Hello! My name is Ana.' },
      { role: 'assistant', content: 'Hello Ana! Nice to meet you.' },
      { role: 'user', content: 'Do you remember my name?' },
    ]);
  });

  it('turns a provider failure into chat:error reply_failed', async () => {
    provider.respond(errorStatus(401));
    const ack = await client.request(ClientEvent.chatSend, {
      clientMessageId: 'openai-3',
      sessionId,
      message: 'Are you there?',
    });
    if (!ack.ok) throw new Error(ack.error.message);
    await client.waitForReplyEnd(ack.data.replyId);
    expect(client.replyEvents(ack.data.replyId).at(-1)).toMatchObject({
      event: ServerEvent.chatError,
      payload: { code: 'reply_failed', retryable: true },
    });
  });
});
