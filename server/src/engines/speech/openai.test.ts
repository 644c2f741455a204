import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.ts';
import { createOpenAISynthesizer, providerVoice, type OpenAISpeechOptions } from './openai.ts';
import type { SynthesisRequest } from './types.ts';

// The provider is a local node:http server answering `POST /v1/audio/speech` as the OpenAI
// documentation describes (JSON body in; audio bytes out in the requested `response_format`;
// errors as JSON with a 4xx/5xx status): a test double at a boundary we cannot reach from the
// tests (no provider is reachable here, and a real one would be slow, paid and nondeterministic).

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;

interface Recorded {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  closed: Promise<void>;
}

let baseUrl: string;
let handler: Handler;
const requests: Recorded[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
    requests.push({ headers: req.headers, body, closed });
    if (req.url !== '/v1/audio/speech' || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    handler(req, res, body);
  });
});

// fetch reuses idle connections for up to 4 s; node closes them after 5 s. On a loaded machine the
// two clocks drift and a reused connection is reset under the request: keep them open instead.
server.keepAliveTimeout = 60_000;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests.length = 0;
  handler = (_req, res) => sendAudio(res, wav(speechLike(24_000), 24_000));
});

/** 0.3 s silence, 0.6 s buzz, 0.3 s silence, 0.5 s buzz, 0.2 s silence. */
function speechLike(rate: number): Int16Array {
  const spans: [number, number][] = [
    [300, 900],
    [1200, 1700],
  ];
  const pcm = new Int16Array(Math.round(1.9 * rate));
  for (const [from, to] of spans) {
    for (let i = Math.round((from * rate) / 1000); i < Math.round((to * rate) / 1000); i++) {
      pcm[i] = Math.round(9000 * Math.sin((2 * Math.PI * 200 * i) / rate));
    }
  }
  return pcm;
}

/** A canonical 44-byte-header PCM WAV. */
function wav(pcm: Int16Array, rate: number, dataSize = pcm.length * 2): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.length * 2, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataSize, 40);
  return Buffer.concat([header, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength)]);
}

function sendAudio(res: ServerResponse, bytes: Buffer, type = 'audio/wav') {
  res.writeHead(200, { 'content-type': type, 'content-length': bytes.length });
  res.end(bytes);
}

function synth(options: Partial<OpenAISpeechOptions> = {}) {
  return createOpenAISynthesizer({
    baseUrl,
    apiKey: 'sk-test',
    model: 'tts-1',
    defaultVoice: 'alloy',
    timeoutMs: 2000,
    ...options,
  });
}

