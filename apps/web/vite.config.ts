import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Console build. The dev server proxies /api (HTTP and the /api/live
 * WebSocket) to the API server; `vite build` writes dist/, which the server
 * serves at / when it exists.
 */
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What the sign-in page needs from these shared modules, in one
              // file rather than a request each (every answer carries about
              // 1 KB of headers): docs/operations.md "Console files".
              name: 'first-load',
              test: /packages[\\/]domain[\\/]src[\\/](enums|statuses|terminal-actions|reports|navigation|access|permissions|reports[\\/]filters|reports[\\/]filter-keys)\.ts$|apps[\\/]web[\\/]src[\\/](app[\\/]api[\\/]apiClient|app[\\/]auth[\\/]useCan|shared[\\/]errors)\.tsx?$/,
            },
          ],
        },
      },
      treeshake: {
        // @venue/domain is plain declarations; saying so lets the first load
        // skip hebcal, libphonenumber and zod until a screen needs them.
        moduleSideEffects: (id: string) => !/packages[\\/]domain[\\/]src[\\/]/.test(id),
      },
    },
  },
});
