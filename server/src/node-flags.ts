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
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
