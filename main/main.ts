/**
 * Electron entry (`electron main/dist/main/main.js`). Wires the real electron module, the station
 * service (src/station.ts, loaded through tsx exactly as `npm start` runs it) and the readers
 * (virtual readers from BIOSTATION_VIRTUAL_READER_DIR) into runKiosk.
 */
import * as electron from 'electron';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ReaderManager } from '../native/reader-manager.js';
import { virtualReaderProvider } from '../native/virtual-reader.js';
import type { ElectronLike } from './electron-like.js';
import { runKiosk } from './kiosk-app.js';
import type { StartStation } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository (or packaged app) root: main/dist/main/main.js -> ../../.. */
const root = path.resolve(here, '../../..');

/**
 * Loads src/station.ts through tsx and adapts it to the kiosk's StartStation: the full station
 * configuration comes from loadConfig (env, BIOSTATION_CONFIG file, defaults) with the kiosk's
 * loopback host, port and data folder and the built UI on top.
 */
async function loadStation(): Promise<StartStation> {
  const { register } = await import('tsx/esm/api');
  register();
  const station = (await import(pathToFileURL(path.join(root, 'src/station.ts')).href)) as typeof import('../src/station.js');
  const config = (await import(pathToFileURL(path.join(root, 'src/runtime/config.ts')).href)) as typeof import('../src/runtime/config.js');
  return (kiosk) =>
    station.startStation(config.loadConfig(process.env, { ...kiosk, uiDir: path.join(root, 'renderer/dist') }, root));
}

const providers = process.env.BIOSTATION_VIRTUAL_READER_DIR ? [virtualReaderProvider(process.env.BIOSTATION_VIRTUAL_READER_DIR)] : [];
const electronModule: ElectronLike = electron;

await runKiosk({
  electron: electronModule,
  loadStation,
  readers: new ReaderManager({ providers }),
  preloadPath: path.join(here, 'preload.cjs'),
  env: process.env,
  onSignal: (signal, handler) => process.on(signal, handler),
  supervisor: { probePath: '/health' },
  log: (message) => console.log(`[kiosk] ${message}`),
});
