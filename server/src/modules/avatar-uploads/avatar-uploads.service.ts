import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AVATAR_FAILURE_CODES,
  AVATAR_UPLOAD_MAX_BYTES,
  CUSTOM_AVATAR_NAME_MAX,
  PLAN_TABLE,
  ServerEvent,
  hasGlbExtension,
  isCustomAvatarId,
  type AvatarFailureCode,
  type AvatarUploadFieldsSchema,
  type CustomAvatar,
  type JobQueueState,
  type Language,
  type PlanLimits,
} from '@alma/protocol';
import type { z } from 'zod';
import type { Analysis } from '../../avatars/processing/analyse.ts';
import { cpuBudgetFor, JobFailure, runProcessingJob } from '../../avatars/processing/run-job.ts';
import type { JobResult } from '../../avatars/processing/worker-protocol.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import type {
  CustomAvatarProgress,
  CustomAvatarRecord,
  CustomAvatarRepository,
  UserRepository,
} from '../../storage/types.ts';
import { modelFileOf, portraitFileOf, progressOf, toCustomAvatar, uploadFileOf } from './custom-avatar.ts';
import { createFairQueue } from '../../lib/fair-queue.ts';
import { checkReceivedGlb, receiveFile, refusal, type IncomingFile, type ReceivedFile } from './receive.ts';
import { createLocalJobBoard, jobOf, type AvatarJob, type JobBoard, type JobBoardDeps } from './job-board.ts';
import { createUploadSlots, type AvatarSlotSets } from './slots.ts';

/**
 * Custom avatar uploads (spec §3, §4, §5, §7; SPEC.md AU-1…AU-11). An upload is streamed to disk
 * under the limits and checked (header, then the checks before processing) while a slot is held;
 * only when the whole request has been read is it recorded as pending and queued (`stage` →
 * `commit`), so a refused request stores nothing. A fair queue runs jobs and compatibility checks
 * on a small pool of worker threads (one per user at a time), storing every step and pushing it as
 * `upload:progress` to the owner's sockets (on any instance). Which instance runs a job is the
 * job board's choice (this one alone, or any through Redis: SPEC.md M-7). The avatars' files are
 * blobs (SPEC.md AU-2, M-8): `<id>.upload.glb` while queued or processing, `<id>.glb` and
 * `<id>.portrait.webp` once done. Only this instance's folder `incoming/<instance>/` is local:
 * uploads still arriving, and each running job's working copies (`<id>/`).
 */

export interface AvatarUploadsDeps {
  avatars: CustomAvatarRepository;
  users: Pick<UserRepository, 'findById'>;
  /** Where the avatars' uploads, models and portraits are kept. */
  files: BlobStore;
  /** DATA_DIR/custom-avatars/incoming: each instance's local folder (`incoming/<instance>`). */
  incomingRoot: string;
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
  /** This process among instances (its incoming folder, its jobs' leases). */
  instanceId?: string;
  /** Where jobs wait and who runs them; default: this process alone. */
  board?: (deps: JobBoardDeps) => JobBoard;
  /** Upload and check claims; default: counted in this process. */
  slotSets?: AvatarSlotSets;
}

export type AvatarUploadFields = z.infer<typeof AvatarUploadFieldsSchema>;

/** An upload received and checked but not yet recorded: committed once the request is fully read. */
export interface StagedUpload {
  commit(fields: AvatarUploadFields): Promise<CustomAvatar>;
  discard(): Promise<void>;
}

/** A model or portrait to serve: its size, and its bytes when asked. */
export interface StoredFile {
  size: number;
  read: () => Readable;
}

/** A first guess shown while processing: a few seconds plus ~1 s per 2 MB (updated by experience). */
const estimateMs = (bytes: number) => 3000 + Math.round(bytes / 2000);

/** What a failed job or check answers: its code when it is one of ours. */
const failureCode = (error: unknown): AvatarFailureCode =>
  error instanceof JobFailure && (AVATAR_FAILURE_CODES as readonly string[]).includes(error.code)
    ? (error.code as AvatarFailureCode)
    : 'processing_failed';

