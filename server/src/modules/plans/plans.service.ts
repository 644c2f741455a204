import {
  errorMessage,
  PLAN_TABLE,
  type Language,
  type Plan,
  type PlanLimits,
  type ServerPayload,
  type SubscriptionLimits,
  type UsageSummary,
} from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/ids.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { UsageRecord, UsageRepository, UserRecord, UserRepository } from '../../storage/types.ts';
import type { MessageQuota, QuotaTicket } from '../chat/submit.service.ts';
import { periodEnd, usagePeriod } from './period.ts';
import { buildSubscriptionLimits, NO_UPLOADS, type UploadUsage } from './subscription-limits.ts';

export interface PlansServiceDeps {
  users: UserRepository;
  usage: UsageRepository;
  clock: Clock;
  /** Tells the user's sockets when an admin resets their usage. */
  publisher: Publisher;
  /** The free plan's monthly message cap (config FREE_MESSAGES_PER_MONTH); null: unlimited. */
  freeMessagesPerMonth: number | null;
  /** What a user has uploaded; the upload issues provide it. Until then nobody has uploads. */
  uploads?: (userId: string) => Promise<UploadUsage>;
}

/** The voice-minute limit of voice notes (SPEC.md V-5). */
export interface VoiceQuota {
  /** Null when `seconds` more fit the month's limit; else what `limit:reached` carries. */
  check(userId: string, seconds: number): Promise<ServerPayload<'limit:reached'> | null>;
  /** Counts `seconds` and answers what `usage:updated` carries. */
  add(userId: string, seconds: number): Promise<ServerPayload<'usage:updated'>>;
}

/** Voice is counted in seconds and shown in minutes, to one decimal. */
const toMinutes = (seconds: number) => Math.round(seconds / 6) / 10;

/**
 * Plans and monthly usage (spec §3, §6; SPEC.md L-1…L-4): the user's plan comes from the user
 * record, its limits from PLAN_TABLE, the counters from the usage repository under the current
 * UTC month.
 */
export function createPlansService(deps: PlansServiceDeps) {
  const { users, usage, clock } = deps;
  const uploads = deps.uploads ?? (() => Promise.resolve(NO_UPLOADS));

  function limitsFor(plan: Plan): PlanLimits {
    const limits = PLAN_TABLE[plan].limits;
    return plan === 'free' ? { ...limits, messages: deps.freeMessagesPerMonth } : limits;
  }

  async function userOf(userId: string): Promise<UserRecord> {
    const user = await users.findById(userId);
    if (!user) throw new AppError('not_found', { detail: `user ${userId}` });
    return user;
  }

  function summaryOf(plan: Plan, counted: UsageRecord, at: Date): UsageSummary {
    const limits = limitsFor(plan);
    return {
      plan,
      usage: {
        messagesThisMonth: counted.messages,
        voiceMinutesThisMonth: toMinutes(counted.voiceSeconds),
        period: usagePeriod(at),
        resetsAt: periodEnd(at).toISOString(),
      },
      limits: { messages: limits.messages, voiceMinutes: limits.voiceMinutes },
      messagesLimitLabel: limits.messages === null ? '∞' : String(limits.messages),
    };
  }

  /**
   * The user and their month's counters, asked at once: on MongoDB one round trip, not two
   * (issue 14). A plan without a message limit reads the counters it does not need.
   */
  const userAndMonth = (userId: string, period: string) =>
    Promise.all([userOf(userId), usage.get(userId, period)]);

  async function summary(userId: string): Promise<UsageSummary> {
    const at = clock();
    const [user, month] = await userAndMonth(userId, usagePeriod(at));
    return summaryOf(user.plan, month, at);
  }

  const usageEvent = (s: UsageSummary) => ({
    messagesThisMonth: s.usage.messagesThisMonth,
    messagesLimit: s.limits.messages,
    voiceMinutesThisMonth: s.usage.voiceMinutesThisMonth,
    voiceMinutesLimit: s.limits.voiceMinutes,
  });

  /**
   * The chat's quota (SPEC.md L-3): one stored user message counts one, refused at the cap. The
   * month is read here; the count itself is taken in the message's own write (SendWrite).
   */
  const quota: MessageQuota = {
    async ticket(userId: string): Promise<QuotaTicket> {
      const at = clock();
      const period = usagePeriod(at);
      const [user, month] = await userAndMonth(userId, period);
      const limits = limitsFor(user.plan);
      const reached = (used: number) => ({
        kind: 'messages' as const,
        used,
        limit: limits.messages ?? 0,
        message: errorMessage(user.language, 'limit_reached'),
      });
      if (limits.messages !== null && month.messages >= limits.messages)
        return { open: false, reached: reached(month.messages) };
      return {
        open: true,
        count: { period, limit: limits.messages },
        counted: (counted) => usageEvent(summaryOf(user.plan, counted, at)),
        refused: (counted) => reached(counted.messages),
      };
    },
  };

  /**
   * Voice minutes (SPEC.md V-5): a note is refused when it would take the month past the plan's
   * `voiceMinutes`; stored notes are counted by their decoded duration, in seconds.
   */
  const voice: VoiceQuota = {
    async check(userId, seconds) {
      const user = await userOf(userId);
      const limit = limitsFor(user.plan).voiceMinutes;
      if (limit === null) return null;
      const used = (await usage.get(userId, usagePeriod(clock()))).voiceSeconds;
      if (used + seconds <= limit * 60) return null;
      return {
        kind: 'voiceMinutes',
        used: toMinutes(used),
        limit,
        message: errorMessage(user.language, 'limit_reached'),
      };
    },
    async add(userId, seconds) {
      const user = await userOf(userId);
      const at = clock();
      const after = await usage.addVoiceSeconds(userId, usagePeriod(at), seconds);
      return usageEvent(summaryOf(user.plan, after, at));
    },
  };

  return {
    limitsFor,
    summary,
    quota,
    voice,

    /**
     * Admins only (spec §6; SPEC.md L-4): zeroes the current month of `targetId`, or of the admin
     * when absent. The role is read from the stored user, never from the token. A non-admin is
     * refused before the target is looked up, so the answer says nothing about other accounts.
     */
    async resetUsage(actorId: string, targetId?: string): Promise<{ userId: string; summary: UsageSummary }> {
      const actor = await userOf(actorId);
      if (actor.role !== 'admin') throw new AppError('forbidden', { detail: 'usage reset needs admin' });
      const target = targetId && targetId !== actorId ? await userOf(targetId) : actor;
      const at = clock();
      const period = usagePeriod(at);
      await usage.reset(target.id, period);
      const after = summaryOf(target.plan, await usage.get(target.id, period), at);
      deps.publisher.toUser(target.id, 'usage:updated', usageEvent(after));
      return { userId: target.id, summary: after };
    },

    async subscriptionLimits(userId: string, language: Language): Promise<SubscriptionLimits> {
      const user = await userOf(userId);
      const counted = await usage.get(userId, usagePeriod(clock()));
      return buildSubscriptionLimits({
        plan: user.plan,
        limits: limitsFor(user.plan),
        uploads: await uploads(userId),
        messagesThisMonth: counted.messages,
        voiceMinutesThisMonth: toMinutes(counted.voiceSeconds),
        language,
      });
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;
