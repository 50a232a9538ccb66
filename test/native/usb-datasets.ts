import { existsSync } from 'node:fs';
import path from 'node:path';

/** The recorded USB sessions ($BIOSTATION_DATASETS/usb-captures); tests skip when absent. */
export const capturesRoot = path.join(process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets'), 'usb-captures');
export const haveCaptures = existsSync(path.join(capturesRoot, 'PROTOCOLS.md'));
if (!haveCaptures) console.warn(`native tests: ${capturesRoot} not found; replay tests are skipped (set BIOSTATION_DATASETS)`);

export const captureDir = (device: string) => path.join(capturesRoot, device);
