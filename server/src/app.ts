import { APP_VERSION, PROTOCOL_VERSION, ServerEvent, type Capability } from '@alma/protocol';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { join } from 'node:path';
import type { Config } from './config.ts';
import { createReplyEngine } from './engines/reply/select.ts';
import type { ReplyEngine } from './engines/reply/types.ts';
import { createSpeechSynthesizer } from './engines/speech/select.ts';
import { createTranscriber } from './engines/transcription/select.ts';
import type { Transcriber } from './engines/transcription/types.ts';
import type { SpeechSynthesizer } from './engines/speech/types.ts';
import { createBuiltinSynthesizer } from './engines/speech/builtin.ts';
import { systemClock, uuidv7, type Clock, type IdGenerator } from './lib/ids.ts';
import { createMailer, type Mailer } from './email/mailer.ts';
import { createModelStore, forgeInWorker } from './avatars/forge/model-store.ts';
import { createPortraitStore, portraitInWorker } from './avatars/portrait/store.ts';
import { registerAccountRoutes } from './modules/auth/account.routes.ts';
import { createAccountService, type AccountService } from './modules/auth/account.service.ts';
import { registerAudioRoutes } from './modules/audio/audio.routes.ts';
import { registerAvatarsRoutes } from './modules/avatars/avatars.routes.ts';
import { createAvatarsService } from './modules/avatars/avatars.service.ts';
import { createAudioService, type AudioService } from './modules/audio/audio.service.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { createMemoryLoginAttempts, createRedisLoginAttempts } from './modules/auth/login-attempts.ts';
import { createLoginGuard } from './modules/auth/login-guard.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createMemoryRevocation, type SessionClaims } from './modules/auth/revocation.ts';
import { registerChatRoutes } from './modules/chat/chat.routes.ts';
import { chatSocketHandlers } from './modules/chat/chat.socket.ts';
import { createMemoryReplyRegistry } from './modules/chat/reply-registry.ts';
import { createRedisReplyRegistry } from './modules/chat/reply-registry.redis.ts';
import { createOrphanFinisher } from './modules/chat/orphan-replies.ts';
import { createSessionsService } from './modules/chat/sessions.service.ts';
import { createSpeechPipeline } from './modules/chat/speech-pipeline.ts';
import { createSubmitService, type SubmitService } from './modules/chat/submit.service.ts';
import { createHealthCheck, registerHealthRoutes } from './modules/health/health.routes.ts';
import { createHealthMonitor, type HealthMonitor } from './modules/health/health-monitor.ts';
import { describeCapabilities } from './modules/health/capabilities.ts';
import { hasFfmpeg } from './audio/index.ts';
import { createOAuthClients } from './modules/oauth/oauth.providers.ts';
import { registerOAuthRoutes } from './modules/oauth/oauth.routes.ts';
import { createOAuthService } from './modules/oauth/oauth.service.ts';
import { createRedisFlowStore } from './modules/oauth/oauth.state.ts';
import { registerVoiceNoteRoutes } from './modules/voice-notes/voice-notes.routes.ts';
import { createAvatarUploadsService } from './modules/avatar-uploads/avatar-uploads.service.ts';
import { registerAvatarUploadRoutes } from './modules/avatar-uploads/avatar-uploads.routes.ts';
import { registerVoiceUploadRoutes } from './modules/voice-uploads/voice-uploads.routes.ts';
import { createVoiceUploadsService } from './modules/voice-uploads/voice-uploads.service.ts';
import { createRedisAnalysisQueue } from './modules/voice-uploads/analysis-jobs.redis.ts';
import { createMemoryUploadSlots, createRedisUploadSlots } from './modules/voice-uploads/upload-slots.ts';
import { NO_UPLOADS } from './modules/plans/subscription-limits.ts';
import { createVoiceNotesService } from './modules/voice-notes/voice-notes.service.ts';
import { registerUsersRoutes } from './modules/users/users.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { registerPaymentRoutes } from './modules/payments/payments.routes.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { registerPlansRoutes } from './modules/plans/plans.routes.ts';
import { createPlansService } from './modules/plans/plans.service.ts';
import { authPlugin } from './plugins/auth.ts';
import { registerClient } from './plugins/client.ts';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandler } from './plugins/errors.ts';
import { registerRequestId, requestLogOptions, serverLogger } from './plugins/request-log.ts';
import { registerProtocolVersionCheck } from './plugins/protocol-version.ts';
import { registerSecurity } from './plugins/security.ts';
import { handshakeHostCheck, securityHeaders } from './plugins/security-headers.ts';
import { createSocketServer, type AlmaServer } from './realtime/socket-server.ts';
import { withReplyResend } from './scale/reply-resend.ts';
import { openScaleOut } from './scale/index.ts';
import { createBlobStores, type BlobStores } from './storage/blob-stores.ts';
import { registerVoicesRoutes } from './modules/voices/voices.routes.ts';
import { createVoicesService, type VoicesService } from './modules/voices/voices.service.ts';
import type { Storage } from './storage/types.ts';
import { createRedisJobBoard } from './modules/avatar-uploads/job-board.redis.ts';

