import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

/**
 * The member app's build (issue 37; docs/members.md): its own entry m/index.html
 * and its own files under dist/m/, sharing no chunk with the console (it never
 * loads antd, the router or the console's catalogues). Run after the console's
 * build, which empties dist/ first.
 */
export default defineConfig({
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'm/assets',
    rolldownOptions: {
      input: { member: path.resolve(import.meta.dirname, 'm/index.html') },
      treeshake: {
        moduleSideEffects: (id: string) => !/packages[\\/]domain[\\/]src[\\/]/.test(id),
      },
    },
  },
});
