# Alma in one container: the built client, REST and socket.io on port 3000, data under /data.
# docker-compose.yml runs it against MongoDB; without MONGODB_URI it uses the embedded SQLite
# database in /data.

FROM node:20-bookworm-slim AS base
# corepack can't verify registry signatures on every machine; npm installs pnpm directly.
RUN npm install --global pnpm@10 && pnpm --version
ENV CI=true
WORKDIR /app

# Manifests first, so dependency layers are reused while only sources change. Every workspace
# package's manifest is needed for a frozen install.
FROM base AS manifests
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY protocol/package.json protocol/
COPY server/package.json server/
COPY client/package.json client/
COPY tests/package.json tests/

# ── Build ────────────────────────────────────────────────────────────────────────────────────
FROM manifests AS build
RUN pnpm install --frozen-lockfile
COPY . .
# The same preparation as `npm start` (setup installs only when out of date, then prepares
# generated assets), then the client (Vite) and the server bundle (esbuild).
RUN node scripts/setup.mjs && pnpm run build

# ── The server's production dependencies only (the bundle leaves packages external) ─────────
FROM manifests AS prod-deps
RUN pnpm install --frozen-lockfile --prod --filter @alma/server

# ── Runtime ──────────────────────────────────────────────────────────────────────────────────
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# The optional engines' system packages (scripts/system-packages.mjs, `runtime: true`; a test keeps
# this line equal to that list): pocketsphinx + pocketsphinx-en-us for English transcription,
# ffmpeg for Safari's MP4/AAC voice notes and MP3/AAC voice uploads.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg pocketsphinx pocketsphinx-en-us \
 && rm -rf /var/lib/apt/lists/*
# pnpm's links are relative, so node_modules keeps working when copied to the same paths.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/server/node_modules ./server/node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/server/package.json ./server/
COPY --from=build /app/server/dist ./server/dist
# The server finds the client at ../../client/dist from server/dist (CLIENT_DIST overrides).
COPY --from=build /app/client/dist ./client/dist
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 here; the server handles SIGTERM (graceful shutdown within SHUTDOWN_GRACE_MS).
CMD ["node", "--max-semi-space-size=32", "--heap-growing-percent=100", "server/dist/server.js"]
