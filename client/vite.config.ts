import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The server (REST + socket.io) runs on :3000 and serves the built client; in dev Vite proxies to it. */
const SERVER = 'http://localhost:3000';

/**
 * `/chat` and `/auth/callback` are both API prefixes and app pages: a page load (the browser asks
 * for HTML) gets the app, a fetch gets the server.
 */
const api = {
  target: SERVER,
  bypass: (req: { headers: Record<string, string | string[] | undefined> }) => {
    const accept = req.headers.accept;
    return typeof accept === 'string' && accept.includes('text/html') ? '/index.html' : undefined;
  },
};

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/auth': api,
      '/api': api,
      '/chat': api,
      '/message': api,
      '/health': api,
      // The 3D models (ARCHITECTURE §6): system avatars and the default model.
      '/models': SERVER,
      '/model.glb': SERVER,
      '/socket.io': { target: SERVER, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
});
