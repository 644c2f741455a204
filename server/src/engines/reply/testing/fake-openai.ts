import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible provider on loopback — a test double at a boundary the
 * tests cannot reach (no provider is reachable from here, and a real one would be slow, paid and
 * nondeterministic). It speaks the documented wire format of `POST /v1/chat/completions` with
 * `stream: true`: `text/event-stream`, one `data: {"choices":[{"delta":{"content":…}}]}` event per
 * piece, then `data: [DONE]` (https://platform.openai.com/docs/api-reference/chat-streaming).
 * Each test scripts the responses; the double records what it was sent.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** Resolves when the client closed the connection or the response ended. */
  closed: Promise<void>;
  /** True once the client went away before the response ended. */
  abortedByClient: () => boolean;
}

export type Responder = (res: ServerResponse, request: RecordedRequest) => void | Promise<void>;

export interface FakeOpenAI {
  /** Base URL including `/v1`, as OPENAI_BASE_URL takes it. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Answers the next requests in order; the last responder answers every later one. */
  respond: (...responders: Responder[]) => void;
  close: () => Promise<void>;
}

export function sseEvent(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

export function contentEvent(content: string): string {
  return sseEvent({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams `pieces` as content deltas (a role-only delta first, as OpenAI does), then [DONE]. */
export function streamPieces(
  pieces: string[],
  options: { delayMs?: number; done?: boolean } = {},
): Responder {
  return async (res, request) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(sseEvent({ choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }));
    for (const piece of pieces) {
      if (request.abortedByClient()) return;
      if (options.delayMs) await wait(options.delayMs);
      res.write(contentEvent(piece));
    }
    if (options.done === false) return;
    res.write(sseEvent({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
    res.end(sseEvent('[DONE]'));
  };
}

/** An error status with an OpenAI-style error body. */
export function errorStatus(status: number, headers: Record<string, string> = {}): Responder {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message: `test error ${status}`, type: 'test' } }));
  };
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  let responders: Responder[] = [streamPieces(['Hello.'])];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let gone = false;
      const closed = new Promise<void>((resolve) => {
        res.on('close', () => {
          gone = !res.writableFinished;
          resolve();
        });
      });
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        closed,
        abortedByClient: () => gone || res.destroyed,
      };
      requests.push(recorded);
      const responder = responders.length > 1 ? responders.shift() : responders[0];
      void Promise.resolve(responder?.(res, recorded)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    respond: (...next) => {
      responders = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
