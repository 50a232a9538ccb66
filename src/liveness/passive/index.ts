/**
 * Passive liveness entry point: loads the network when models/build holds it (built by
 * `npm run models`, never fetched at run time) and returns the engine; without it, the engine runs
 * on the image signals alone (`mode: 'signals'`).
 */
import * as ort from 'onnxruntime-node';
import { builtModelPath } from '../../runtime/onnx-models.js';
import { PassiveLivenessEngine, type PassiveLivenessTuning } from './engine.js';
import { DEFAULT_LIVENESS_TUNING } from './tuning.js';

export { PassiveLivenessEngine, PassiveLivenessQualityError, type PassiveLivenessResult, type CnnScores } from './engine.js';
export { DEFAULT_LIVENESS_TUNING } from './tuning.js';

export interface CreatePassiveLivenessOptions {
  modelsDir?: string;
  /** onnxruntime intra-op threads (default 1: the check is meant for one core). */
  intraOpNumThreads?: number;
  /** false: never load the network (signals only). */
  useNetwork?: boolean;
  tuning?: Partial<PassiveLivenessTuning>;
}

/** @throws Error when the network file is present but cannot be loaded. */
export async function createPassiveLivenessEngine(options: CreatePassiveLivenessOptions = {}): Promise<PassiveLivenessEngine> {
  // models/liveness.ts (build time) writes the network and liveness-manifest.json with its pinned sha256.
  const file = options.useNetwork === false ? null : builtModelPath('liveness_minifasnet_128.onnx', { modelsDir: options.modelsDir, manifest: 'liveness-manifest.json' });
  const session = file
    ? await ort.InferenceSession.create(file, { graphOptimizationLevel: 'all', executionMode: 'sequential', interOpNumThreads: 1, intraOpNumThreads: options.intraOpNumThreads ?? 1 })
    : null;
  return new PassiveLivenessEngine(session, { ...DEFAULT_LIVENESS_TUNING, ...options.tuning });
}
