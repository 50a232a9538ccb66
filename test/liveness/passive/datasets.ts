/** Shared datasets for the passive liveness tests (never copied into the repo). */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const DATASETS_DIR = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
export const LFW_IMAGES = path.join(DATASETS_DIR, 'lfw-dev', 'images');
export const SPOOF_DIR = path.join(DATASETS_DIR, 'faces-misc', 'spoof-samples');
export const HAVE_DATA = existsSync(LFW_IMAGES) && existsSync(path.join(SPOOF_DIR, 'image_F1.jpg'));
if (!HAVE_DATA) console.warn(`[liveness tests] datasets not found at ${DATASETS_DIR} (set BIOSTATION_DATASETS); dataset tests are skipped`);
