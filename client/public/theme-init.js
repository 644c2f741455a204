// Applies the stored theme before first paint so there is no flash of the wrong theme.
// A separate file (not inline) because the server's Content-Security-Policy allows only 'self'
// scripts. lib/theme.ts owns the same logic once the app is running; keep the two in step.
/* global window, document */
(function () {
  try {
    var stored = localStorage.getItem('theme');
    var light =
      stored === 'light' ||
      (stored === 'auto' && window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches);
    document.documentElement.setAttribute('data-theme', light ? 'light' : 'dark');
  } catch {
    // Storage blocked: keep the default dark theme.
  }
})();
