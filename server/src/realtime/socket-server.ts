import {
  CONNECTION_RECOVERY_MS,
  errorMessage,
  HandshakeAuthSchema,
  SessionEndCodeSchema,
  PROTOCOL_VERSION,
  versionMismatch,
  ServerEvent,
  clientEvents,
  type Ack,
  type ClientEventName,
  type ClientPayloadParsed,
  type ClientResult,
  type ClientToServerEvents,
  type ErrorBody,
  type Language,
  type ServerToClientEvents,
  type SessionEndCode,
} from '@alma/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import { z } from 'zod';
import { AppError, isAppError } from '../lib/app-error.ts';
import { languageFromHeader } from '../lib/language.ts';
import { fieldErrors } from '../lib/validation.ts';
import type { RevocationEvent, SessionClaims } from '../modules/auth/revocation.ts';
import { isAllowedOrigin } from '../plugins/security.ts';
import { type Publisher, roomTargets, sessionRoom, userRoom } from './publisher.ts';
import { corkTransportBatches } from './cork-batches.ts';
import { createSocketRecorder } from './recorder.ts';

export interface SocketData {
  userId: string;
  language: Language;
  /** The sign-in (refresh-token family) whose access token opened the socket (SPEC.md A-12). */
  familyId: string;
}

/** Between instances (REDIS_URL): a revocation made on one reaches every instance's sockets. */
export interface InstanceEvents {
  [SESSIONS_END]: (event: RevocationEvent) => void;
}
const SESSIONS_END = 'sessions:end';

export type AlmaServer = Server<ClientToServerEvents, ServerToClientEvents, InstanceEvents, SocketData>;
export type AlmaSocket = Socket<ClientToServerEvents, ServerToClientEvents, InstanceEvents, SocketData>;

export interface HandlerContext {
  socket: AlmaSocket;
  userId: string;
  language: Language;
  /** Resolves right after the handler's ack has been emitted, whether it succeeded or not. */
  acked: Promise<void>;
}

type Handler<E extends ClientEventName> = (
  payload: ClientPayloadParsed<E>,
  ctx: HandlerContext,
) => Promise<ClientResult<E>>;

export type On = <E extends ClientEventName>(event: E, handler: Handler<E>) => void;
/** A module's socket handlers, registered through the one wrapper below. */
export type SocketHandlers = (on: On) => void;

export interface SocketServerOptions {
  corsOrigins: string[];
  eventRateLimit: number;
  recordDir: string | undefined;
  verifyAccessToken: (token: string) => SessionClaims;
  /** Why the token's session ended, or null while it stands (revocation, SPEC.md A-12). */
  ended: (claims: SessionClaims) => Promise<SessionEndCode | null>;
  status: () => Parameters<ServerToClientEvents['server:status']>[0];
  log: FastifyBaseLogger;
  /** Whether the handshake's Host names this app (SPEC.md W-5); absent: every Host. */
  hostAllowed?: (req: IncomingMessage) => boolean;
  /** Rooms across instances (REDIS_URL: the Redis streams adapter); unset: this process's rooms. */
  adapter?: ServerOptions['adapter'];
}

const RATE_WINDOW_MS = 10_000;
/** Stands for a payload that is not exactly one argument; no schema accepts it. */
const INVALID = Symbol('invalid arguments');

/**
 * socket.io on the Fastify server (SPEC.md P-1…P-5): origin, token and protocol version are
 * checked on every handshake, reconnects included (recovery does not skip middlewares); every
 * payload is validated; handlers never throw; each socket is rate limited.
 */
