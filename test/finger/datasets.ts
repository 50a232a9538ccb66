import { existsSync } from 'node:fs';
import path from 'node:path';

/** Shared datasets root ($BIOSTATION_DATASETS or ../shared/datasets); tests skip when absent. */
export const datasetsRoot = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
export const fvcDir = (db: string) => path.join(datasetsRoot, 'fvc', db);
export const sourceAfisDir = path.join(datasetsRoot, 'fingerprint-templates', 'sourceafis-3.18.1');
export const hasFvc = existsSync(fvcDir('fvc2002/DB1_B'));
export const hasSourceAfis = existsSync(sourceAfisDir);
if (!hasFvc || !hasSourceAfis) {
  console.warn(`finger tests: datasets not found under ${datasetsRoot}; dataset-based tests are skipped (set BIOSTATION_DATASETS)`);
}
