import type { z } from 'zod';
import { create } from 'zustand';
import { routes, type UsageSummary, type UsageUpdatedSchema } from '@alma/protocol';
import { call } from './api.ts';

/**
 * This month's usage (GET /auth/me/usage), shared by the dashboard and the chat: the chat's
 * socket feeds `usage:updated` in, so the dashboard's bars follow without a reload.
 */
export type UsageUpdated = z.infer<typeof UsageUpdatedSchema>;

interface UsageState {
  summary: UsageSummary | null;
  /** Fetches the summary; throws ApiError. */
  load: (signal?: AbortSignal) => Promise<UsageSummary>;
  /** Admin only (spec §6): POST /auth/me/usage/reset, then the summary is fetched again. */
  reset: () => Promise<UsageSummary>;
  applyLive: (update: UsageUpdated) => void;
  clear: () => void;
}

function strip<T extends { success: true }>(answer: T): Omit<T, 'success'> {
  const { success: _success, ...rest } = answer;
  return rest;
}

export const useUsage = create<UsageState>()((set, get) => ({
  summary: null,
  load: async (signal) => {
    const summary = strip(await call(routes.account.usage, {}, { signal }));
    set({ summary });
    return summary;
  },
  reset: async () => {
    await call(routes.account.resetUsage, { body: {} });
    return get().load();
  },
  applyLive: (update) => {
    const current = get().summary;
    if (!current) return;
    set({
      summary: {
        ...current,
        usage: {
          ...current.usage,
          messagesThisMonth: update.messagesThisMonth,
          voiceMinutesThisMonth: update.voiceMinutesThisMonth,
        },
        limits: { messages: update.messagesLimit, voiceMinutes: update.voiceMinutesLimit },
      },
    });
  },
  clear: () => set({ summary: null }),
}));
