import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The capture library as a standalone ES module: renderer/dist/capture/biostation-capture.js. */
export default defineConfig({
  build: {
    outDir: path.join(here, '../dist/capture'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    lib: { entry: path.join(here, 'index.ts'), formats: ['es'], fileName: () => 'biostation-capture.js' },
  },
});
