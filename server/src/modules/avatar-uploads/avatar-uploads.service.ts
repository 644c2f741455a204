import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AVATAR_FAILURE_CODES,
  AVATAR_FAILURE_MESSAGES,
  AVATAR_UPLOAD_MAX_BYTES,
  CUSTOM_AVATAR_NAME_MAX,
  PLAN_TABLE,
  ServerEvent,
  customAvatarModelUrl,
  hasGlbExtension,
  isCustomAvatarId,
  type AvatarFailureCode,
  type CustomAvatar,
  type Language,
  type PlanLimits,
} from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type {
  CustomAvatarProgress,
  CustomAvatarRecord,
  CustomAvatarRepository,
  UserRepository,
} from '../../storage/types.ts';
import { hasGlbHeader } from '../../avatars/processing/gltf-io.ts';
import { JobFailure, runProcessingJob } from '../../avatars/processing/run-job.ts';
import type { JobResult } from '../../avatars/processing/worker-protocol.ts';

/**
 * Custom avatar uploads (spec §3, §4, §5, §7; SPEC.md AU-1…AU-9). The upload is streamed to disk
 * under the limits, checked and recorded as pending, and answered at once; a queue runs each job
 * on a worker thread (run-job.ts), storing every step and pushing it as `upload:progress` to the
 * owner's sockets. Files live in one folder: `<id>.upload.glb` while queued or processing,
 * `<id>.glb` once optimised, and `incoming/` for uploads still arriving.
 */

export interface AvatarUploadsDeps {
  avatars: CustomAvatarRepository;
  users: Pick<UserRepository, 'findById'>;
  /** DATA_DIR/custom-avatars. */
  dir: string;
  publisher: Publisher;
  newId: IdGenerator;
  clock: Clock;
  log: Log;
  /** Jobs processed at once on this instance (worker threads). */
  workers?: number;
  /** The user's voice storage, counted with avatars against the plan's total (spec §3). */
  otherStorageBytes?: (userId: string) => Promise<number>;
  /** Voice uploads in flight, which share the plan's concurrent uploads with avatar jobs (spec §5). */
  otherProcessingUploads?: (userId: string) => Promise<number>;
  /** Overrides the plan's `maxProcessingTime` (tests). */
  processingTimeoutMs?: number;
}

export interface AvatarUploadInput {
  file: Readable;
  fileName: string;
  /** Set by the multipart parser when the stream was cut at its size limit. */
  truncated: () => boolean;
  fields: { name?: string | undefined; description?: string | undefined; tags?: string | undefined };
}

/** A first guess shown while processing: a few seconds plus ~1 s per 2 MB (updated by experience). */
const estimateMs = (bytes: number) => 3000 + Math.round(bytes / 2000);

const uploadFile = (id: string) => `${id}.upload.glb`;
const modelFile = (id: string) => `${id}.glb`;

export function toCustomAvatar(record: CustomAvatarRecord, language: Language): CustomAvatar {
  const completed = record.status === 'completed';
  const modelUrl = completed ? customAvatarModelUrl(record.id) : null;
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    category: 'custom',
    tags: record.tags,
    isPublic: false,
    status: record.status,
    step: record.step,
    progress: record.progress,
    startTime: record.startedAt,
    estimatedTime: Math.round(record.estimatedMs / 1000),
    isReady: completed,
    hasError: record.status === 'failed',
    error: record.error
      ? { code: record.error.code, message: AVATAR_FAILURE_MESSAGES[language][record.error.code] }
      : null,
    modelUrl,
    modelPath: modelUrl,
    modelFilename: completed ? modelFile(record.id) : null,
    originalName: record.originalName,
    rigMetadata: record.rigMetadata,
    animationConfig: record.animationConfig,
    compatibility: record.compatibility,
    compatibilityScore: record.compatibility?.score ?? null,
    originalSize: record.originalSize,
    processedSize: record.processedSize,
    compressionRatio: record.compressionRatio,
    isCustom: true,
    isProcessed: completed,
    processing: { status: completed ? 'completed' : 'processing' },
    createdAt: record.createdAt,
    completedAt: record.completedAt,
  };
}

