import type { Language, OAuthProvider } from '@alma/protocol';
import type { OAuthFailure } from './oauth.providers.ts';

export const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: 'Google', github: 'GitHub' };

/**
 * The `error_description` of an `oauth_failed` redirect. The callback page shows it after
 * "Error en la autenticación: " (spec §8), so each text is the detail, not a whole sentence
 * about authentication failing.
 */
const TEXTS: Record<Language, Record<OAuthFailure, (provider: string) => string>> = {
  es: {
    denied: (p) => `${p} no autorizó el acceso. Si fue un error, vuelve a intentarlo.`,
    state: () => 'el intento de acceso caducó o ya se usó. Vuelve a empezar desde la página de acceso.',
    exchange: (p) => `${p} no aceptó el código de acceso. Inténtalo de nuevo.`,
    profile: (p) => `no se pudo obtener tu perfil de ${p}. Inténtalo de nuevo.`,
    email_missing: (p) =>
      `tu cuenta de ${p} no tiene un email. Añade uno en ${p} o usa tu email y contraseña.`,
    email_unverified: (p) =>
      `tu email en ${p} no está verificado. Verifícalo en ${p} o entra con tu email y contraseña.`,
    unexpected: () => 'no se pudo completar el acceso. Inténtalo de nuevo.',
  },
  en: {
    denied: (p) => `${p} did not authorize the sign-in. If that was a mistake, please try again.`,
    state: () => 'the sign-in attempt expired or was already used. Please start again from the sign-in page.',
    exchange: (p) => `${p} did not accept the sign-in code. Please try again.`,
    profile: (p) => `your ${p} profile could not be read. Please try again.`,
    email_missing: (p) => `your ${p} account has no email. Add one at ${p} or use your email and password.`,
    email_unverified: (p) =>
      `your email at ${p} is not verified. Verify it at ${p} or sign in with your email and password.`,
    unexpected: () => 'the sign-in could not be completed. Please try again.',
  },
};

export function failureDescription(
  language: Language,
  reason: OAuthFailure,
  provider: OAuthProvider,
): string {
  return TEXTS[language][reason](PROVIDER_NAMES[provider]);
}
