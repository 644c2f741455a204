import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml checked structurally (there is no Docker engine where the tests run): mongo,
 * redis, a scalable app and an official-image proxy in front; every documented variable reaches
 * the app. And, where a Compose client is installed (`docker compose` or Debian's
 * `docker-compose`; neither needs an engine for this), `config -q` validates the file.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: string[];
  deploy?: { replicas?: unknown };
}
const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service> };
const { mongo, redis, app, proxy } = compose.services;

/** The README configuration table's variables. */
const documented = [...read('README.md').matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1] ?? '');
/** Fixed by the image (Dockerfile ENV, its layout) or for tests only: not passed through. */
const FIXED = ['PORT', 'HOST', 'DATA_DIR', 'CLIENT_DIST', 'CHROMIUM_PATH'];

describe('docker-compose.yml (Many instances)', () => {
  it('runs mongo, redis, the app and an official-image reverse proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'mongo', 'proxy', 'redis']);
    expect(mongo?.image).toMatch(/^mongo:/);
    expect(redis?.image).toMatch(/^redis:/);
    expect(proxy?.image).toMatch(/^caddy:/);
    expect(app?.build).toBe('.');
  });

  it('the app scales: no host port per replica, only the proxy is published', () => {
    expect(app?.ports).toBeUndefined();
    expect(app?.deploy?.replicas).toBeDefined();
    expect(proxy?.ports).toEqual(['${HTTP_PORT:-3000}:80']);
    expect(app?.depends_on).toMatchObject({
      mongo: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
  });

  it('the proxy balances every app replica (DNS of the `app` service, round robin, no stickiness)', () => {
    const mount = proxy?.volumes?.find((v) => v.endsWith(':/etc/caddy/Caddyfile:ro')) ?? '';
    const caddyfile = mount.split(':')[0] ?? '';
    expect(existsSync(join(root, caddyfile))).toBe(true);
    const text = read(caddyfile);
    expect(text).toMatch(/dynamic a \{\s*name app\s*port 3000/);
    expect(text).toMatch(/lb_policy round_robin/);
    expect(text).not.toMatch(/lb_policy (cookie|ip_hash|client_ip_hash)/);
  });

  it('the replicas share MongoDB and Redis, sit behind the proxy and get every documented variable', () => {
    const env = app?.environment ?? {};
    expect(env.MONGODB_URI).toBe('mongodb://mongo:27017');
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(env.TRUST_PROXY).toBe('true');
    expect(documented.length).toBeGreaterThan(50);
    const missing = documented.filter((name) => !FIXED.includes(name) && !(name in env));
    expect(missing).toEqual([]);
  });

  /** `docker compose` (the plugin) or `docker-compose`, whichever answers `version`; null: none. */
  const composeClient = (): string[] | null => {
    for (const command of [['docker', 'compose'], ['docker-compose']]) {
      const [bin = '', ...args] = command;
      if (spawnSync(bin, [...args, 'version'], { stdio: 'ignore' }).status === 0) return command;
    }
    return null;
  };
  const client = composeClient();
  it.skipIf(!client)(
    `validates with the Compose client's own \`config -q\`${client ? '' : ' (skipped: no `docker compose` or `docker-compose` here)'}`,
    () => {
      const [bin = '', ...args] = client ?? [];
      // Throws with Compose's message when the file is invalid; JWT_SECRET is required (`:?`).
      execFileSync(bin, [...args, 'config', '-q'], {
        cwd: root,
        env: { ...process.env, JWT_SECRET: 'compose-config-check-secret-of-32-characters' },
        stdio: 'pipe',
      });
    },
  );
});
