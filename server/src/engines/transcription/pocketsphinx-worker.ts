/**
 * The pocketsphinx decoder's thread (see pocketsphinx.ts). It runs as an `eval` worker, so it is
 * plain CommonJS source here: the server is bundled into one file (build.mjs) and tests run the
 * TypeScript sources, and neither can point a Worker at a compiled `.js` sibling. It only uses
 * `koffi` (its resolved path arrives in workerData) and the library's own functions.
 *
 * API: Debian 12's libpocketsphinx3 (0.8+5prealpha): `cmd_ln_parse_r(NULL, ps_args(), argc,
 * argv, strict)` builds the config, `ps_init(config)` the decoder; per note `ps_start_utt`,
 * `ps_process_raw(ps, int16*, n, no_search=0, full_utt=1)`, `ps_end_utt`, `ps_get_hyp`; then the
 * word segments (`ps_seg_iter(ps)`, `ps_seg_word`, `ps_seg_prob` → a posterior turned into a
 * probability by libsphinxbase's `logmath_exp`) for the confidence check in pocketsphinx.ts.
 * (pocketsphinx 5.x replaced cmd_ln_* with ps_config_*; it is refused by detectPocketsphinx.)
 *
 * Messages in: `{ id, pcm }` (an ArrayBuffer of Int16 samples, 16 kHz mono). Out: `{ type: 'ready', initMs }`
 * once, then `{ id, text, words: [{ word, p }], decodeMs }` or `{ id, error }` per note.
 */
export const POCKETSPHINX_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const koffi = require(workerData.koffi);
const started = Date.now();
const lib = koffi.load(workerData.library);
const base = koffi.load(workerData.base);
const ps_args = lib.func('void *ps_args()');
const cmd_ln_parse_r = lib.func(
  'void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)',
);
const ps_init = lib.func('void *ps_init(void *config)');
const ps_start_utt = lib.func('int ps_start_utt(void *ps)');
const ps_process_raw = lib.func(
  'int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)',
);
const ps_end_utt = lib.func('int ps_end_utt(void *ps)');
const ps_get_hyp = lib.func('const char *ps_get_hyp(void *ps, _Out_ int32_t *score)');
const ps_seg_iter = lib.func('void *ps_seg_iter(void *ps)');
const ps_seg_next = lib.func('void *ps_seg_next(void *seg)');
const ps_seg_word = lib.func('const char *ps_seg_word(void *seg)');
const ps_seg_prob = lib.func(
  'int32_t ps_seg_prob(void *seg, _Out_ int32_t *ascr, _Out_ int32_t *lscr, _Out_ int32_t *lback)',
);
const ps_get_logmath = lib.func('void *ps_get_logmath(void *ps)');
const logmath_exp = base.func('double logmath_exp(void *lmath, int32_t logb_p)');

const argv = [
  '-hmm', workerData.hmm,
  '-lm', workerData.lm,
  '-dict', workerData.dict,
  '-logfn', '/dev/null',
];
const config = cmd_ln_parse_r(null, ps_args(), argv.length, argv, 1);
if (!config) throw new Error('cmd_ln_parse_r refused the model paths');
const decoder = ps_init(config);
if (!decoder) throw new Error('ps_init failed (a missing or unreadable model file?)');
parentPort.postMessage({ type: 'ready', initMs: Date.now() - started });

parentPort.on('message', (message) => {
  const t0 = Date.now();
  try {
    const pcm = new Int16Array(message.pcm);
    if (ps_start_utt(decoder) < 0) throw new Error('ps_start_utt failed');
    if (ps_process_raw(decoder, pcm, pcm.length, 0, 1) < 0) throw new Error('ps_process_raw failed');
    if (ps_end_utt(decoder) < 0) throw new Error('ps_end_utt failed');
    const score = [0];
    const text = ps_get_hyp(decoder, score);
    const logmath = ps_get_logmath(decoder);
    const words = [];
    // ps_seg_next frees the iterator when it returns NULL at the end.
    for (let seg = ps_seg_iter(decoder); seg; seg = ps_seg_next(seg)) {
      const word = ps_seg_word(seg);
      const p = logmath_exp(logmath, ps_seg_prob(seg, [0], [0], [0]));
      words.push({ word: word || '', p });
    }
    parentPort.postMessage({ id: message.id, text: text || '', words, decodeMs: Date.now() - t0 });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String((error && error.message) || error) });
  }
});
`;
