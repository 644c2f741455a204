import { z } from 'zod';
import {
  LoginEmailSchema,
  LoginPasswordSchema,
  NameSchema,
  NewPasswordSchema,
  PlanSchema,
  RegisterEmailSchema,
  UserSchema,
} from '../entities.ts';
import { REGISTRATION_PLANS } from '../constants.ts';
import { defineRoute } from './define-route.ts';

const AUTH_ALIASES = ['/api'] as const;

export const AuthSessionSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  refreshToken: z.string(),
  user: UserSchema,
});
export type AuthSession = z.infer<typeof AuthSessionSchema>;

/**
 * Registration form (spec §3 "Registration form", §5): the confirmation and the accepted terms
 * are required over the API as in the form (SPEC.md A-1).
 */
export const RegisterBodySchema = z
  .object({
    name: NameSchema,
    email: RegisterEmailSchema,
    password: NewPasswordSchema,
    confirmPassword: z.string({ error: 'confirmPasswordRequired' }).min(1, 'confirmPasswordRequired'),
    plan: PlanSchema.default('free').refine((plan) => REGISTRATION_PLANS.includes(plan), {
      message: 'planNotAvailable',
    }),
    terms: z.literal(true, { error: 'termsRequired' }),
  })
  .superRefine((body, ctx) => {
    if (body.confirmPassword.length > 0 && body.confirmPassword !== body.password) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'passwordMismatch' });
    }
  });
export type RegisterBody = z.input<typeof RegisterBodySchema>;

export const LoginBodySchema = z.object({
  email: LoginEmailSchema,
  password: LoginPasswordSchema,
});

export const RefreshBodySchema = z.object({
  refreshToken: z.string({ error: 'required' }).min(1, 'required').max(512, 'invalid'),
});

export const authRoutes = {
  register: defineRoute({
    method: 'POST',
    path: '/auth/register',
    aliases: AUTH_ALIASES,
    auth: false,
    body: RegisterBodySchema,
    status: 201,
    response: AuthSessionSchema.extend({ message: z.string() }),
  }),
  login: defineRoute({
    method: 'POST',
    path: '/auth/login',
    aliases: AUTH_ALIASES,
    auth: false,
    body: LoginBodySchema,
    response: AuthSessionSchema,
  }),
  me: defineRoute({
    method: 'GET',
    path: '/auth/me',
    aliases: AUTH_ALIASES,
    auth: true,
    response: z.object({ success: z.literal(true), user: UserSchema }),
  }),
  refresh: defineRoute({
    method: 'POST',
    path: '/auth/refresh',
    aliases: AUTH_ALIASES,
    auth: false,
    body: RefreshBodySchema,
    response: AuthSessionSchema,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/auth/logout',
    aliases: AUTH_ALIASES,
    auth: true,
    /** The refresh token to revoke with its family; without it every token of the user goes. */
    body: z.object({ refreshToken: z.string().max(512).optional() }).optional(),
    response: z.object({ success: z.literal(true) }),
  }),
};
