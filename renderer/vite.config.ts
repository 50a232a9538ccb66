import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const faceApiModels = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
const MODEL_FILES = [
  'tiny_face_detector_model-weights_manifest.json', 'tiny_face_detector_model.bin',
  'face_landmark_68_model-weights_manifest.json', 'face_landmark_68_model.bin',
];
/** TF.js's WebAssembly backend binaries (the version face-api bundles, 4.22.0), served under /models too. */
const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
const WASM_FILES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];

/** Ships the tiny face detector weights (from the face-api npm package) under /models. */
function faceModels(): Plugin {
  return {
    name: 'biostation-face-models',
    generateBundle() {
      for (const name of MODEL_FILES) this.emitFile({ type: 'asset', fileName: `models/${name}`, source: readFileSync(path.join(faceApiModels, name)) });
      for (const name of WASM_FILES) this.emitFile({ type: 'asset', fileName: `models/${name}`, source: readFileSync(path.join(wasmDir, name)) });
    },
    configureServer(server) {
      server.middlewares.use('/models', (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '');
        if (WASM_FILES.includes(name)) {
          res.setHeader('Content-Type', 'application/wasm');
          return res.end(readFileSync(path.join(wasmDir, name)));
        }
        if (!MODEL_FILES.includes(name)) return next();
        res.end(readFileSync(path.join(faceApiModels, name)));
      });
    },
  };
}

/** The same Content-Security-Policy as the Electron kiosk, as a meta tag in the built page (headless). */
function cspMeta(): Plugin {
  const csp = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob: mediastream:",
    "connect-src 'self' http://127.0.0.1:* http://localhost:*",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  return {
    name: 'biostation-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: csp }, injectTo: 'head-prepend' }],
  };
}

/** The kiosk UI: renderer/ -> renderer/dist, served by the station at `/`. */
export default defineConfig({
  root: here,
  base: './',
  plugins: [react(), faceModels(), cspMeta()],
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    target: 'es2022',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/health': 'http://127.0.0.1:8080', '/ready': 'http://127.0.0.1:8080' },
  },
});
