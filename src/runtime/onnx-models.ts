/**
 * Loads the ONNX models the engines run, from the folder `npm run models` (models/build.ts, run by
 * postinstall) writes. The running station only reads that folder: it never imports the model build
 * code of models/ (TF.js and TFLite converters, npm pack), so a missing or damaged build is reported,
 * not rebuilt behind a request. Every file must be listed in the folder's manifest.json with the
 * sha256 the build recorded; a file that differs is refused (half-written or replaced by hand).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';

/** models/build of this checkout, where `npm run models` writes. */
export const DEFAULT_MODELS_DIR = fileURLToPath(new URL('../../models/build', import.meta.url));

/** The part of models/build/manifest.json the loader checks. */
interface BuiltModelManifest {
  models: Array<{ id: string; file: string; sha256: string }>;
}

export interface OnnxLoadOptions {
  /** Folder of the built models (default DEFAULT_MODELS_DIR). */
  modelsDir?: string;
  /** onnxruntime intra-op threads per session (default: onnxruntime's choice, all cores). */
  intraOpNumThreads?: number;
  /** Manifest file name inside the folder (default manifest.json). */
  manifest?: string;
}

/** Sequential execution, one inter-op thread, full graph optimisation. */
export function onnxSessionOptions(intraOpNumThreads?: number): ort.InferenceSession.SessionOptions {
  return {
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    interOpNumThreads: 1,
    ...(intraOpNumThreads ? { intraOpNumThreads } : {}),
  };
}

/**
 * Opens one session per named model file (`{ detector: 'tiny_face_detector.onnx', ... }`).
 * @throws Error naming the file when the manifest is missing, a file is not listed, missing or
 *   differs from its recorded sha256, or onnxruntime refuses it; the engines turn it into their
 *   ENGINE_UNAVAILABLE.
 */
export async function loadOnnxModels<K extends string>(files: Record<K, string>, options: OnnxLoadOptions = {}): Promise<Record<K, ort.InferenceSession>> {
  const dir = options.modelsDir ?? DEFAULT_MODELS_DIR;
  const manifestPath = path.join(dir, options.manifest ?? 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`no model build in ${dir} (run \`npm run models\`)`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BuiltModelManifest;
  const so = onnxSessionOptions(options.intraOpNumThreads);
  const entries = await Promise.all(
    (Object.entries(files) as Array<[K, string]>).map(async ([key, file]) => {
      const listed = manifest.models.find((m) => m.file === file);
      if (!listed) throw new Error(`${file} is not in ${manifestPath} (run \`npm run models\`)`);
      const full = path.join(dir, file);
      if (!existsSync(full)) throw new Error(`${full} is missing (run \`npm run models\`)`);
      const bytes = readFileSync(full);
      if (createHash('sha256').update(bytes).digest('hex') !== listed.sha256) throw new Error(`${full} differs from its build (run \`npm run models\`)`);
      return [key, await ort.InferenceSession.create(bytes, so)] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<K, ort.InferenceSession>;
}

/**
 * Path of a built model file when `dir` holds it and its manifest lists it with the same sha256, else null
 * (for optional models an engine can run without). The manifest is either the build's
 * `{ models: [{ file, sha256 }] }` or one `{ file, sha256 }` record (e.g. liveness-manifest.json).
 */
export function builtModelPath(file: string, options: Pick<OnnxLoadOptions, 'modelsDir' | 'manifest'> = {}): string | null {
  const dir = options.modelsDir ?? DEFAULT_MODELS_DIR;
  const full = path.join(dir, file);
  const manifestPath = path.join(dir, options.manifest ?? 'manifest.json');
  if (!existsSync(full) || !existsSync(manifestPath)) return null;
  let listed: { file: string; sha256: string } | undefined;
  try {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Partial<BuiltModelManifest> & { file?: string; sha256?: string };
    listed = m.models ? m.models.find((x) => x.file === file) : m.file === file && m.sha256 ? { file, sha256: m.sha256 } : undefined;
  } catch {
    return null;
  }
  if (!listed) return null;
  return createHash('sha256').update(readFileSync(full)).digest('hex') === listed.sha256 ? full : null;
}

/** A session from an in-memory model (small graphs the engines define themselves). */
export function onnxSessionFromBytes(model: Uint8Array, intraOpNumThreads?: number): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(model, onnxSessionOptions(intraOpNumThreads));
}
