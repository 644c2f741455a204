import { z } from 'zod';
import { BIO_MAX_LENGTH, PERSONALITIES } from '../constants.ts';
import {
  LanguageSchema,
  LoginEmailSchema,
  LoginPasswordSchema,
  NameSchema,
  NewPasswordSchema,
  ThemeSchema,
  UserSchema,
} from '../entities.ts';
import { SubscriptionLimitsSchema, SubscriptionSchema, UsageSummarySchema } from '../plans.ts';
import { AuthSessionSchema } from './auth.ts';
import { defineRoute } from './define-route.ts';

/**
 * Accounts beyond the core (spec §7 Auth, Preferences, Payments, subscription limits): profile,
 * password, recovery and verification links, sign-in through Google and GitHub, preferences,
 * usage and plans. Auth routes answer under `/auth` and `/api/auth`.
 */
const AUTH_ALIASES = ['/api'] as const;
const Ok = z.object({ success: z.literal(true), message: z.string() });
/** One-time tokens sent by email: 43 base64url characters (32 random bytes). */
const EmailTokenSchema = z.string({ error: 'invalid' }).regex(/^[\w-]{20,128}$/, 'invalid');

export const UpdateDetailsBodySchema = z
  .object({
    name: NameSchema.optional(),
    bio: z.string({ error: 'invalid' }).trim().max(BIO_MAX_LENGTH, 'tooLong').optional(),
    language: LanguageSchema.optional(),
    theme: ThemeSchema.optional(),
    emailNotifications: z.boolean({ error: 'invalid' }).optional(),
    pushNotifications: z.boolean({ error: 'invalid' }).optional(),
  })
  .strict();

export const PreferencesSchema = z.object({
  /** The chosen avatar: a system avatar id or a custom avatar id. */
  avatar: z.string().max(64).nullable(),
  /** The chosen voice id. */
  voice: z.string().max(64).nullable(),
  theme: ThemeSchema,
  personality: z.enum(PERSONALITIES),
  onboardingCompleted: z.boolean(),
  selectedAvatarId: z.string().max(64).nullable(),
  defaultVoiceId: z.string().max(64).nullable(),
});
export type Preferences = z.infer<typeof PreferencesSchema>;

export const UpdatePreferencesBodySchema = PreferencesSchema.partial().strict();

export const OAUTH_PROVIDERS = ['google', 'github'] as const;
export const OAuthProviderSchema = z.enum(OAUTH_PROVIDERS);
export type OAuthProvider = z.infer<typeof OAuthProviderSchema>;