export function createSocketServer(
  httpServer: HttpServer,
  opts: SocketServerOptions,
): {
  io: AlmaServer;
  publisher: Publisher;
  addHandlers: (handlers: SocketHandlers) => void;
  endSessions: (event: RevocationEvent) => void;
} {
  const handlers: SocketHandlers[] = [];
  const io: AlmaServer = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    maxHttpBufferSize: 12 * 1024 * 1024, // a voice note (10 MB) plus framing
    cors: { origin: opts.corsOrigins, credentials: true },
    connectionStateRecovery: { maxDisconnectionDuration: CONNECTION_RECOVERY_MS, skipMiddlewares: false },
    ...(opts.adapter ? { adapter: opts.adapter } : {}),
    allowRequest: (req, callback) => {
      if (opts.hostAllowed && !opts.hostAllowed(req)) return callback('misdirected_request', false);
      const ok = isAllowedOrigin(req.headers.origin, req.headers.host, opts.corsOrigins);
      callback(ok ? null : 'origin_not_allowed', ok);
    },
  });

  corkTransportBatches(io);

  io.use((socket, next) => {
    const language = languageFromHeader(socket.handshake.headers['accept-language']);
    const refuse = (code: ErrorBody['code']) => {
      const error = new Error(code) as Error & { data: ErrorBody };
      error.data = { code, message: errorMessage(language, code) };
      next(error);
    };
    const auth = HandshakeAuthSchema.safeParse(socket.handshake.auth);
    if (!auth.success) return refuse('unauthorized');
    const mismatch = versionMismatch(auth.data.protocolVersion, PROTOCOL_VERSION);
    if (mismatch) return refuse(mismatch);
    let claims: SessionClaims;
    try {
      claims = opts.verifyAccessToken(auth.data.token);
    } catch (error) {
      return refuse(isAppError(error) ? error.code : 'unauthorized');
    }
    if (socket.recovered && socket.data.userId !== claims.sub) return refuse('unauthorized');
    opts.ended(claims).then(
      (ended) => {
        if (ended !== null) return refuse(ended);
        socket.data.userId = claims.sub;
        socket.data.familyId = claims.sid;
        socket.data.language = language;
        next();
      },
      () => refuse('unavailable'),
    );
  });

  const recorder = opts.recordDir ? createSocketRecorder(opts.recordDir, opts.log) : undefined;

  io.on('connection', (socket) => {
    const { userId } = socket.data;
    if (!socket.recovered) void socket.join(userRoom(userId));
    const recording = recorder?.attach(socket);
    const bucket = { windowStart: Date.now(), count: 0 };

    const on: On = (event, handler) => {
      const schema = clientEvents[event].payload;
      // socket.io's typed `on` cannot see through the mapped event type; the wrapper restores it.
      (socket.on as (event: string, listener: (...args: unknown[]) => void) => void)(
        event,
        (...args: unknown[]) => {
          // One payload object, then the ack function (SPEC.md P-4): the ack is the last argument,
          // whatever came before it; anything but exactly one payload is invalid.
          const ack = typeof args.at(-1) === 'function' ? args.pop() : undefined;
          const payload = args.length === 1 ? args[0] : INVALID;
          const respond = (result: Ack<unknown>) => {
            recording?.ack(event, result);
            if (typeof ack === 'function') (ack as (result: Ack<unknown>) => void)(result);
          };
          const language = socket.data.language;
          const fail = (error: AppError) => {
            const body: ErrorBody = { code: error.code, message: errorMessage(language, error.code) };
            if (error.options.fields) body.errors = error.options.fields;
            if (error.options.retryAfterMs !== undefined) body.retryAfterMs = error.options.retryAfterMs;
            respond({ ok: false, error: body });
          };
          const now = Date.now();
          if (now - bucket.windowStart >= RATE_WINDOW_MS) {
            bucket.windowStart = now;
            bucket.count = 0;
          }
          if (++bucket.count > opts.eventRateLimit) {
            fail(new AppError('rate_limited', { retryAfterMs: bucket.windowStart + RATE_WINDOW_MS - now }));
            return;
          }
          const parsed = schema.safeParse(payload);
          if (!parsed.success) {
            fail(new AppError('invalid_payload', { fields: fieldErrors(parsed.error, language) }));
            return;
          }
          let ackLeft = () => {};
          const acked = new Promise<void>((resolve) => (ackLeft = resolve));
          handler(parsed.data as never, { socket, userId, language, acked })
            .then((data) => respond({ ok: true, data }))
            .catch((error: unknown) => {
              if (isAppError(error)) return fail(error);
              opts.log.error({ err: error, event }, 'socket handler failed');
              fail(new AppError('server_error'));
            })
            .finally(ackLeft);
        },
      );
    };
    for (const register of handlers) register(on);
    // Anything else the client emits (unknown events) is answered, never left hanging.
    socket.onAny((event: string, ...args: unknown[]) => {
      if (Object.hasOwn(clientEvents, event)) return;
      const ack = args.at(-1);
      if (typeof ack === 'function') {
        (ack as (r: Ack<never>) => void)({
          ok: false,
          error: { code: 'invalid_payload', message: errorMessage(socket.data.language, 'invalid_payload') },
        });
      }
    });
    socket.emit(ServerEvent.serverStatus, opts.status());
  });

  const toRoom = roomTargets((room) => io.to(room));
  const publisher: Publisher = {
    toSession(sessionId, event, payload, options) {
      const target = options?.exceptSocketId
        ? io.to(sessionRoom(sessionId)).except(options.exceptSocketId)
        : toRoom(sessionRoom(sessionId));
      (target.emit as (event: string, payload: unknown) => boolean)(event, payload);
    },
    toUser(userId, event, payload) {
      (toRoom(userRoom(userId)).emit as (event: string, payload: unknown) => boolean)(event, payload);
    },
  };
  // Another instance's revocation (SPEC.md A-12, M-1): end the sockets held here.
  io.on(SESSIONS_END, (event: unknown) => {
    const parsed = RevocationEventSchema.safeParse(event);
    if (parsed.success) endSessions(io, parsed.data);
    else opts.log.warn({ event }, 'sessions:end from another instance was not a revocation');
  });
  return {
    io,
    publisher,
    addHandlers: (h) => handlers.push(h),
    endSessions: (event) => {
      endSessions(io, event);
      // serverSideEmit reaches the other instances only; this process's adapter has no others.
      if (opts.adapter) io.serverSideEmit(SESSIONS_END, event);
    },
  };
}

const RevocationEventSchema = z.object({
  userId: z.string().min(1),
  code: SessionEndCodeSchema,
  familyId: z.string().optional(),
  exceptFamilyId: z.string().optional(),
});

/**
 * SPEC.md A-12: every open socket of an ended session held by this process is told why
 * (`auth:revoked`, in its language) and disconnected; socket.io does not reconnect after a server
 * disconnect. Other instances run the same on `sessions:end`.
 */
function endSessions(io: AlmaServer, event: RevocationEvent): void {
  const namespace = io.of('/');
  const ids = [...(namespace.adapter.rooms.get(userRoom(event.userId)) ?? [])];
  for (const socket of ids.map((id) => namespace.sockets.get(id))) {
    if (!socket) continue;
    const { familyId, language } = socket.data;
    if (event.familyId !== undefined && familyId !== event.familyId) continue;
    if (event.exceptFamilyId !== undefined && familyId === event.exceptFamilyId) continue;
    // Not `socket.emit`: with connection-state recovery it goes through the adapter, and Redis's
    // adapter delivers it only after storing it, when this socket is already gone. A local
    // emission is written at once, before the disconnect.
    io.local
      .to(socket.id)
      .emit(ServerEvent.authRevoked, { code: event.code, message: errorMessage(language, event.code) });
    socket.disconnect();
  }
}
