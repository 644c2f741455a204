import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHARACTERS } from './characters/index.ts';
import { modelVersion } from './forge.ts';
import { createModelStore } from './model-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'alma-forge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('AV-3 models made on first request', () => {
  it('concurrent first requests forge one model, written with its version', async () => {
    const store = createModelStore(dir);
    const [a, b, c] = await Promise.all([store.get('robot'), store.get('robot'), store.get('robot')]);
    expect(store.forgedCount).toBe(1);
    expect(a?.data).toBe(b?.data);
    expect(c?.version).toBe(modelVersion(CHARACTERS.robot!));
  }, 120_000);

  it('a new process reads the file; an outdated version is forged again', async () => {
    const fresh = createModelStore(dir);
    const first = await fresh.get('robot');
    expect(fresh.forgedCount).toBe(0);
    expect(first?.data.byteLength).toBeGreaterThan(1000);

    writeFileSync(join(dir, 'robot.version'), 'stale\n');
    const later = createModelStore(dir);
    await later.get('robot');
    expect(later.forgedCount).toBe(1);
  }, 120_000);

  it('an id the forge does not make is null, and no file is touched', async () => {
    const store = createModelStore(dir);
    for (const id of ['nobody', '../robot', 'constructor', '__proto__'])
      expect(await store.get(id)).toBeNull();
  });
});
