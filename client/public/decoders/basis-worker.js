// The KTX2 (Basis) transcoder's worker (client/src/features/avatar/viewer/decoders.ts).
// Three.js builds the worker's code at run time — its Basis transcoder, an Emscripten/embind build
// that compiles its bindings with `new Function`, plus the worker body — into a blob: URL. A worker
// started from a blob: URL inherits the page's policy, which has no 'unsafe-eval', and the
// transcoder never starts. Started from this file, the worker runs under the policy our server sends
// with this file alone (server/src/plugins/security.ts): eval here, in a worker with no DOM and no
// network, and nowhere else. The first message names three.js's blob: script; it runs at once, so
// its own listener is in place for the 'init' message that follows.
/* global self, importScripts */
self.addEventListener('message', function load(event) {
  if (!event.data || event.data.type !== 'alma:script') return;
  self.removeEventListener('message', load);
  importScripts(event.data.url);
});