function request(overrides: Partial<SynthesisRequest> = {}): SynthesisRequest {
  return {
    text: 'Hola, ¿qué tal estás hoy?',
    language: 'es',
    voice: { voice: 'es+f3', rate: 175 },
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('openai speech synthesizer', () => {
  it('asks /audio/speech for WAV and returns MP3, PCM, and visemes estimated where there is sound', async () => {
    const result = await synth().synthesize(request());
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(requests[0]!.body).toEqual({
      model: 'tts-1',
      input: 'Hola, ¿qué tal estás hoy?',
      // The catalogue's espeak voice means nothing to the provider: its default speaks.
      voice: 'alloy',
      response_format: 'wav',
      speed: 1,
    });
    expect(result.sampleRate).toBe(24_000);
    expect(result.pcm.length).toBe(Math.round(1.9 * 24_000));
    expect(result.durationMs).toBe(1900);
    expect(result.mimeType).toBe('audio/mpeg');
    expect(result.audio[0]).toBe(0xff);
    expect((result.audio[1] ?? 0) & 0xe0).toBe(0xe0);
    const open = result.visemes.filter((k) => ['aa', 'E', 'I', 'O', 'U'].includes(k.v));
    expect(open.length).toBeGreaterThan(3);
    for (const key of open)
      expect((key.t >= 300 && key.t < 900) || (key.t >= 1200 && key.t < 1700)).toBe(true);
    expect(result.visemes.at(-1)?.v).toBe('sil');
    expect(result.words.map((w) => w.text)).toEqual(['Hola', 'qué', 'tal', 'estás', 'hoy']);
  });

  it("passes the provider's own voice names and speed factors through", async () => {
    await synth({ apiKey: undefined }).synthesize(request({ voice: { voice: 'nova', rate: 1.25 } }));
    expect(requests[0]!.headers.authorization).toBeUndefined();
    expect(requests[0]!.body).toMatchObject({ voice: 'nova', speed: 1.25 });
    expect(providerVoice('af_bella', 'alloy')).toBe('af_bella');
    expect(providerVoice('gmw/en-US+m3', 'alloy')).toBe('alloy');
    expect(providerVoice('es-419', 'alloy')).toBe('alloy');
  });

  it("reads OpenAI's raw pcm format (24 kHz, 16-bit little-endian)", async () => {
    const pcm = speechLike(24_000);
    handler = (_req, res) => sendAudio(res, Buffer.from(pcm.buffer), 'audio/pcm');
    const result = await synth({ responseFormat: 'pcm' }).synthesize(request());
    expect(requests[0]!.body.response_format).toBe('pcm');
    expect(result.sampleRate).toBe(24_000);
    expect(Array.from(result.pcm.subarray(7200, 7210))).toEqual(Array.from(pcm.subarray(7200, 7210)));
  });

  it('reads a streamed WAV (placeholder size) and resamples rates MP3 lacks', async () => {
    handler = (_req, res) => sendAudio(res, wav(speechLike(20_000), 20_000, 0xffffffff));
    const result = await synth().synthesize(request());
    expect(result.sampleRate).toBe(24_000);
    expect(result.durationMs).toBe(1900);
  });

  it('turns a 401 into reply_failed, with the cause for the log', async () => {
    handler = (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      );
    };
    const error = await rejection(synth().synthesize(request()));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'reply_failed', status: 502 });
    expect((error as AppError).options.detail).toMatch(/401.*Incorrect API key/);
  });

  it('turns unreadable audio, a refused connection and a time-out into reply_failed', async () => {
    handler = (_req, res) => sendAudio(res, Buffer.from('ID3 this is an mp3, not a wav'));
    expect(await rejection(synth().synthesize(request()))).toMatchObject({ code: 'reply_failed' });

    const refused = synth({ baseUrl: 'http://127.0.0.1:9/v1' });
    expect(await rejection(refused.synthesize(request()))).toMatchObject({ code: 'reply_failed' });

    handler = () => {}; // never answers
    const error = await rejection(synth({ timeoutMs: 150 }).synthesize(request()));
    expect(error).toMatchObject({ code: 'reply_failed' });
    expect((error as AppError).options.detail).toMatch(/150 ms/);
  });

  it('honours abort: nothing is sent when aborted before, and the request closes when aborted during', async () => {
    const before = new AbortController();
    before.abort();
    expect(await rejection(synth().synthesize(request({ signal: before.signal })))).toMatchObject({
      name: 'AbortError',
    });
    expect(requests).toHaveLength(0);

    handler = () => {}; // holds the request open
    const during = new AbortController();
    const pending = synth({ timeoutMs: 10_000 }).synthesize(request({ signal: during.signal }));
    while (requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const start = performance.now();
    during.abort();
    expect(await rejection(pending)).toMatchObject({ name: 'AbortError' });
    expect(performance.now() - start).toBeLessThan(1000);
    await requests[0]!.closed;
  });

  it('encodes a whole reply as one MP3', async () => {
    const file = await synth().encodeFile(speechLike(24_000), 24_000);
    expect(file).toMatchObject({ mimeType: 'audio/mpeg', extension: 'mp3' });
    expect(file.data.length).toBeGreaterThan(5000);
  });
});

describe('VU-8 a custom voice’s sample for cloning providers', () => {
  const sample = { id: 'custom-0001', mimeType: 'audio/wav', read: async () => new Uint8Array([1, 2, 3]) };
  const withSample = () => request({ voice: { voice: 'es+f3', pitch: 60, rate: 175, sample } });

  it('is sent as voice_sample (base64) with the custom id as the voice when cloning is on', async () => {
    await synth({ voiceCloning: true }).synthesize(withSample());
    expect(requests[0]?.body).toMatchObject({
      voice: 'custom-0001',
      voice_sample: { id: 'custom-0001', mime_type: 'audio/wav', data: 'AQID' },
    });
  });

  it('is not sent when cloning is off: the provider speaks its default voice', async () => {
    await synth().synthesize(withSample());
    expect(requests[0]?.body['voice']).toBe('alloy');
    expect(requests[0]?.body).not.toHaveProperty('voice_sample');
  });
});
