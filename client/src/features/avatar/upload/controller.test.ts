import type { CustomAvatar } from '@alma/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadError } from '../../../lib/upload.ts';
import {
  createUploadController,
  HAND_OVER_DELAY_MS,
  POLL_INTERVAL_MS,
  type ProgressEvent,
  type UploadDeps,
} from './controller.ts';

const avatar = (over: Partial<CustomAvatar> = {}): CustomAvatar =>
  ({ id: 'avatar-1', name: 'Mío', status: 'pending', step: 'queued', progress: 0, ...over }) as CustomAvatar;

function setup(over: Partial<UploadDeps> = {}) {
  const listeners = new Map<string, (e: ProgressEvent) => void>();
  const deps: UploadDeps = {
    upload: vi.fn(async () => avatar()),
    status: vi.fn(async () => ({ status: 'pending' as const, progress: 0, step: 'queued', error: null })),
    fetchAvatar: vi.fn(async () => avatar({ status: 'completed', progress: 100, isReady: true })),
    cancel: vi.fn(async () => ({
      status: 'cancelled' as const,
      progress: 40,
      step: 'inspecting',
      error: null,
    })),
    subscribe: vi.fn((id: string, l: (e: ProgressEvent) => void) => {
      listeners.set(id, l);
      return () => listeners.delete(id);
    }),
    socketConnected: () => true,
    loadLimits: async () => null,
    text: (key) => `text:${key}`,
    onCompleted: vi.fn(),
    ...over,
  };
  const controller = createUploadController(deps);
  const push = (e: Partial<ProgressEvent>) =>
    listeners.get('avatar-1')?.({ id: 'avatar-1', status: 'processing', progress: 0, step: 'queued', ...e });
  return { deps, controller, push, listeners };
}

const file = (name = 'yo.glb', size = 1000) => new File([new Uint8Array(size)], name);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the avatar upload controller (spec §4 custom avatar upload)', () => {
  it('refuses a file that is not .glb with the spec text, without uploading', async () => {
    const { controller, deps } = setup();
    await controller.start(file('yo.fbx'));
    expect(controller.getState()).toEqual({
      phase: 'failed',
      message: 'text:errors.avatar_format_invalid',
      canRetry: false,
    });
    expect(deps.upload).not.toHaveBeenCalled();
  });

  it('follows live progress forward only, then hands the ready avatar over 2 s after completion', async () => {
    const { controller, deps, push } = setup();
    await controller.start(file(), { name: 'Mío' });
    expect(deps.upload).toHaveBeenCalledWith(expect.objectContaining({ fields: { name: 'Mío' } }));
    expect(controller.getState()).toMatchObject({ phase: 'processing', id: 'avatar-1' });
    push({ progress: 40, step: 'inspecting' });
    push({ progress: 20, step: 'validating' }); // late: ignored
    expect(controller.getState()).toMatchObject({ phase: 'processing', progress: 40, step: 'inspecting' });
    push({ status: 'completed', progress: 100, step: 'stored' });
    await vi.advanceTimersByTimeAsync(0); // lets the avatar fetch settle, no time passes
    expect(controller.getState().phase).toBe('completed');
    await vi.advanceTimersByTimeAsync(HAND_OVER_DELAY_MS - 1);
    expect(deps.onCompleted).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(deps.onCompleted).toHaveBeenCalledWith(expect.objectContaining({ id: 'avatar-1', isReady: true }));
  });

  it('polls the status every 2 s only while the socket is down', async () => {
    let connected = true;
    const status = vi
      .fn()
      .mockResolvedValueOnce({ status: 'pending', progress: 0, step: 'queued', error: null })
      .mockResolvedValueOnce({ status: 'processing', progress: 60, step: 'analysing', error: null })
      .mockResolvedValue({ status: 'completed', progress: 100, step: 'stored', error: null });
    const { controller, deps } = setup({ status, socketConnected: () => connected });
    await controller.start(file());
    expect(status).toHaveBeenCalledTimes(1); // the one look right after the upload
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 2);
    expect(status).toHaveBeenCalledTimes(1); // connected: events, not polls
    connected = false;
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(controller.getState()).toMatchObject({ phase: 'processing', progress: 60 });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(controller.getState().phase).toBe('completed');
    expect(deps.fetchAvatar).toHaveBeenCalledWith('avatar-1');
    const calls = status.mock.calls.length;
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(status.mock.calls.length).toBe(calls); // stopped once done
  });

  it('cancels only while processing, then fetches the status again', async () => {
    const { controller, deps, push } = setup();
    await controller.cancel();
    expect(deps.cancel).not.toHaveBeenCalled();
    await controller.start(file());
    push({ progress: 20, step: 'validating' });
    (deps.status as ReturnType<typeof vi.fn>).mockResolvedValueOnce({
      status: 'cancelled',
      progress: 20,
      step: 'validating',
      error: null,
    });
    await controller.cancel();
    expect(deps.cancel).toHaveBeenCalledWith('avatar-1');
    expect(deps.status).toHaveBeenCalledTimes(2);
    expect(controller.getState()).toEqual({ phase: 'cancelled' });
  });

  it('shows a failure with its message and retries the same file', async () => {
    const { controller, deps, push } = setup();
    const f = file();
    await controller.start(f, { name: 'x' });
    push({
      status: 'failed',
      progress: 20,
      step: 'validating',
      error: { message: 'El modelo tiene errores' },
    });
    expect(controller.getState()).toEqual({
      phase: 'failed',
      message: 'El modelo tiene errores',
      canRetry: true,
    });
    await controller.retry();
    expect(deps.upload).toHaveBeenCalledTimes(2);
    expect((deps.upload as ReturnType<typeof vi.fn>).mock.calls[1]?.[0]).toMatchObject({
      file: f,
      fields: { name: 'x' },
    });
  });

  it('shows the server refusal text (a limit) and the plan checks before sending', async () => {
    const refused = setup({
      upload: vi.fn(async () => Promise.reject(new UploadError('upload_concurrency_limit', 'Espera'))),
    });
    await refused.controller.start(file());
    expect(refused.controller.getState()).toEqual({ phase: 'failed', message: 'Espera', canRetry: false });

    const limits = {
      limits: {
        features: ['custom_avatars'],
        maxCustomAvatars: 2,
        maxAvatarFileSize: 52428800,
        maxTotalStorage: 100,
        maxConcurrentUploads: 1,
      },
      usage: { customAvatars: 2, totalStorageBytes: 0, currentProcessingUploads: 0 },
    };
    const full = setup({ loadLimits: async () => limits as never });
    await full.controller.start(file());
    expect(full.controller.getState()).toMatchObject({ message: 'text:errors.avatar_limit_reached' });
    expect(full.deps.upload).not.toHaveBeenCalled();
  });
});
