import { join, resolve } from 'node:path';
import { loadConfig } from '../../config.ts';
import { SIZE_BUDGET_BYTES } from './budget.ts';
import { CHARACTERS } from './characters/index.ts';
import { createModelStore } from './model-store.ts';
import { createPortraitStore } from '../portrait/store.ts';

/**
 * `npm run avatars:build [dataDir]`: forges every system avatar and the default model missing or
 * out of date in `<DATA_DIR>/models` (AV-3) — the same files the server makes on first request —
 * and prints the size budget table. Then each one's portrait for the picker (AV-7), beside it.
 */

const dataDir = process.argv[2] ? resolve(process.argv[2]) : loadConfig().dataDir;
const store = createModelStore(join(dataDir, 'models'));
const started = Date.now();
const rows: string[] = [];
let over = 0;
for (const id of Object.keys(CHARACTERS)) {
  const before = store.forgedCount;
  const t = Date.now();
  const model = await store.get(id);
  if (!model) continue;
  const size = model.data.byteLength;
  if (size > SIZE_BUDGET_BYTES) over++;
  const state = store.forgedCount > before ? `forged in ${Date.now() - t} ms` : 'up to date';
  rows.push(
    `  ${id.padEnd(10)} ${(size / 1024).toFixed(0).padStart(5)} KB  ${size > SIZE_BUDGET_BYTES ? 'OVER' : 'ok  '}  ${state}`,
  );
}
console.info(
  `avatars: ${Object.keys(CHARACTERS).length} models in ${store.dir} (budget ${SIZE_BUDGET_BYTES / 1024} KB each)`,
);
console.info(rows.join('\n'));
console.info(`avatars: done in ${Date.now() - started} ms`);
if (over > 0) console.warn(`avatars: ${over} model(s) over the size budget`);

// The portraits (AV-7; server/src/avatars/portrait), drawn from the models just made.
const portraits = createPortraitStore(store.dir, store);
for (const id of Object.keys(CHARACTERS)) {
  const portrait = await portraits.get(id);
  console.info(
    `  ${id.padEnd(10)} portrait ${portrait ? `${(portrait.data.byteLength / 1024).toFixed(1)} KB` : 'none'}`,
  );
}
console.info(`avatars: ${portraits.drawnCount} portrait(s) drawn`);
