import { ApiErrorSchema, PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp } from '../test-support/app.ts';

describe('P-1 the protocol version on REST calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  const get = (url: string, version?: string, language = 'en') =>
    t.app.inject({
      method: 'GET',
      url,
      headers: {
        'accept-language': language,
        ...(version === undefined ? {} : { [PROTOCOL_VERSION_HEADER]: version }),
      },
    });

  it.each([
    [
      'client_too_old',
      PROTOCOL_VERSION - 1,
      426,
      'This page is older than the server. Reload it to get the new version.',
    ],
    [
      'server_too_old',
      PROTOCOL_VERSION + 1,
      503,
      'The server is still on an older version than this page. Try again in a few minutes.',
    ],
  ] as const)(
    'P-1 %s: a call naming another version is refused saying which side is old',
    async (code, version, status, message) => {
      const res = await get('/auth/me', String(version));
      expect(res.statusCode).toBe(status);
      expect(ApiErrorSchema.parse(json(res)).error).toEqual({ code, message });
      const es = await get('/personalities', String(version), 'es');
      expect(ApiErrorSchema.parse(json(es)).error.code).toBe(code);
      expect(ApiErrorSchema.parse(json(es)).error.message).not.toBe(message);
    },
  );

  it('P-1 the same version, no header, a non-number and /health are not refused', async () => {
    expect((await get('/auth/me', String(PROTOCOL_VERSION))).statusCode).toBe(401);
    expect((await get('/auth/me')).statusCode).toBe(401);
    expect((await get('/auth/me', 'v2')).statusCode).toBe(401);
    expect((await get('/health', String(PROTOCOL_VERSION + 1))).statusCode).toBe(200);
  });
});
