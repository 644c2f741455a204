/**
 * The realtime baseline: a bare socket.io server with Alma's event names and shapes and no work
 * in between. On `chat:send` it acks at once, then streams the reply as Alma's scripted engine
 * does (`BENCH_SCRIPTED_REPLY`, a word every `BENCH_TOKEN_DELAY_MS`) and sends each speech chunk
 * Alma sent for it (`BENCH_CHUNKS`: text, size, duration) — fake audio of the same size — as soon
 * as the chunk's last word is out. One `seq` per reply, typing first and last, as Alma's
 * (SPEC.md C-4).
 */
import { ClientEvent, ServerEvent } from '@alma/protocol';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { serveParent } from './child.ts';
import { piecesOf } from './scripted-engine.ts';

interface Chunk {
  text: string;
  bytes: number;
  durationMs: number;
}
const reply = process.env.BENCH_SCRIPTED_REPLY ?? '';
const delayMs = Number(process.env.BENCH_TOKEN_DELAY_MS ?? 0);
const chunks = JSON.parse(process.env.BENCH_CHUNKS ?? '[]') as Chunk[];
const letters = (text: string) => text.replace(/\s+/g, '').length;

// After which word each chunk can be spoken: where the words' letters reach the chunk's end.
const pieces = piecesOf(reply);
const chunksAfter = new Map<number, Chunk[]>();
let covered = 0;
let chunkIndex = 0;
let chunkEnd = letters(chunks[0]?.text ?? '');
pieces.forEach((piece, index) => {
  covered += letters(piece);
  while (chunkIndex < chunks.length && covered >= chunkEnd) {
    chunksAfter.set(index, [...(chunksAfter.get(index) ?? []), chunks[chunkIndex]!]);
    chunkIndex++;
    chunkEnd += letters(chunks[chunkIndex]?.text ?? '');
  }
});
const audio = chunks.map((c) => Buffer.alloc(c.bytes, 0xff));

const http = createServer();
const io = new Server(http, { serveClient: false });
let next = 0;
io.on('connection', (socket) => {
  socket.on(ClientEvent.chatSend, (_payload: unknown, ack?: (result: unknown) => void) => {
    const replyId = `bare-${next++}`;
    const sessionId = `bare-session-${replyId}`;
    let seq = 0;
    const emit = (event: string, fields: object) =>
      socket.emit(event, { ...fields, replyId, sessionId, seq: seq++ });
    ack?.({ ok: true, data: { replyId, sessionId, duplicate: false } });
    emit(ServerEvent.chatTyping, { typing: true });
    let chunkSeq = 0;
    const started = performance.now();
    const step = (index: number) => {
      emit(ServerEvent.chatDelta, { text: pieces[index] });
      for (const chunk of chunksAfter.get(index) ?? []) {
        const i = chunkSeq++;
        emit(ServerEvent.speechChunk, {
          text: chunk.text,
          mimeType: 'audio/mpeg',
          audio: audio[i],
          durationMs: chunk.durationMs,
          visemes: [],
          words: [],
        });
      }
      // Each piece is due `delayMs` after the one before on the reply's own timeline, as Alma's
      // engines pace them (server/src/lib/pace.ts): a late timer does not push the rest back.
      if (index + 1 < pieces.length)
        setTimeout(() => step(index + 1), Math.max(0, started + (index + 1) * delayMs - performance.now()));
      else {
        emit(ServerEvent.chatTyping, { typing: false });
        emit(ServerEvent.chatReply, { reply: reply, clientMessageId: null });
      }
    };
    step(0);
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const { port } = http.address() as AddressInfo;
serveParent({
  url: `http://127.0.0.1:${port}`,
  close: () => new Promise<void>((resolve) => void io.close(() => resolve())),
});
