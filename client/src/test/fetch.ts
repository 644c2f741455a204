import { vi } from 'vitest';

/** A fake server for unit tests: answers each fetch by method and path. */
export type FakeRoute = (request: {
  method: string;
  path: string;
  body: unknown;
}) => { status?: number; body: unknown } | undefined;

export function stubFetch(route: FakeRoute) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const request = { method, path: url.pathname, body };
    calls.push(request);
    const answer = route(request) ?? {
      status: 404,
      body: { error: { code: 'not_found', message: 'not found' } },
    };
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export const testPreferences = {
  avatar: null,
  voice: null,
  theme: 'dark',
  personality: 'default',
  onboardingCompleted: false,
  selectedAvatarId: null,
  defaultVoiceId: null,
} as const;
