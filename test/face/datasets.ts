/** Where the shared datasets live for face tests (never copied into the repo). */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const DATASETS_DIR = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
export const LFW_DIR = path.join(DATASETS_DIR, 'lfw-dev');
export const LFW_IMAGES = path.join(LFW_DIR, 'images');
export const BBT_DIR = path.join(DATASETS_DIR, 'faces-misc', 'bbt-cast');
export const HAVE_LFW = existsSync(path.join(LFW_DIR, 'pairs.txt'));
export const HAVE_BBT = existsSync(BBT_DIR);

if (!HAVE_LFW) {
  console.warn(`[face tests] datasets not found at ${DATASETS_DIR} (set BIOSTATION_DATASETS); dataset tests are skipped`);
}

/** LFW image path for `Name`, 1-based index. */
export function lfwPath(name: string, index: number): string {
  return path.join(LFW_IMAGES, `${name}_${String(index).padStart(4, '0')}.jpg`);
}
