/**
 * Storage read benchmark (alone: `tsx tests/bench/storage-read-bench.ts`; `BENCH_QUICK=1` for a
 * small run).
 *
 * What reading a row costs through the embedded store's repositories (the rows come from a real
 * SQLite file and are mapped to records by their schemas, records.ts), and how much of it is the
 * schema parse: the records a read returns are parsed again by the protocol schema they mirror, and
 * copied with a spread (about what the hand-written pickers this replaced cost). Same process, same
 * rows, alternating rounds; the figure is the median round. No thresholds.
 */
import { ChatSessionSchema, MessageSchema, UserSchema } from '@alma/protocol';
import { openStorage } from '@alma/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { fmt, machine, median, printTable, QUICK, ratio, writeResult } from './support/report.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS) || (QUICK ? 3 : 9);
const CALLS = QUICK ? 50 : 400;
const SESSIONS = 20;
const MESSAGES = 1000;
const USER = 'user-bench';

const at = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();
const pad = (n: number) => String(n).padStart(5, '0');

const dataDir = mkdtempSync(join(tmpdir(), 'alma-storage-bench-'));
const storage = await openStorage({ dataDir });

/** µs per call of `read`, `calls` times, after one untimed call. */
async function perCall(read: () => Promise<unknown>, calls = CALLS): Promise<number> {
  await read();
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await read();
  return Number(process.hrtime.bigint() - start) / 1000 / calls;
}

/** µs per record of `map` over `records`, its results kept (so none of the work is optimised away). */
function perRecord(records: readonly object[], map: (record: object) => unknown): number {
  const passes = Math.max(1, Math.ceil((QUICK ? 20_000 : 200_000) / records.length));
  const out: unknown[] = new Array(records.length);
  const start = process.hrtime.bigint();
  for (let p = 0; p < passes; p++) for (let i = 0; i < records.length; i++) out[i] = map(records[i] ?? {});
  const us = Number(process.hrtime.bigint() - start) / 1000 / (passes * records.length);
  return out.length === records.length ? us : Number.NaN;
}

try {
  await storage.users.create({
    id: USER,
    name: 'Bench',
    email: 'bench@example.com',
    passwordHash: 'hash',
    plan: 'free',
    role: 'user',
    language: 'es',
    theme: 'dark',
    createdAt: at(0),
  });
  for (let s = 1; s <= SESSIONS; s++) {
    await storage.sessions.create({
      sessionId: `session-${pad(s)}`,
      userId: USER,
      title: `Sesión ${s}`,
      personality: 'default',
      createdAt: at(s),
      updatedAt: at(s),
    });
  }
  const sessionId = `session-${pad(1)}`;
  await Promise.all(
    Array.from({ length: MESSAGES }, (_, i) => {
      const reply = i % 2 === 1;
      return storage.messages.insert({
        _id: `m-${pad(i)}`,
        sessionId,
        userId: USER,
        role: reply ? 'assistant' : 'user',
        content: reply ? '¡Qué alegría oír eso! Cuéntame más de tu viaje.' : 'Hoy he vuelto de Lisboa.',
        createdAt: at(100 + i),
        clientMessageId: reply ? null : `c-${pad(i)}`,
        replyTo: reply ? `m-${pad(i - 1)}` : null,
        emotion: reply ? 'happy' : null,
        emotionAnalysis: reply ? { emotion: 'happy', intensity: 0.7, confidence: 0.8 } : null,
        language: 'es',
        userLanguage: 'es',
        personality: 'default',
        audioUrl: reply ? `/audio/m-${pad(i)}.mp3` : null,
        isComplete: true,
        gesture: reply ? 'nodding' : null,
      });
    }),
  );
  // Each read with the protocol schema its records mirror (a record parses as much as its entity).
  const reads: Record<string, { read: () => Promise<object[]>; schema: z.ZodType; calls: number }> = {
    'users.findById': {
      read: async () => [(await storage.users.findById(USER)) ?? {}],
      schema: UserSchema,
      calls: CALLS,
    },
    'sessions.list': { read: () => storage.sessions.list(USER), schema: ChatSessionSchema, calls: CALLS },
    'messages.page (50)': {
      read: async () => (await storage.messages.page(USER, sessionId, 1, 50)).items,
      schema: MessageSchema,
      calls: CALLS,
    },
    // A reply's history (HISTORY_WINDOW + 2 messages, the four fields it reads).
    'messages.recentTurns (42)': {
      read: () => storage.messages.recentTurns(USER, sessionId, 42),
      schema: MessageSchema.pick({ _id: true, role: true, content: true, language: true }),
      calls: CALLS,
    },
    'messages.all': {
      read: () => storage.messages.all(USER, sessionId),
      schema: MessageSchema,
      calls: Math.ceil(CALLS / 20),
    },
  };
  const figures = new Map(
    Object.keys(reads).map((name) => [
      name,
      { read: [] as number[], parse: [] as number[], copy: [] as number[] },
    ]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, { read, schema, calls }] of Object.entries(reads)) {
      const f = figures.get(name);
      if (!f) continue;
      f.read.push(await perCall(read, calls));
      const records = await read();
      f.parse.push(perRecord(records, (record) => schema.parse(record)));
      f.copy.push(perRecord(records, (record) => ({ ...record })));
    }
  }

  const rows = [];
  for (const [name, { read }] of Object.entries(reads)) {
    const f = figures.get(name);
    rows.push({
      name,
      records: (await read()).length,
      read: median(f?.read ?? []),
      parse: median(f?.parse ?? []),
      copy: median(f?.copy ?? []),
    });
  }
  console.info(`storage reads: ${ROUNDS} rounds, embedded store, ${MESSAGES} messages in one session`);
  printTable(
    ['read', 'records', 'µs per call', 'parse µs/record', 'copy µs/record', 'parse/copy', 'parse share'],
    rows.map((r) => [
      r.name,
      String(r.records),
      fmt(r.read),
      fmt(r.parse, 2),
      fmt(r.copy, 2),
      `×${fmt(ratio(r.parse, r.copy), 1)}`,
      `${fmt(ratio(r.parse * r.records, r.read) * 100)} %`,
    ]),
  );
  writeResult('storage-read-latest', {
    ...machine(),
    config: { rounds: ROUNDS, calls: CALLS, sessions: SESSIONS, messages: MESSAGES },
    reads: rows,
  });
} finally {
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
}