export interface AppDeps {
  config: Config;
  storage: Storage;
  /** Defaults to the engine `config.replyEngine` names. */
  engine?: ReplyEngine;
  clock?: Clock;
  newId?: IdGenerator;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to SMTP when `config.smtpUrl` is set, else the outbox in DATA_DIR. */
  mailer?: Mailer;
  /** Defaults to the synthesiser SPEECH_ENGINE names; null: replies without speech. */
  speech?: SpeechSynthesizer | null;
  /** Stores to use instead of those the storage decides (`createBlobStores`), by kind. */
  blobs?: Partial<BlobStores>;
  /** Defaults to the transcriber TRANSCRIBE_ENGINE names; null: voice notes refused. */
  transcriber?: Transcriber | null;
}

export interface AlmaApp {
  app: FastifyInstance;
  io: AlmaServer;
  chat: SubmitService;
  account: AccountService;
  audio: AudioService;
  voices: VoicesService;
  /** The dependency monitor (scale-out adds checks) and what this server can do (SPEC.md H-3). */
  health: { monitor: HealthMonitor; capabilities: Capability[] };
  /** Starts the engines' workers and resolves once they are warm (SPEC.md S-12); idempotent. */
  startEngines: () => Promise<void>;
}

/**
 * Builds the whole server without listening: Fastify, socket.io on the same HTTP server, and the
 * modules, registered explicitly so the dependency graph reads here. Closing the app finishes
 * or aborts replies in flight (within SHUTDOWN_GRACE_MS) and disconnects every socket; the
 * caller closes the storage it opened.
 */