export const accountRoutes = {
  usage: defineRoute({
    method: 'GET',
    path: '/auth/me/usage',
    aliases: AUTH_ALIASES,
    auth: true,
    response: UsageSummarySchema.extend({ success: z.literal(true) }),
  }),
  resetUsage: defineRoute({
    method: 'POST',
    path: '/auth/me/usage/reset',
    aliases: AUTH_ALIASES,
    auth: true,
    /** Admin only; without userId the admin's own usage is reset. */
    body: z
      .object({ userId: z.string().min(1, 'required').max(64, 'invalid').optional() })
      .strict()
      .optional(),
    response: UsageSummarySchema.extend({ success: z.literal(true), userId: z.string() }),
  }),
  updateDetails: defineRoute({
    method: 'PUT',
    path: '/auth/updatedetails',
    aliases: AUTH_ALIASES,
    auth: true,
    body: UpdateDetailsBodySchema,
    response: z.object({ success: z.literal(true), user: UserSchema }),
  }),
  /** New tokens; every other refresh token of the user is revoked (SPEC.md A-6). */
  updatePassword: defineRoute({
    method: 'PUT',
    path: '/auth/updatepassword',
    aliases: AUTH_ALIASES,
    auth: true,
    body: z.object({ currentPassword: LoginPasswordSchema, newPassword: NewPasswordSchema }).strict(),
    response: AuthSessionSchema,
  }),
  /** Answers the same whether or not the email has an account (SPEC.md A-7). */
  forgotPassword: defineRoute({
    method: 'POST',
    path: '/auth/forgotpassword',
    aliases: AUTH_ALIASES,
    auth: false,
    body: z.object({ email: LoginEmailSchema }).strict(),
    response: Ok,
  }),
  resetPassword: defineRoute({
    method: 'PUT',
    path: '/auth/resetpassword/:resetToken',
    aliases: AUTH_ALIASES,
    auth: false,
    params: z.object({ resetToken: EmailTokenSchema }),
    body: z.object({ password: NewPasswordSchema }).strict(),
    response: AuthSessionSchema,
  }),
  verifyEmail: defineRoute({
    method: 'GET',
    path: '/auth/verifyemail/:verifyToken',
    aliases: AUTH_ALIASES,
    auth: false,
    params: z.object({ verifyToken: EmailTokenSchema }),
    response: Ok,
  }),
  /** Which outside providers are configured, so the client can say so instead of failing. */
  providers: defineRoute({
    method: 'GET',
    path: '/auth/providers',
    aliases: AUTH_ALIASES,
    auth: false,
    response: z.object({ google: z.boolean(), github: z.boolean() }),
  }),
  getPreferences: defineRoute({
    method: 'GET',
    path: '/api/users/preferences',
    auth: true,
    response: z.object({ success: z.literal(true), preferences: PreferencesSchema }),
  }),
  updatePreferences: defineRoute({
    method: 'PUT',
    path: '/api/users/preferences',
    auth: true,
    body: UpdatePreferencesBodySchema,
    response: z.object({ success: z.literal(true), preferences: PreferencesSchema }),
  }),
  onboardingStatus: defineRoute({
    method: 'GET',
    path: '/api/users/onboarding-status',
    auth: true,
    response: z.object({ success: z.literal(true), onboardingCompleted: z.boolean() }),
  }),
  subscriptionLimits: defineRoute({
    method: 'GET',
    path: '/api/upload/subscription-limits',
    auth: true,
    response: z.object({ success: z.literal(true), subscription: SubscriptionLimitsSchema }),
  }),
};

const PaymentUrl = z.object({ success: z.literal(true), url: z.string() });

/**
 * Payments are in maintenance (spec §1): every action answers 503 `payments_maintenance`; only
 * the subscription state is real.
 */
export const paymentRoutes = {
  createCheckoutSession: defineRoute({
    method: 'POST',
    path: '/api/payment/create-checkout-session',
    auth: true,
    body: z
      .object({
        plan: z.enum(['pro', 'enterprise'], { error: 'invalid' }),
        successUrl: z.string().max(2048).optional(),
        cancelUrl: z.string().max(2048).optional(),
      })
      .optional(),
    response: PaymentUrl,
  }),
  createBillingPortalSession: defineRoute({
    method: 'POST',
    path: '/api/payment/create-billing-portal-session',
    auth: true,
    response: PaymentUrl,
  }),
  subscription: defineRoute({
    method: 'GET',
    path: '/api/payment/subscription',
    auth: true,
    response: z.object({ success: z.literal(true), subscription: SubscriptionSchema }),
  }),
  cancelSubscription: defineRoute({
    method: 'POST',
    path: '/api/payment/cancel-subscription',
    auth: true,
    response: z.object({ success: z.literal(true), message: z.string() }),
  }),
  reactivateSubscription: defineRoute({
    method: 'POST',
    path: '/api/payment/reactivate-subscription',
    auth: true,
    response: z.object({ success: z.literal(true), message: z.string() }),
  }),
  billingHistory: defineRoute({
    method: 'GET',
    path: '/api/payment/billing-history',
    auth: true,
    response: z.object({ success: z.literal(true), history: z.array(z.unknown()) }),
  }),
};
