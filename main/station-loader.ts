import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StartStation } from './types.js';

/**
 * Loads src/station.ts from the TypeScript sources under `root` through tsx (exactly as
 * `npm start` runs it) and adapts it to the kiosk's StartStation: the full station configuration
 * comes from loadConfig (env, BIOSTATION_CONFIG file, defaults) with the kiosk's loopback host,
 * port and data folder, and the built UI (`<root>/renderer/dist`) on top.
 */
export async function loadStationFromSources(root: string, env: NodeJS.ProcessEnv = process.env): Promise<StartStation> {
  const { register } = await import('tsx/esm/api');
  register();
  const station = (await import(pathToFileURL(path.join(root, 'src/station.ts')).href)) as typeof import('../src/station.js');
  const config = (await import(pathToFileURL(path.join(root, 'src/runtime/config.ts')).href)) as typeof import('../src/runtime/config.js');
  return (kiosk) => station.startStation(config.loadConfig(env, { ...kiosk, uiDir: path.join(root, 'renderer/dist') }, root));
}
