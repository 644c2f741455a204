import { z } from 'zod';
import { defineRoute } from './define-route.ts';

export const ServerStatusSchema = z.enum(['online', 'degraded', 'maintenance']);
export type ServerStatus = z.infer<typeof ServerStatusSchema>;

export const EnginesSchema = z.object({
  reply: z.string(),
  speech: z.string(),
  transcription: z.string(),
});

/**
 * What the server can do, one row per capability (SPEC.md H-3). `engine` names what serves it;
 * `enable` is the one command or variable that turns on a missing one (absent when `ok`).
 * Clients label rows by `id` (i18n `capabilities.<id>`); the server's start-up report prints the
 * same rows.
 */
export const CapabilityIdSchema = z.enum([
  'reply',
  'speech',
  'transcription_en',
  'transcription_es',
  'decode_opus',
  'decode_ffmpeg',
]);
export type CapabilityId = z.infer<typeof CapabilityIdSchema>;

export const CapabilitySchema = z.object({
  id: CapabilityIdSchema,
  engine: z.string(),
  ok: z.boolean(),
  enable: z.string().optional(),
});
export type Capability = z.infer<typeof CapabilitySchema>;

/** One dependency the server watches (database; Redis and queues with scale-out). */
export const HealthCheckResultSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  detail: z.string().optional(),
});

/**
 * A job queue as one instance sees it (SPEC.md H-1, M-7, M-9): avatar processing, voice analysis.
 * With several instances, where each job runs and how many wait for any instance's worker.
 */
export const JobQueueStateSchema = z.object({
  /** This instance's id among the instances (new at each start). */
  instance: z.string(),
  /** Jobs this instance runs at once (its worker threads); 0: it leaves them to the others. */
  workers: z.number().int().nonnegative(),
  /** The ids of the jobs running on this instance now. */
  running: z.array(z.string()),
  /** Jobs queued and not yet running, on every instance (the shared queue). */
  waiting: z.number().int().nonnegative(),
  /** Jobs this instance's workers have run to their end since it started. */
  finished: z.number().int().nonnegative(),
});
export type JobQueueState = z.infer<typeof JobQueueStateSchema>;

export const HealthSchema = z.object({
  status: ServerStatusSchema,
  version: z.string(),
  protocolVersion: z.number().int(),
  uptimeS: z.number().nonnegative(),
  database: z.object({ kind: z.enum(['embedded', 'mongodb']), ok: z.boolean() }),
  engines: EnginesSchema,
  /**
   * Every watched dependency; `status` is `degraded` while any is not ok (SPEC.md H-1). Both lists
   * default to empty so a client reading an older server still parses its answer.
   */
  checks: z.array(HealthCheckResultSchema).default([]),
  capabilities: z.array(CapabilitySchema).default([]),
  /** The avatar jobs' queue (SPEC.md M-7). Absent from an older server. */
  avatarJobs: JobQueueStateSchema.optional(),
  /** The voice analysis jobs' queue (SPEC.md M-9). Absent from an older server. */
  voiceJobs: JobQueueStateSchema.optional(),
});
export type Health = z.infer<typeof HealthSchema>;

export const healthRoutes = {
  health: defineRoute({ method: 'GET', path: '/health', auth: false, response: HealthSchema }),
};
