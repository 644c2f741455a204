import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../lib/app-error.ts';
import { createHintTranscriber } from './hint.ts';
import { createOpenAITranscriber } from './openai.ts';

/**
 * The OpenAI-compatible provider against a local node:http server speaking the documented
 * `/v1/audio/transcriptions` format — a test double at a boundary this sandbox cannot reach.
 */
interface Seen {
  auth: string | undefined;
  contentType: string | undefined;
  body: Buffer;
}
const seen: Seen[] = [];
let answer: { status: number; body: string } = { status: 200, body: '{"text":" Hola, ¿qué tal? "}' };
let baseUrl = '';
const server = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url !== '/v1/audio/transcriptions' || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    seen.push({
      auth: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: Buffer.concat(chunks),
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = (hint?: string) => ({
  pcm: new Float32Array(16_000).map((_, i) => Math.sin(i / 10) * 0.3),
  sampleRate: 16_000,
  language: 'es' as const,
  hint,
  signal: new AbortController().signal,
});

describe('openai transcriber (SPEC.md V-3)', () => {
  it('V-3 posts a 16 kHz WAV as multipart with model, format and language, and answers the text', async () => {
    const t = createOpenAITranscriber({ baseUrl, apiKey: 'sk-test', model: 'whisper-1', timeoutMs: 5000 });
    const result = await t.transcribe(request());
    expect(result).toEqual({ text: 'Hola, ¿qué tal?', engine: 'openai' });
    const last = seen.at(-1);
    expect(last?.auth).toBe('Bearer sk-test');
    expect(last?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const body = last?.body.toString('latin1') ?? '';
    expect(body).toMatch(/name="file"; filename="note.wav"/);
    expect(body).toMatch(/Content-Type: audio\/wav/);
    expect(body).toContain('RIFF');
    expect(body).toMatch(/name="model"\r\n\r\nwhisper-1/);
    expect(body).toMatch(/name="response_format"\r\n\r\njson/);
    expect(body).toMatch(/name="language"\r\n\r\nes/);
  });

  it('V-3 a provider error or an empty transcript is voice_note_failed, never a text', async () => {
    const t = createOpenAITranscriber({ baseUrl, model: 'whisper-1', timeoutMs: 5000 });
    answer = { status: 500, body: '{"error":{"message":"boom"}}' };
    const failed = await t.transcribe(request()).catch((e: unknown) => e);
    expect(isAppError(failed) && failed.code).toBe('voice_note_failed');
    answer = { status: 200, body: '{"text":"   "}' };
    const empty = await t.transcribe(request()).catch((e: unknown) => e);
    expect(isAppError(empty) && empty.code).toBe('voice_note_failed');
    answer = { status: 200, body: '{"text":"ok"}' };
  });

  it('V-3 the hint transcriber uses the browser transcript, or says transcription_not_configured', async () => {
    const t = createHintTranscriber();
    expect(await t.transcribe(request('  hola  '))).toEqual({ text: 'hola', engine: 'hint' });
    const none = await t.transcribe(request()).catch((e: unknown) => e);
    expect(isAppError(none) && none.code).toBe('transcription_not_configured');
  });
});
