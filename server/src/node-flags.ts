/**
 * The flags Node runs the server with, wherever it is started: `npm start` (package.json), the
 * Dockerfile, the end-to-end and scale tests, the benchmarks (`node-flags.test.ts` checks the
 * first two say so).
 *
 * `--max-semi-space-size=32` (MiB; Node 20's default is 16): a bigger young generation, so a
 * burst of sends and replies is collected in fewer scavenges. Measured in the speech bench at 200
 * sessions (issue 14), nine runs alternated with and without it on the server: the main thread's
 * garbage collection 179–180 against 221–261 ms a level, its CPU ~0.7 ms a reply lower, text
 * lateness p99 104–131 against 112–175 ms (better in each pair). It costs up to 32 MiB more heap.
 *
 * `--heap-growing-percent=100`: the old generation grows to twice what survived the last full
 * collection before the next one starts. Under load V8 chose ~1.1–1.25×, so at 200 spoken
 * replies at once (speech bench, `--trace-gc`, 600 replies a level, 2026-11-30) the main isolate
 * marked its ~80–95 MB of live objects 7–9 times a level: 500–610 ms of pauses and incremental
 * steps on the event loop, and concurrent marking on V8's threads, which run at the main
 * thread's priority, not the speech workers' (S-9). With the flag: 3 full collections, 200–260
 * ms on the event loop, and V8's and libuv's threads 2.6–2.7 ms a reply against 4.0–4.7 ms (six
 * runs without, five with, alternated). At 50 sessions (three pairs) those threads took 4.6–5.2
 * against 8.3–10.0 ms a reply, and CPU and first audio were better in every pair (×1.04–1.19
 * against ×1.22–1.29 of direct; ×1.21–1.33 against ×1.40–1.67 of the limit). The heap committed
 * at 200 sessions peaked at 168 against 166 MB; the memory reducer still shrinks an idle heap.
 * Lateness moved less than the machine's noise between runs.
 */
export const SERVER_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=32',
  '--heap-growing-percent=100',
];
