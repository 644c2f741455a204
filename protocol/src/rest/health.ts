import { z } from 'zod';
import { defineRoute } from './define-route.ts';

export const ServerStatusSchema = z.enum(['online', 'degraded', 'maintenance']);
export type ServerStatus = z.infer<typeof ServerStatusSchema>;

export const EnginesSchema = z.object({
  reply: z.string(),
  speech: z.string(),
  transcription: z.string(),
});

export const HealthSchema = z.object({
  status: ServerStatusSchema,
  version: z.string(),
  protocolVersion: z.number().int(),
  uptimeS: z.number().nonnegative(),
  database: z.object({ kind: z.enum(['embedded', 'mongodb']), ok: z.boolean() }),
  engines: EnginesSchema,
});
export type Health = z.infer<typeof HealthSchema>;

export const healthRoutes = {
  health: defineRoute({ method: 'GET', path: '/health', auth: false, response: HealthSchema }),
};
