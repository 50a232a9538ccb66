import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The capture library with captureLiveness, as one standalone ES module:
 * renderer/dist/capture/biostation-capture.js. It is a superset of renderer/capture/vite.config.ts's
 * build and replaces that file when run after it (npm run build:renderer). Not minified, so that
 * "one changed line" is a meaningful integrity test; the station accepts the SHA-256 of this file.
 */
export default defineConfig({
  build: {
    outDir: path.join(here, '../../dist/capture'),
    emptyOutDir: false,
    target: 'es2022',
    minify: false,
    chunkSizeWarningLimit: 2000,
    lib: { entry: path.join(here, 'index.ts'), formats: ['es'], fileName: () => 'biostation-capture.js' },
  },
});
