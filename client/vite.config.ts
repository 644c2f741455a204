import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The server (REST + socket.io) runs on :3000 and serves the built client; in dev Vite proxies to it. */
const SERVER = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/auth': SERVER,
      '/api': SERVER,
      '/chat': SERVER,
      '/message': SERVER,
      '/health': SERVER,
      '/socket.io': { target: SERVER, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
});