export function createAvatarUploadsService(deps: AvatarUploadsDeps) {
  const { avatars, dir, publisher, log } = deps;
  const incoming = join(dir, 'incoming');
  const workers = Math.max(1, deps.workers ?? 1);
  const queue: { userId: string; id: string }[] = [];
  const running = new Map<string, AbortController>();
  const durations: number[] = [];
  let closed = false;

  async function limitsOf(userId: string): Promise<PlanLimits> {
    const user = await deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', { detail: `no user ${userId}` });
    return PLAN_TABLE[user.plan].limits;
  }

  function push(record: CustomAvatarRecord, language: Language = 'es') {
    publisher.toUser(record.userId, ServerEvent.uploadProgress, {
      kind: 'avatar',
      id: record.id,
      status: record.status,
      progress: record.progress,
      step: record.step,
      ...(record.error ? { error: { message: AVATAR_FAILURE_MESSAGES[language][record.error.code] } } : {}),
    });
  }

  async function save(
    userId: string,
    id: string,
    patch: Partial<CustomAvatarProgress>,
    whenStatus?: readonly CustomAvatarRecord['status'][],
  ): Promise<CustomAvatarRecord | null> {
    const record = await avatars.update(userId, id, patch, whenStatus);
    if (record) push(record);
    return record;
  }

  const removeQuietly = (file: string) => unlink(join(dir, file)).catch(() => undefined);

  /** Streams the file to `incoming/`, counting bytes; over `maxBytes` it stops and refuses. */
  async function receive(
    input: AvatarUploadInput,
    maxBytes: number,
  ): Promise<{ path: string; size: number }> {
    await mkdir(incoming, { recursive: true });
    const path = join(incoming, `${deps.newId()}.part`);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes)
          done(new AppError('avatar_file_too_large', { detail: `over ${maxBytes} bytes` }));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(input.file, counter, createWriteStream(path));
      if (input.truncated())
        throw new AppError('avatar_file_too_large', { detail: `over ${maxBytes} bytes` });
      return { path, size };
    } catch (error) {
      input.file.resume();
      await rm(path, { force: true });
      throw error;
    }
  }

  /** Reads the 12-byte header of the received file. */
  async function headerOf(path: string): Promise<Uint8Array> {
    const handle = await open(path, 'r');
    try {
      const header = new Uint8Array(12);
      await handle.read(header, 0, 12, 0);
      return header;
    } finally {
      await handle.close();
    }
  }

  /**
   * Spec §5 checks in order, before any work: feature, slots, concurrency (before the body is
   * read); name; then the size while streaming; total storage and the GLB header once received.
   * Only then is the avatar recorded (pending) and queued. Any refusal leaves nothing behind.
   */
  async function upload(userId: string, input: AvatarUploadInput, language: Language): Promise<CustomAvatar> {
    const limits = await limitsOf(userId);
    if (!limits.features.includes('custom_avatars')) throw new AppError('upload_feature_not_included');
    const used = await avatars.usage(userId);
    if (used.count >= limits.maxCustomAvatars)
      throw new AppError('avatar_limit_reached', { detail: `${used.count}/${limits.maxCustomAvatars}` });
    if (used.processing >= limits.maxConcurrentUploads)
      throw new AppError('upload_concurrency_limit', {
        detail: `${used.processing}/${limits.maxConcurrentUploads}`,
      });
    if (!hasGlbExtension(input.fileName))
      throw new AppError('avatar_format_invalid', { detail: `file name ${JSON.stringify(input.fileName)}` });

    const received = await receive(input, Math.min(AVATAR_UPLOAD_MAX_BYTES, limits.maxAvatarFileSize));
    try {
      if (received.size === 0) throw new AppError('avatar_format_invalid', { detail: 'empty file' });
      const other = deps.otherStorageBytes ? await deps.otherStorageBytes(userId) : 0;
      if (used.bytes + other + received.size > limits.maxTotalStorage)
        throw new AppError('upload_storage_full', {
          detail: `${used.bytes + other} + ${received.size} > ${limits.maxTotalStorage}`,
        });
      if (!hasGlbHeader(await headerOf(received.path), received.size))
        throw new AppError('avatar_format_invalid', { detail: 'no glTF 2.0 binary header' });

      const id = `avatar-${deps.newId()}`;
      const now = deps.clock().toISOString();
      const baseName = input.fileName.replace(/\.glb$/i, '').trim();
      const record: CustomAvatarRecord = {
        id,
        userId,
        name: (input.fields.name?.trim() || baseName || 'Mi avatar').slice(0, CUSTOM_AVATAR_NAME_MAX),
        description: input.fields.description?.trim() ?? '',
        tags: (input.fields.tags ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
          .slice(0, 20),
        originalName: input.fileName.slice(0, 200),
        originalSize: received.size,
        createdAt: now,
        startedAt: now,
        estimatedMs: estimateMs(received.size),
        status: 'pending',
        step: 'queued',
        progress: 0,
        uploadFile: uploadFile(id),
        modelFile: null,
        processedSize: null,
        compressionRatio: null,
        rigMetadata: null,
        animationConfig: null,
        compatibility: null,
        error: null,
        completedAt: null,
      };
      await rename(received.path, join(dir, uploadFile(id)));
      try {
        await avatars.insert(record);
      } catch (error) {
        await removeQuietly(uploadFile(id));
        throw error;
      }
      enqueue(userId, id);
      return toCustomAvatar(record, language);
    } finally {
      await rm(received.path, { force: true });
    }
  }

  function enqueue(userId: string, id: string) {
    queue.push({ userId, id });
    pump();
  }

  function pump() {
    while (!closed && running.size < workers && queue.length) {
      const job = queue.shift();
      if (job) void runJob(job.userId, job.id);
    }
  }

  async function runJob(userId: string, id: string) {
    const controller = new AbortController();
    running.set(id, controller);
    const started = deps.clock().getTime();
    try {
      const begun = await save(userId, id, { status: 'processing', step: 'queued', progress: 5 }, [
        'pending',
      ]);
      if (!begun) return; // cancelled or deleted while queued
      const limits = await limitsOf(userId).catch(() => PLAN_TABLE.free.limits);
      let result: JobResult;
      try {
        result = await runProcessingJob({
          inputPath: join(dir, uploadFile(id)),
          outputPath: join(dir, modelFile(id)),
          timeoutMs: deps.processingTimeoutMs ?? limits.maxProcessingTime,
          signal: controller.signal,
          onStep: (step, progress) => void save(userId, id, { step, progress }, ['processing']),
        });
      } catch (error) {
        await removeQuietly(modelFile(id));
        if (error instanceof JobFailure && error.code === 'cancelled') return; // cancel() recorded it
        const code: AvatarFailureCode =
          error instanceof JobFailure && isFailureCode(error.code) ? error.code : 'processing_failed';
        log.warn({ avatarId: id, code, err: error }, 'avatar processing failed');
        await save(
          userId,
          id,
          {
            status: 'failed',
            error: { code, detail: String((error as Error).message).slice(0, 500) },
            uploadFile: null,
          },
          ['processing'],
        );
        await removeQuietly(uploadFile(id));
        return;
      }
      const completed = await save(
        userId,
        id,
        {
          status: 'completed',
          step: 'stored',
          progress: 100,
          uploadFile: null,
          modelFile: modelFile(id),
          processedSize: result.processedSize,
          compressionRatio: result.compressionRatio,
          rigMetadata: result.analysis.rig,
          animationConfig: result.analysis.animationConfig,
          compatibility: result.analysis.report,
          completedAt: deps.clock().toISOString(),
        },
        ['processing'],
      );
      await removeQuietly(uploadFile(id));
      if (!completed)
        await removeQuietly(modelFile(id)); // cancelled or deleted at the last moment
      else {
        durations.push(deps.clock().getTime() - started);
        if (durations.length > 100) durations.shift();
      }
    } catch (error) {
      log.error({ avatarId: id, err: error }, 'avatar job crashed');
    } finally {
      running.delete(id);
      pump();
    }
  }

  async function owned(userId: string, id: string): Promise<CustomAvatarRecord> {
    const record = isCustomAvatarId(id) ? await avatars.find(userId, id) : null;
    // Another user's avatar reads as missing (AU-6): nothing tells them it exists.
    if (!record) throw new AppError('not_found', { detail: `avatar ${id}` });
    return record;
  }

  /** Spec §4: cancel only while processing (or still queued); the files go, the record stays cancelled. */
  async function cancel(userId: string, id: string, language: Language): Promise<CustomAvatar> {
    await owned(userId, id);
    const record = await save(userId, id, { status: 'cancelled', uploadFile: null }, [
      'pending',
      'processing',
    ]);
    if (!record) throw new AppError('avatar_not_cancellable', { detail: `avatar ${id}` });
    const index = queue.findIndex((j) => j.id === id);
    if (index >= 0) queue.splice(index, 1);
    running.get(id)?.abort();
    await removeQuietly(uploadFile(id));
    await removeQuietly(modelFile(id));
    return toCustomAvatar(record, language);
  }

  async function remove(userId: string, id: string): Promise<void> {
    const record = await owned(userId, id);
    running.get(id)?.abort();
    const index = queue.findIndex((j) => j.id === id);
    if (index >= 0) queue.splice(index, 1);
    await avatars.delete(userId, record.id);
    await removeQuietly(uploadFile(id));
    await removeQuietly(modelFile(id));
  }

  /** The optimised model, for its owner; null when it is not ready. */
  async function model(userId: string, id: string): Promise<{ path: string; size: number } | null> {
    const record = await owned(userId, id);
    if (record.status !== 'completed' || !record.modelFile) return null;
    const path = join(dir, record.modelFile);
    const info = await stat(path).catch(() => null);
    return info ? { path, size: info.size } : null;
  }

  /** The compatibility check without storing (spec §7): the upload is analysed and thrown away. */
  async function check(userId: string, input: AvatarUploadInput) {
    const limits = await limitsOf(userId);
    if (!hasGlbExtension(input.fileName))
      throw new AppError('avatar_format_invalid', { detail: `file name ${JSON.stringify(input.fileName)}` });
    const received = await receive(input, Math.min(AVATAR_UPLOAD_MAX_BYTES, limits.maxAvatarFileSize));
    try {
      if (!hasGlbHeader(await headerOf(received.path), received.size))
        throw new AppError('avatar_format_invalid', { detail: 'no glTF 2.0 binary header' });
      try {
        const result = await runProcessingJob({
          inputPath: received.path,
          outputPath: null,
          timeoutMs: deps.processingTimeoutMs ?? limits.maxProcessingTime,
        });
        return result.analysis;
      } catch (error) {
        throw new AppError('avatar_format_invalid', { detail: (error as Error).message });
      }
    } finally {
      await rm(received.path, { force: true });
    }
  }

  async function stats(userId: string) {
    const mine = await avatars.listForUser(userId);
    const count = (status: CustomAvatarRecord['status']) => mine.filter((a) => a.status === status).length;
    const done = mine.filter((a) => a.status === 'completed' && a.completedAt);
    const average = done.length
      ? done.reduce(
          (sum, a) => sum + (Date.parse(a.completedAt ?? a.startedAt) - Date.parse(a.startedAt)),
          0,
        ) / done.length
      : null;
    return {
      queued: count('pending'),
      processing: count('processing'),
      completed: count('completed'),
      failed: count('failed'),
      cancelled: count('cancelled'),
      averageProcessingMs: average === null ? null : Math.round(average),
      workers,
    };
  }

  /**
   * After a restart (AU-8): jobs whose upload survived go back in the queue from the start;
   * the others are marked failed as interrupted. Half-received uploads and half-written models
   * are removed, so no file is left without a record that names it.
   */
  async function recover(): Promise<void> {
    await rm(incoming, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const files = new Set(await readdir(dir));
    for (const record of await avatars.listUnfinished()) {
      await removeQuietly(modelFile(record.id));
      if (record.uploadFile && files.has(record.uploadFile)) {
        const reset = await avatars.update(record.userId, record.id, {
          status: 'pending',
          step: 'queued',
          progress: 0,
        });
        if (reset) enqueue(record.userId, record.id);
      } else {
        await avatars.update(record.userId, record.id, {
          status: 'failed',
          uploadFile: null,
          error: { code: 'interrupted', detail: 'the upload was lost in a restart' },
        });
      }
    }
  }

  /** Stops taking jobs and stops running ones (shutdown); their records are recovered on start. */
  function close(): void {
    closed = true;
    for (const controller of running.values()) controller.abort();
  }

  return {
    upload,
    cancel,
    remove,
    model,
    check,
    stats,
    recover,
    close,
    /** The caller's avatar, owner-scoped. */
    get: async (userId: string, id: string, language: Language) =>
      toCustomAvatar(await owned(userId, id), language),
    list: async (userId: string, language: Language) =>
      (await avatars.listForUser(userId)).map((r) => toCustomAvatar(r, language)),
    usage: (userId: string) => avatars.usage(userId),
    /** Jobs queued or running on this instance (tests wait for it to drain). */
    pending: () => queue.length + running.size,
  };
}

const isFailureCode = (code: string): code is AvatarFailureCode =>
  (AVATAR_FAILURE_CODES as readonly string[]).includes(code);

export type AvatarUploadsService = ReturnType<typeof createAvatarUploadsService>;
