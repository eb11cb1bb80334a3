import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

export default defineConfig({
  plugins: [svelte()],
  // The app's version, written into every saved run file (`app.version`).
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  worker: { format: 'es' },
  // Discovered late (it is imported only by the worker), so list it up front:
  // otherwise the first `npm run dev` visit reloads once while Vite re-optimises.
  optimizeDeps: { include: ['@modelcontextprotocol/server', 'zod', 'xstate'] },
  build: {
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Everything the first screen imports in one chunk: left to itself the bundler splits
        // the modules shared with lazy chunks into many small files, which gzip worse and cost
        // the first load several KB (and requests).
        codeSplitting: { groups: [{ name: 'page', tags: ['$initial'] }] },
      },
    },
  },
  preview: { port: 4173, strictPort: true, host: '127.0.0.1' },
  server: { host: '127.0.0.1' },
});
