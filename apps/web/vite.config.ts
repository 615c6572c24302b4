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
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|packages[\\/]domain[\\/]src[\\/](enums|statuses|terminal-actions|reports|navigation|access|permissions|reports[\\/]filters|reports[\\/]filter-keys)\.ts$|apps[\\/]web[\\/]src[\\/](platform[\\/]api[\\/]apiClient|platform[\\/]auth[\\/]useCan|shared[\\/]errors)\.tsx?$/,
            },
            {
              // Right after sign-in, in one file: the session's data code, the dashboard's
              // calls and its counters' list (their requests go out before the frame's files;
              // issues 19 and 35 load speed). The sign-in page asks for it before the click.
              name: 'session',
              test: /apps[\\/]web[\\/]src[\\/](platform[\\/]auth[\\/]sessionData|features[\\/]dashboard[\\/](dashboardQueries|counters|counterIcons))\.ts$/,
              // Only these: their imports (the contract's parts) are shared with every screen.
              includeDependenciesRecursively: false,
            },
            {
              // The antd components of the signed-in frame and the dashboard (with what they
              // import) in one file instead of some forty: on a slow link each file waits its
              // turn for one of the browser's six connections (issue 19 load speed;
              // docs/operations.md "Console files"). Other screens find them loaded.
              name: 'signed-in',
              test: /node_modules[\\/]antd[\\/]es[\\/](layout|menu|drawer|button|badge|tooltip|space|card|grid|row|col|statistic|segmented|skeleton|typography|tag|config-provider|app|message|notification|theme|locale|empty|alert|spin)[\\/]/,
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