export function createAvatarUploadsService(deps: AvatarUploadsDeps) {
  const { avatars, files, publisher, log } = deps;
  const queue = createFairQueue({ workers: Math.max(1, deps.workers ?? 2) });
  const slots = createUploadSlots(async (userId) => {
    const [used, other] = await Promise.all([
      avatars.usage(userId),
      deps.otherProcessingUploads?.(userId) ?? 0,
    ]);
    return { count: used.count, processing: used.processing + other };
  }, deps.slotSets);
  let closed = false;
  const boardDeps: JobBoardDeps = {
    queue,
    run: (job, signal) => runJob(job, signal),
    listUnfinished: () => avatars.listUnfinished(),
    takeOver,
    incomingRoot: deps.incomingRoot,
    instanceId: deps.instanceId ?? 'local',
  };
  const board = (deps.board ?? createLocalJobBoard)(boardDeps);

  async function userOf(userId: string) {
    const user = await deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', { detail: `no user ${userId}` });
    return user;
  }
  const limitsOf = async (userId: string): Promise<PlanLimits> =>
    PLAN_TABLE[(await userOf(userId)).plan].limits;
  const maxBytesOf = (limits: PlanLimits) => Math.min(AVATAR_UPLOAD_MAX_BYTES, limits.maxAvatarFileSize);

  async function save(
    userId: string,
    id: string,
    patch: Partial<CustomAvatarProgress>,
    whenStatus?: readonly CustomAvatarRecord['status'][],
    language: Language = 'es',
  ): Promise<CustomAvatarRecord | null> {
    const record = await avatars.update(userId, id, patch, whenStatus);
    if (record) publisher.toUser(record.userId, ServerEvent.uploadProgress, progressOf(record, language));
    return record;
  }

  const removeQuietly = (file: string) => files.delete(file).catch(() => false);
  /** What processing writes for an avatar: its model and its portrait (AV-7). */
  const removeOutputs = async (id: string) => {
    await removeQuietly(modelFileOf(id));
    await removeQuietly(portraitFileOf(id));
  };
  const receive = (input: IncomingFile, limits: PlanLimits) =>
    receiveFile(input, board.incoming, deps.newId(), maxBytesOf(limits));

  /**
   * Spec §5 checks in order, before any work: feature, then the avatar and processing slots
   * (claimed for this request), the name — all before the body is read; then the size while
   * streaming; total storage, the GLB header and the checks before processing once received.
   * Nothing is recorded until `commit`; `discard` (or any refusal) leaves nothing behind.
   */
  async function stage(userId: string, input: IncomingFile, language: Language): Promise<StagedUpload> {
    const limits = await limitsOf(userId);
    if (!limits.features.includes('custom_avatars')) throw new AppError('upload_feature_not_included');
    const release = await slots.claim(userId, limits, 'upload');
    let received: ReceivedFile | null = null;
    const discard = async () => {
      release();
      if (received) await rm(received.path, { force: true });
    };
    try {
      if (!hasGlbExtension(input.fileName))
        throw new AppError('avatar_format_invalid', {
          detail: `file name ${JSON.stringify(input.fileName)}`,
        });
      received = await receive(input, limits);
      const size = received.size;
      const used = (await avatars.usage(userId)).bytes + ((await deps.otherStorageBytes?.(userId)) ?? 0);
      if (used + size > limits.maxTotalStorage)
        throw new AppError('upload_storage_full', {
          detail: `${used} + ${size} > ${limits.maxTotalStorage}`,
        });
      await checkReceivedGlb(received, input.field, language);
    } catch (error) {
      await discard();
      throw error;
    }
    const file = received;
    return {
      discard,
      commit: async (fields) => {
        try {
          return await record(userId, input.fileName, file, fields, language);
        } finally {
          await discard();
        }
      },
    };
  }

  /** Records the checked upload as pending and queues it (AU-1). */
  async function record(
    userId: string,
    fileName: string,
    received: ReceivedFile,
    fields: AvatarUploadFields,
    language: Language,
  ): Promise<CustomAvatar> {
    const id = `avatar-${deps.newId()}`;
    const now = deps.clock().toISOString();
    const baseName = fileName.replace(/\.glb$/i, '').trim();
    const record: CustomAvatarRecord = {
      id,
      userId,
      name: (fields.name?.trim() || baseName || 'Mi avatar').slice(0, CUSTOM_AVATAR_NAME_MAX),
      description: fields.description?.trim() ?? '',
      tags: (fields.tags ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
        .slice(0, 20),
      originalName: fileName.slice(0, 200),
      originalSize: received.size,
      createdAt: now,
      startedAt: now,
      estimatedMs: estimateMs(received.size),
      status: 'pending',
      step: 'queued',
      progress: 0,
      uploadFile: uploadFileOf(id),
      modelFile: null,
      processedSize: null,
      compressionRatio: null,
      rigMetadata: null,
      animationConfig: null,
      compatibility: null,
      error: null,
      completedAt: null,
    };
    await files.put(uploadFileOf(id), createReadStream(received.path));
    try {
      await avatars.insert(record);
    } catch (error) {
      await removeQuietly(uploadFileOf(id));
      throw error;
    }
    board.add({ id, userId, size: received.size });
    return toCustomAvatar(record, language);
  }

  async function runJob({ id, userId, size }: AvatarJob, signal: AbortSignal) {
    if (closed) return;
    const language = await userOf(userId).then(
      (u) => u.language,
      () => 'es' as const,
    );
    const put = (patch: Partial<CustomAvatarProgress>, when: readonly CustomAvatarRecord['status'][]) =>
      save(userId, id, patch, when, language);
    try {
      const begun = await put({ status: 'processing', step: 'queued', progress: 5 }, ['pending']);
      if (!begun) return; // cancelled or deleted while queued
      const limits = await limitsOf(userId).catch(() => PLAN_TABLE.free.limits);
      let result: JobResult;
      try {
        result = await processStored(id, (work) =>
          runProcessingJob({
            ...work,
            timeoutMs: deps.processingTimeoutMs ?? limits.maxProcessingTime,
            cpuBudgetMs: cpuBudgetFor(size),
            signal,
            onStep: (step, progress) => void put({ step, progress }, ['processing']),
          }),
        );
      } catch (error) {
        await removeOutputs(id);
        if (error instanceof JobFailure && error.code === 'cancelled') return; // cancel() recorded it
        const code = failureCode(error);
        log.warn({ avatarId: id, code, err: error }, 'avatar processing failed');
        const findings = error instanceof JobFailure ? error.findings : [];
        await put(
          {
            status: 'failed',
            error: { code, detail: String((error as Error).message).slice(0, 500), findings },
            uploadFile: null,
          },
          ['processing'],
        );
        await removeQuietly(uploadFileOf(id));
        return;
      }
      const completed = await put(
        {
          status: 'completed',
          step: 'stored',
          progress: 100,
          uploadFile: null,
          modelFile: modelFileOf(id),
          processedSize: result.processedSize,
          compressionRatio: result.compressionRatio,
          rigMetadata: result.analysis.rig,
          animationConfig: result.analysis.animationConfig,
          compatibility: result.analysis.report,
          completedAt: deps.clock().toISOString(),
        },
        ['processing'],
      );
      await removeQuietly(uploadFileOf(id));
      if (!completed) await removeOutputs(id); // cancelled or deleted at the last moment
    } catch (error) {
      log.error({ avatarId: id, err: error }, 'avatar job crashed');
    }
  }

  /**
   * Runs `job` on local copies in this instance's folder — the stored upload in, the model and
   * portrait out — and puts what it made into the store; the copies go either way.
   */
  async function processStored(
    id: string,
    job: (paths: { inputPath: string; outputPath: string; portraitPath: string }) => Promise<JobResult>,
  ): Promise<JobResult> {
    const work = join(board.incoming, id);
    const local = (file: string) => join(work, file);
    await mkdir(work, { recursive: true });
    try {
      await pipeline(files.read(uploadFileOf(id)), createWriteStream(local(uploadFileOf(id))));
      const result = await job({
        inputPath: local(uploadFileOf(id)),
        outputPath: local(modelFileOf(id)),
        portraitPath: local(portraitFileOf(id)),
      });
      await files.put(modelFileOf(id), createReadStream(local(modelFileOf(id))));
      if (result.portrait) await files.put(portraitFileOf(id), createReadStream(local(portraitFileOf(id))));
      return result;
    } finally {
      await rm(work, { recursive: true, force: true });
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
    const record = await save(
      userId,
      id,
      { status: 'cancelled', uploadFile: null },
      ['pending', 'processing'],
      language,
    );
    if (!record) throw new AppError('avatar_not_cancellable', { detail: `avatar ${id}` });
    await board.stop(id);
    await removeQuietly(uploadFileOf(id));
    await removeOutputs(id);
    return toCustomAvatar(record, language);
  }

  async function remove(userId: string, id: string): Promise<void> {
    const record = await owned(userId, id);
    await avatars.delete(userId, record.id);
    await board.stop(id);
    await removeQuietly(uploadFileOf(id));
    await removeOutputs(id);
  }

  /** A stored file as the routes serve it; null when there is none. */
  async function storedFile(name: string): Promise<StoredFile | null> {
    const info = await files.stat(name);
    return info ? { size: info.size, read: () => files.read(name) } : null;
  }

  /** The optimised model, for its owner; null when it is not ready. */
  async function model(userId: string, id: string): Promise<StoredFile | null> {
    const record = await owned(userId, id);
    if (record.status !== 'completed' || !record.modelFile) return null;
    return storedFile(record.modelFile);
  }

  /** The portrait drawn by processing (AV-7), for its owner; null when there is none. */
  async function portrait(userId: string, id: string): Promise<StoredFile | null> {
    const record = await owned(userId, id);
    if (record.status !== 'completed') return null;
    return storedFile(portraitFileOf(record.id));
  }

  /**
   * The compatibility check (spec §7; AU-9): the same checks as an upload, then the analysis on
   * the same queue, holding one of the user's processing slots; nothing is stored.
   */
  async function check(userId: string, input: IncomingFile, language: Language): Promise<Analysis> {
    const limits = await limitsOf(userId);
    if (!hasGlbExtension(input.fileName))
      throw new AppError('avatar_format_invalid', { detail: `file name ${JSON.stringify(input.fileName)}` });
    const release = await slots.claim(userId, limits, 'check');
    let received: ReceivedFile | null = null;
    try {
      received = await receive(input, limits);
      await checkReceivedGlb(received, input.field, language);
      const { path, size } = received;
      const result = await new Promise<JobResult>((resolve, reject) =>
        queue.enqueue({
          id: `check-${deps.newId()}`,
          userId,
          run: () =>
            runProcessingJob({
              inputPath: path,
              outputPath: null,
              timeoutMs: deps.processingTimeoutMs ?? limits.maxProcessingTime,
              cpuBudgetMs: cpuBudgetFor(size),
            }).then(resolve, reject),
        }),
      ).catch((error: unknown) => {
        throw checkFailure(error, input.field, language);
      });
      return result.analysis;
    } finally {
      release();
      if (received) await rm(received.path, { force: true });
    }
  }

  /** A check's job failure as the request's answer: the model's problem, never "only .glb" (issue 12). */
  function checkFailure(error: unknown, field: string, language: Language): AppError {
    const detail = error instanceof Error ? error.message : String(error);
    const findings = error instanceof JobFailure ? error.findings : [];
    switch (failureCode(error)) {
      case 'invalid_glb':
        return new AppError('avatar_format_invalid', { detail });
      case 'too_complex':
      case 'timeout':
        return new AppError('avatar_too_complex', { detail });
      case 'model_rejected':
      case 'validation_failed':
      case 'unreadable_model':
      case 'empty_model':
        return findings.length
          ? refusal(findings, field, language)
          : new AppError('avatar_model_invalid', { detail });
      default:
        return new AppError('server_error', { detail });
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
      workers: queue.workers,
    };
  }

  /**
   * A job whose instance is gone — this one before a restart, or another that died (AU-8, M-7):
   * back in the queue from the start when its upload survived, else failed as interrupted. Its
   * half-written model is removed, so no file is left without a record that names it. Each
   * change applies only if the record is still as read (another instance may take it too).
   */
  async function takeOver(record: CustomAvatarRecord): Promise<AvatarJob | null> {
    await removeOutputs(record.id);
    if (record.uploadFile && (await files.stat(record.uploadFile))) {
      const reset = await avatars.update(
        record.userId,
        record.id,
        { status: 'pending', step: 'queued', progress: 0 },
        [record.status],
      );
      return reset ? jobOf(reset) : null;
    }
    await avatars.update(
      record.userId,
      record.id,
      {
        status: 'failed',
        uploadFile: null,
        error: { code: 'interrupted', detail: 'the upload was lost in a restart' },
      },
      [record.status],
    );
    return null;
  }

  /** Stops taking jobs and stops running ones (shutdown); their records are taken back later. */
  async function close(): Promise<void> {
    closed = true;
    queue.close();
    slots.close();
    await board.close();
  }

  return {
    stage,
    cancel,
    remove,
    model,
    portrait,
    check,
    stats,
    /** After start: takes back what a restart or a dead instance left (AU-8, M-7). */
    recover: () => board.recover(),
    close,
    /** The caller's avatar, owner-scoped. */
    get: async (userId: string, id: string, language: Language) =>
      toCustomAvatar(await owned(userId, id), language),
    list: async (userId: string, language: Language) =>
      (await avatars.listForUser(userId)).map((r) => toCustomAvatar(r, language)),
    /** Stored usage, with slots held by requests in flight counted as processing. */
    usage: async (userId: string) => {
      const used = await avatars.usage(userId);
      return { ...used, processing: used.processing + (await slots.inFlight(userId)) };
    },
    /** Jobs and checks queued or running on this instance (tests wait for it to drain). */
    pending: () => queue.size(),
    /** The avatar jobs' queue as this instance sees it (`/health`, M-7). */
    jobs: async (): Promise<JobQueueState> => ({
      instance: boardDeps.instanceId,
      workers: queue.workers,
      running: board.running(),
      waiting: await avatars.countPending(),
      finished: board.finished(),
    }),
  };
}

export type AvatarUploadsService = ReturnType<typeof createAvatarUploadsService>;
