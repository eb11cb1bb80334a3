/**
 * The bench-only pages (bench/*.html) and their workers, built into
 * dist-bench/ by `npm run bench`: apart from the app's build, so nothing of
 * them reaches the bundle the user loads.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: resolve(import.meta.dirname, 'bench'),
  worker: { format: 'es' },
  logLevel: 'warn',
  build: {
    target: 'es2022',
    // The bench's CPU profiles map minified positions back to the source.
    sourcemap: true,
    outDir: resolve(import.meta.dirname, 'dist-bench'),
    emptyOutDir: true,
    rollupOptions: {
      input: {
        'worker-roundtrip': resolve(import.meta.dirname, 'bench/worker-roundtrip.html'),
        'schedule-floor': resolve(import.meta.dirname, 'bench/schedule-floor.html'),
      },
    },
  },
});
