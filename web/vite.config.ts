import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// The dashboard and chat pages, built into dist/web, which the bridge serves (src/surfaces/web/web-server.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [preact()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // One small bundle per page load; the pages are served by the bridge, not a CDN.
    chunkSizeWarningLimit: 1500,
  },
  logLevel: 'warn',
});
