import { join } from 'node:path';
import { loadConfig } from '../../config.ts';
import { createBuiltinSynthesizer } from '../../engines/speech/builtin.ts';
import { SYSTEM_VOICES } from './catalogue.ts';
import { createVoicesService } from './voices.service.ts';

/**
 * `pnpm run voices:previews`: generates every system voice preview missing from
 * DATA_DIR/system-voices (SPEC.md V-5), the same files the server makes on first request.
 */
const config = loadConfig();
const previewDir = join(config.dataDir, 'system-voices');
const voices = createVoicesService({
  preferences: { updatePreferences: () => Promise.resolve(null) },
  synthesizer: createBuiltinSynthesizer(),
  previewDir,
});
const started = Date.now();
const made = await voices.generateAll();
console.info(
  `voice previews: ${made} generated, ${SYSTEM_VOICES.length - made} already cached, in ${Date.now() - started} ms (${previewDir})`,
);
// The espeak worker keeps the event loop alive.
process.exit(0);
