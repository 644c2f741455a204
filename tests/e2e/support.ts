import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

/** Shared steps of the e2e specs: screenshots, accounts made through the API, the mail outbox. */

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
  await page.screenshot({ path: `tests/e2e/artifacts/screens/${test.info().project.name}-${name}.png` });
}

export const PASSWORD = 'Secret123';

export function uniqueEmail(tag: string): string {
  const project = test.info().project.name;
  return `e2e-${tag}-${project}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

export interface ApiSession {
  token: string;
  refreshToken: string;
  user: { id: string; name: string; email: string; role: string };
}

/** Registers through the API (or signs in when the address already exists). */
export async function registerViaApi(
  request: APIRequestContext,
  options: { email?: string; name?: string; onboarded?: boolean; language?: 'es' | 'en' } = {},
): Promise<ApiSession> {
  const email = options.email ?? uniqueEmail('api');
  const headers = { 'accept-language': options.language ?? 'en' };
  let res = await request.post('/auth/register', {
    headers,
    data: {
      name: options.name ?? 'Robin',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      plan: 'free',
      terms: true,
    },
  });
  if (res.status() === 409)
    res = await request.post('/auth/login', { headers, data: { email, password: PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
  const session = (await res.json()) as ApiSession;
  if (options.onboarded ?? true) {
    const prefs = await request.put('/api/users/preferences', {
      headers: { authorization: `Bearer ${session.token}` },
      data: {
        avatar: 'witch',
        voice: 'es-lucia',
        selectedAvatarId: 'witch',
        defaultVoiceId: 'es-lucia',
        onboardingCompleted: true,
      },
    });
    expect(prefs.ok(), await prefs.text()).toBe(true);
  }
  return session;
}

/**
 * Puts a session into the browser's storage as the app keeps it (spec §3 local storage keys). On
 * the origin's `/health` (JSON, no app running): on `/terms` the app was starting while the test
 * wrote the storage, and once in a CI run the next page found no session.
 */
export async function signInBrowser(page: Page, session: ApiSession): Promise<void> {
  await page.goto('/health');
  await page.evaluate((s) => {
    localStorage.setItem('token', s.token);
    localStorage.setItem('refreshToken', s.refreshToken);
    localStorage.setItem('user', JSON.stringify(s.user));
    localStorage.setItem('userId', s.user.id);
  }, session);
}

/** Decodes a quoted-printable mail body (soft line breaks and =XX escapes). */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Waits for a message to `email` in DATA_DIR/outbox (no SMTP in e2e) and returns the link's path. */
export async function linkFromOutbox(email: string, pattern: RegExp): Promise<string> {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  let found: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          files = readdirSync(dir).filter((f) => f.includes(email));
        } catch {
          return undefined;
        }
        for (const file of files) {
          const match = decodeQuotedPrintable(readFileSync(join(dir, file), 'utf8')).match(pattern);
          if (match) found = new URL(match[0]).pathname;
        }
        return found;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return found ?? '';
}

/**
 * Resolves when the page's socket has been accepted: the server's first event (P-6) arrived,
 * over long-polling (socket.io's first transport) or a WebSocket frame.
 */
export function socketAccepted(page: Page): Promise<void> {
  const isStatus = (text: string) => text.includes('"server:status"');
  return new Promise((resolve) => {
    page.on('response', (response) => {
      if (!response.url().includes('/socket.io/')) return;
      response.text().then(
        (text) => isStatus(text) && resolve(),
        () => undefined,
      );
    });
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (isStatus(String(payload))) resolve();
      }),
    );
  });
}

/**
 * No socket at all, as behind a proxy that drops both WebSockets and long-polling: the page's
 * WebSocket to socket.io is closed as it opens (`page.route` never sees WebSockets, SPEC.md M-4
 * opens one first) and every polling request fails.
 */
export async function blockSocket(page: Page): Promise<void> {
  await page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
  await page.route('**/socket.io/**', (route) => route.abort());
}
