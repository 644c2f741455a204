import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { signInBrowser, type ApiSession } from './support.ts';

/** Shared steps of the avatar and stage specs: open the chat on an avatar, wait for it, hold it still. */

export interface AvatarOverrides {
  viseme?: string | null;
  emotion?: string | null;
  still?: boolean;
}

/**
 * Opens the chat; `avatar` (an id, or null for the default model) is saved to the account first.
 * On a phone the chat sheet is closed unless `keepChat`, to see the avatar whole.
 */
export async function openChat(
  page: Page,
  request: APIRequestContext,
  session: ApiSession,
  avatar?: string | null,
  options: { keepChat?: boolean; language?: 'es' | 'en' } = {},
): Promise<void> {
  if (avatar !== undefined) {
    const res = await request.put('/api/users/preferences', {
      headers: { authorization: `Bearer ${session.token}` },
      data: { avatar, selectedAvatarId: avatar },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await signInBrowser(page, session);
  await page.evaluate(
    (language) => localStorage.setItem('preferredLanguage', language),
    options.language ?? 'en',
  );
  await page.goto('/chat');
  // Generous: SwiftShader shares the CPU with the server while a model compiles.
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 60_000 });
  if (!options.keepChat) await closeChatOverlay(page);
}

/** On a phone the stage is behind the chat overlay: close it to see the avatar whole. */
export async function closeChatOverlay(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Close chat' });
  if (await close.isVisible()) await close.click();
  await expect(page.getByRole('toolbar', { name: 'Avatar controls' })).toBeVisible();
}

/** The first viewer in `scope`, once its model is on screen. */
export async function readyViewer(page: Page, scope: Locator | Page = page): Promise<Locator> {
  const viewer = scope.locator('[data-testid="avatar-viewer"]').first();
  // A system model is forged on its first request (AV-3): ~15 s on a loaded 2-core machine.
  await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout: 90_000 });
  await expect(viewer.locator('canvas')).toBeVisible();
  return viewer;
}

/** Holds visemes, emotions or a still pose on every viewer (`window.__almaAvatars`); answers how many. */
export async function setOverrides(page: Page, overrides: AvatarOverrides): Promise<number> {
  return page.evaluate(
    (o) =>
      (
        window as unknown as { __almaAvatars?: { setOverrides: (o: AvatarOverrides) => number } }
      ).__almaAvatars?.setOverrides(o) ?? 0,
    overrides,
  );
}

/** Uploads a model through the API and waits for processing; answers the avatar's id. */
export async function uploadModel(
  request: APIRequestContext,
  session: ApiSession,
  bytes: Uint8Array,
  name: string,
): Promise<string> {
  const auth = { authorization: `Bearer ${session.token}` };
  const res = await request.post('/api/upload/avatar', {
    headers: auth,
    multipart: {
      name,
      avatar: { name: `${name}.glb`, mimeType: 'model/gltf-binary', buffer: Buffer.from(bytes) },
    },
  });
  expect(res.status(), await res.text()).toBe(202);
  const { avatar } = (await res.json()) as { avatar: { id: string } };
  await expect
    .poll(
      async () => {
        const status = await request.get(`/api/upload/avatar/${avatar.id}/status`, { headers: auth });
        const body = (await status.json()) as { avatar: { status: string; error?: { message: string } } };
        return body.avatar.error ? `${body.avatar.status}: ${body.avatar.error.message}` : body.avatar.status;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('completed');
  return avatar.id;
}
