/**
 * Electron entry (`electron main/dist/main/main.js`). Wires the real electron module, the station
 * service (src/station.ts, loaded through tsx exactly as `npm start` runs it) and the readers
 * (USB readers, replayed recordings and virtual readers: native/providers-from-env.ts) into runKiosk.
 */
import * as electron from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readerProvidersFromEnv } from '../native/providers-from-env.js';
import { ReaderManager } from '../native/reader-manager.js';
import type { ElectronLike } from './electron-like.js';
import { runKiosk } from './kiosk-app.js';
import { loadStationFromSources } from './station-loader.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository (or packaged app) root: main/dist/main/main.js -> ../../.. */
const root = path.resolve(here, '../../..');

const providers = await readerProvidersFromEnv(process.env, { log: (message) => console.log(`[kiosk] ${message}`) });
const electronModule: ElectronLike = electron;

await runKiosk({
  electron: electronModule,
  loadStation: () => loadStationFromSources(root),
  readers: new ReaderManager({ providers }),
  preloadPath: path.join(here, 'preload.cjs'),
  env: process.env,
  onSignal: (signal, handler) => process.on(signal, handler),
  supervisor: { probePath: '/health' },
  log: (message) => console.log(`[kiosk] ${message}`),
});
