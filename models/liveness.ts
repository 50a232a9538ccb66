/**
 * The passive liveness network: `fr_liveness.onnx` of `faceplugin-face-recognition-js@0.0.1`, taken
 * as is (already ONNX) with `npm pack` at build time (npm-source.ts: pinned sha256, kept in the
 * gitignored models/.sources/), copied to models/build/ with its own manifest,
 * `liveness-manifest.json` (package, version, licence, licence risk, sha256).
 *
 * It is kept apart from the face models (convert.ts) on purpose: the station must run without it.
 * A missing or refused file never fails the face build; src/liveness/passive then runs on its image
 * signals alone and says so in every result (`cnn: null`).
 *
 * Network (checked in test/liveness/passive/model-fidelity.test.ts and src/liveness/passive/README.md):
 * a MiniFASNetV1SE-shaped net (Silent-Face-Anti-Spoofing, minivision-ai), input `input` [1,3,128,128]
 * raw 0..255 **BGR** planes of the Silent-Face crop (2.7x the face box, squared by the image edges),
 * output `output` [1,3] logits: softmax -> [real, 2D spoof, 3D spoof].
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readNpmFile, type NpmFileSource } from './npm-source.js';

export const LIVENESS_MODEL_FILE = 'liveness_minifasnet_128.onnx';
export const LIVENESS_MANIFEST_FILE = 'liveness-manifest.json';

export const LIVENESS_SOURCE: NpmFileSource = {
  package: 'faceplugin-face-recognition-js',
  version: '0.0.1',
  license: 'MIT',
  file: 'model/fr_liveness.onnx',
  sha256: 'afa783b7e902fdfcf323a7240cac2a1c580c25314ea4161129dc1b0d100dc32d',
};

/** Written into the manifest: what is known of the weights' licence, and why it is a risk. */
export const LIVENESS_LICENSE_RISK =
  'package.json declares MIT, but the package LICENSE is a generic MIT template (copyright "2021 gitguanqi", not Faceplugin); ' +
  'the file is a bare PyTorch export (no names, no metadata) whose architecture is Silent-Face-Anti-Spoofing\'s MiniFASNet ' +
  '(Apache-2.0, minivision-ai) with 3 SE blocks, at 128x128 where Silent-Face ships 80x80 weights: origin of the weights and of ' +
  'their training data unknown. Settle before shipping; the station runs without this file (image signals only).';

export interface LivenessManifest {
  id: string;
  file: string;
  sha256: string;
  bytes: number;
  builtAt: string;
  source: { package: string; version: string; license: string; licenseRisk: string; files: Array<{ path: string; sha256: string }> };
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Path of the liveness network in `dir` when present and matching the pinned sha256, else null. */
export function livenessModelPath(dir: string): string | null {
  const file = path.join(dir, LIVENESS_MODEL_FILE);
  if (!existsSync(file)) return null;
  return sha256(readFileSync(file)) === LIVENESS_SOURCE.sha256 ? file : null;
}

/**
 * Copies the network into `dir` (from models/.sources, or via `npm pack` when `fetch`) and writes
 * its manifest. Never throws: a failure is logged and null returned (the engine runs without it).
 */
export function buildLivenessModel(dir: string, fetch: boolean, log: (s: string) => void = () => {}): LivenessManifest | null {
  try {
    if (livenessModelPath(dir) && existsSync(path.join(dir, LIVENESS_MANIFEST_FILE))) {
      log(`liveness model up to date in ${dir}`);
      return JSON.parse(readFileSync(path.join(dir, LIVENESS_MANIFEST_FILE), 'utf8')) as LivenessManifest;
    }
    const bytes = readNpmFile(LIVENESS_SOURCE, fetch);
    mkdirSync(dir, { recursive: true });
    const target = path.join(dir, LIVENESS_MODEL_FILE);
    writeFileSync(`${target}.${process.pid}.tmp`, bytes);
    renameSync(`${target}.${process.pid}.tmp`, target);
    const s = LIVENESS_SOURCE;
    const manifest: LivenessManifest = {
      id: 'liveness_minifasnet_128',
      file: LIVENESS_MODEL_FILE,
      sha256: sha256(bytes),
      bytes: bytes.length,
      builtAt: new Date().toISOString(),
      source: { package: s.package, version: s.version, license: s.license, licenseRisk: LIVENESS_LICENSE_RISK, files: [{ path: s.file, sha256: s.sha256 }] },
    };
    const m = path.join(dir, LIVENESS_MANIFEST_FILE);
    writeFileSync(`${m}.${process.pid}.tmp`, JSON.stringify(manifest, null, 2) + '\n');
    renameSync(`${m}.${process.pid}.tmp`, m);
    log(`built ${LIVENESS_MODEL_FILE} (${(bytes.length / 1e6).toFixed(2)} MB) from ${s.package}@${s.version} (licence risk recorded)`);
    return manifest;
  } catch (e) {
    log(`liveness model not built (the station runs on image signals only): ${(e as Error).message}`);
    return null;
  }
}