export async function buildApp(deps: AppDeps): Promise<AlmaApp> {
  const { config, storage } = deps;
  const clock = deps.clock ?? systemClock;
  const newId = deps.newId ?? (() => uuidv7());
  const engine = deps.engine ?? createReplyEngine(config);
  const speech = deps.speech === undefined ? createSpeechSynthesizer(config) : deps.speech;
  // Users' files: under DATA_DIR, or in MongoDB's GridFS when the storage is MongoDB (M-8).
  const blobs = { ...createBlobStores(config.dataDir, storage), ...deps.blobs };
  const audioFiles = blobs.audio;
  const transcriber = deps.transcriber === undefined ? createTranscriber(config) : deps.transcriber;
  const engines = {
    reply: engine.name,
    speech: speech?.name ?? 'none',
    transcription: transcriber?.name ?? 'none',
  };

  const headersOfEveryAnswer = securityHeaders(config.appUrl);
  const app = Fastify({
    logger: deps.logger ?? serverLogger(config.logLevel),
    ...requestLogOptions,
    connectionTimeout: 30_000,
    keepAliveTimeout: 65_000,
    requestTimeout: 60_000,
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Answers these two give bypass the hooks: they add the security headers themselves (W-1).
    frameworkErrors: frameworkErrorHandler(headersOfEveryAnswer),
    clientErrorHandler: clientErrorHandler(headersOfEveryAnswer),
  });
  registerRequestId(app);

  // REDIS_URL: what instances share (rooms, limits, replies in flight); unset: this process only.
  const scale = await openScaleOut(config.redisUrl, app.log);
  // This process among instances: the owner of its replies, jobs and uploads arriving (M-5, M-7).
  const instanceId = newId();
  const { redis } = scale;
  // The synthesiser this app made (a pool of worker threads) ends with it; an injected one is its caller's.
  if (deps.speech === undefined && speech?.close) app.addHook('onClose', () => speech.close?.());
  app.addHook('onClose', () => scale.close());

  registerErrorHandler(app);
  await registerSecurity(app, {
    corsOrigins: config.corsOrigins,
    redis: scale.redis,
    appUrl: config.appUrl,
    allowedHosts: config.allowedHosts,
  });
  registerProtocolVersionCheck(app);
  const revocation = createMemoryRevocation({
    users: storage.users,
    refreshTokens: storage.refreshTokens,
    clock,
  });
  const ended = (claims: SessionClaims) => revocation.ended(claims);
  await app.register(authPlugin, {
    secret: config.jwtSecret,
    accessTokenTtlS: config.accessTokenTtlS,
    ended,
  });

  const startedAt = Date.now();
  // SPEC.md H-1, H-2: the database, and Redis when instances share one.
  const monitor = createHealthMonitor({
    checks: [{ name: 'database', run: () => storage.ping() }, ...scale.checks],
    intervalMs: config.healthCheckIntervalMs,
  });
  const capabilities = describeCapabilities({ engines, ffmpeg: await hasFfmpeg('ffmpeg') });
  const health = createHealthCheck({
    storage,
    monitor,
    engines,
    capabilities,
    startedAt,
    maxAgeMs: config.healthMaxAgeMs,
    // Read per request, once the services below exist.
    queues: { avatarJobs: () => avatarUploads.jobs(), voiceJobs: () => voiceUploads.jobs() },
  });
  const serverStatus = () => ({
    status: monitor.current().status,
    version: APP_VERSION,
    protocolVersion: PROTOCOL_VERSION,
    engines,
  });
  const sockets = createSocketServer(app.server, {
    corsOrigins: config.corsOrigins,
    eventRateLimit: config.socketEventRateLimit,
    recordDir: config.socketRecordDir,
    verifyAccessToken: (token) => app.verifyAccessToken(token),
    ended,
    status: serverStatus,
    log: app.log,
    adapter: scale.socketAdapter,
    hostAllowed: handshakeHostCheck(config),
  });
  const { io, addHandlers, endSessions } = sockets;
  // With REDIS_URL, reply events Redis lost in a restart go out again once it is back (M-1).
  const resend = scale.redis ? withReplyResend(sockets.publisher, scale.redis) : null;
  const publisher = resend?.publisher ?? sockets.publisher;

  const loginGuard = createLoginGuard({
    maxFailuresPerAccount: config.loginMaxFailuresPerAccount,
    maxFailuresPerAddress: config.loginMaxFailuresPerAddress,
    windowMs: config.loginLockWindowMin * 60_000,
    clock,
    // With Redis every instance counts the same failures (SPEC.md A-8, M-2).
    store: scale.redis ? createRedisLoginAttempts(scale.redis) : createMemoryLoginAttempts(),
    // Known devices outlive a restart and are shared by every instance on the database.
    knownDevices: storage.knownDevices,
    onStoreError: (err) => app.log.warn({ err }, 'login guard store unavailable: attempt not counted'),
  });
  revocation.onRevoked(endSessions);
  const auth = createAuthService({
    users: storage.users,
    refreshTokens: storage.refreshTokens,
    revocation,
    signAccessToken: (claims) => app.jwt.sign(claims),
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    refreshSecret: config.jwtSecret,
    refreshGraceMs: config.refreshReuseGraceS * 1000,
    newId,
    clock,
    loginGuard,
    adminEmails: config.adminEmails,
    onRegistered: (user) => account.sendVerification(user),
  });
  const mailer =
    deps.mailer ??
    createMailer(
      { smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, outboxDir: join(config.dataDir, 'outbox') },
      { log: app.log, clock, logLinks: !config.production },
    );
  const account = createAccountService({
    users: storage.users,
    revocation,
    oneTimeTokens: storage.oneTimeTokens,
    auth,
    mailer,
    appUrl: config.appUrl,
    resetTokenTtlMin: config.resetTokenTtlMin,
    verifyTokenTtlH: config.verifyTokenTtlH,
    loginGuard,
    clock,
    log: app.log,
  });
  const users = createUsersService({ users: storage.users, customAvatars: storage.customAvatars });
  // Custom voices (SPEC.md VU-1…VU-9): samples in their blob store; the slots of
  // uploads in progress counted in this process, or across instances in Redis (M-6).
  const slotsIn = (keyPrefix: string) =>
    scale.redis
      ? createRedisUploadSlots({
          redis: scale.redis,
          leaseMs: config.instanceLeaseMs,
          log: app.log,
          keyPrefix,
        })
      : createMemoryUploadSlots();
  const voiceSlots = slotsIn('alma:upload-slots:');
  const voiceUploads = createVoiceUploadsService({
    slots: voiceSlots,
    workers: config.voiceJobWorkers,
    instanceId,
    // With Redis any instance's workers analyse the samples (M-9).
    analysisQueue: redis
      ? (deps) => createRedisAnalysisQueue({ ...deps, redis, leaseMs: config.instanceLeaseMs, log: app.log })
      : undefined,
    users: storage.users,
    voices: storage.customVoices,
    blobs: blobs['custom-voices'],
    // Avatars share the plan's total storage with voices (spec §3).
    otherStorageBytes: async (userId) => (await storage.customAvatars.usage(userId)).bytes,
    // Called per upload, after avatarUploads below exists; counts avatar checks in flight too.
    otherProcessingUploads: async (userId) => (await avatarUploads.usage(userId)).processing,
    newId,
    clock,
    log: app.log,
  });
  // Custom avatars (SPEC.md AU-1…AU-9): uploads, models and portraits in their blob store; uploads
  // arriving and jobs' working copies in this instance's folder under DATA_DIR/custom-avatars.
  const avatarUploads = createAvatarUploadsService({
    avatars: storage.customAvatars,
    users: storage.users,
    files: blobs['custom-avatars'],
    incomingRoot: join(config.dataDir, 'custom-avatars', 'incoming'),
    publisher,
    newId,
    clock,
    log: app.log,
    workers: config.avatarWorkers,
    instanceId,
    // With Redis any instance's workers take the jobs, and claims count on every instance (M-6, M-7).
    board: redis
      ? (deps) =>
          createRedisJobBoard({
            ...deps,
            redis,
            leaseMs: config.instanceLeaseMs,
            workers: config.avatarWorkers,
            log: app.log,
          })
      : undefined,
    slotSets: { avatars: slotsIn('alma:avatar-slots:'), processing: slotsIn('alma:avatar-claims:') },
    otherStorageBytes: async (userId) => (await voiceUploads.usage(userId)).voiceStorageBytes,
    otherProcessingUploads: async (userId) => (await voiceUploads.usage(userId)).currentProcessingUploads,
  });
  const plans = createPlansService({
    users: storage.users,
    usage: storage.usage,
    publisher,
    clock,
    freeMessagesPerMonth: config.freeMessagesPerMonth,
    uploads: async (userId) => {
      const [voicesUsed, avatarsUsed] = await Promise.all([
        voiceUploads.usage(userId),
        avatarUploads.usage(userId),
      ]);
      return {
        ...NO_UPLOADS,
        ...voicesUsed,
        customAvatars: avatarsUsed.count,
        avatarStorageBytes: avatarsUsed.bytes,
        currentProcessingUploads: voicesUsed.currentProcessingUploads + avatarsUsed.processing,
      };
    },
  });
  const payments = createPaymentsService({ users: storage.users, clock });
  // The chat (ARCHITECTURE §3): replies in flight and session locks — in this process, or shared
  // by instances through Redis (SPEC.md M-5); sessions; `submit`, the one way in for a message,
  // which runs each reply with its speech.
  const replies = scale.redis
    ? await createRedisReplyRegistry({
        redis: scale.redis,
        instanceId,
        leaseMs: config.instanceLeaseMs,
        finishOrphan: createOrphanFinisher({
          messages: storage.messages,
          sessions: storage.sessions,
          publisher,
        }),
        leases: storage.messages,
        log: app.log,
      })
    : createMemoryReplyRegistry();
  const chatSessions = createSessionsService({
    sessions: storage.sessions,
    messages: storage.messages,
    publisher,
    replies,
    newId,
    clock,
  });
  const chat = createSubmitService({
    sessions: storage.sessions,
    messages: storage.messages,
    sends: storage.sends,
    synced: () => storage.synced(),
    readTogether: (reads) => storage.readTogether(reads),
    chatSessions,
    replies,
    engine,
    publisher,
    quota: plans.quota,
    newId,
    clock,
    log: app.log,
    speech: speech ? createSpeechPipeline({ synthesizer: speech, audioFiles, log: app.log }) : null,
    defaultVoiceId: async (id) => (await storage.users.getPreferences(id))?.defaultVoiceId ?? null,
    preferredLanguage: async (id) => (await storage.users.findById(id))?.language ?? null,
    customVoice: (userId, voiceId) => voiceUploads.speechOf(userId, voiceId),
  });
  const voiceNotes = createVoiceNotesService({
    chat,
    messages: storage.messages,
    transcriber,
    audioFiles,
    voice: plans.voice,
    publisher,
    newId,
    log: app.log,
  });
  const audio = createAudioService({
    files: audioFiles,
    messages: storage.messages,
    clock,
    log: app.log,
    retentionDays: config.speechRetentionDays,
  });
  // Previews are of builtin voices (V-5): the reply synthesiser when it is the builtin one.
  const voices = createVoicesService({
    preferences: storage.users,
    synthesizer: speech?.name === 'builtin' ? speech : createBuiltinSynthesizer(),
    previewDir: join(config.dataDir, 'system-voices'),
    customVoices: {
      list: (userId) => voiceUploads.list(userId),
      find: (userId, id) => voiceUploads.find(userId, id),
    },
  });
  // System avatars (AV-1…AV-7): the forge's models and their portraits, made on first request
  // into DATA_DIR/models — on each instance's own disk: the same forge makes the same bytes (M-8).
  const models = createModelStore(join(config.dataDir, 'models'), forgeInWorker);
  const avatars = createAvatarsService({
    models,
    portraits: createPortraitStore(join(config.dataDir, 'models'), models, portraitInWorker),
  });
  const oauth = createOAuthService({
    clients: createOAuthClients(config.oauth),
    users: storage.users,
    identities: storage.identities,
    revocation,
    startSession: (user) => auth.startSession(user),
    appUrl: config.appUrl,
    adminEmails: config.adminEmails,
    newId,
    clock,
    flows: scale.redis ? createRedisFlowStore({ redis: scale.redis, clock }) : undefined,
  });

  registerHealthRoutes(app, health);
  registerAuthRoutes(app, { auth, rateLimitMax: config.authRateLimitMax });
  registerAccountRoutes(app, { account, rateLimitMax: config.authRateLimitMax });
  registerUsersRoutes(app, { users });
  registerChatRoutes(app, { chat, sessions: chatSessions });
  registerAudioRoutes(app, { audio });
  await registerVoiceNoteRoutes(app, { voiceNotes, publisher });
  registerVoicesRoutes(app, { voices });
  registerAvatarsRoutes(app, { avatars });
  await registerVoiceUploadRoutes(app, { voiceUploads });
  await registerAvatarUploadRoutes(app, { avatarUploads });
  registerOAuthRoutes(app, {
    oauth,
    rateLimitMax: config.authRateLimitMax,
    secureCookie: config.appUrl.startsWith('https:'),
  });
  registerPlansRoutes(app, { plans });
  registerPaymentRoutes(app, { payments });
  addHandlers(chatSocketHandlers({ chat, sessions: chatSessions, replies, voiceNotes }));
  await registerClient(app, config.clientDist);
  const stopRetention = audio.startRetention(config.audioCleanupIntervalMin);

  await avatarUploads.recover();
  await voiceUploads.start();
  // Every connected client hears of a status change at once (SPEC.md H-2), not only on connect.
  // Each instance reports its own health to its own sockets (local: not through the adapter).
  monitor.onChange(() => io.local.emit(ServerEvent.serverStatus, serverStatus()));
  monitor.start();
  app.addHook('preClose', async () => {
    monitor.stop();
    stopRetention();
    await avatarUploads.close();
    await voiceUploads.close();
    await replies.drain(config.shutdownGraceMs);
    await account.idle();
    // Each connection is closed after its buffered events (the replies just finished) drain —
    // engine.close() alone would discard them. No "disconnect" packet is sent, so clients see a
    // transport close and reconnect by themselves to the restarted server.
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
    const deadline = Date.now() + 1000;
    while (io.engine.clientsCount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    io.engine.close();
    // The Redis streams adapter's readers and heartbeat stop here (a no-op in memory).
    await io.of('/').adapter.close();
  });
  app.addHook('onClose', async () => {
    await transcriber?.close?.();
    voiceSlots.close();
    resend?.close();
  });

  const startEngines = async () => {
    await speech?.start?.();
  };
  return { app, io, chat, account, audio, voices, health: { monitor, capabilities }, startEngines };
}
