/**
 * Passive liveness entry point: loads the network when models/build holds it (built by
 * `npm run models`, never fetched at run time) and returns the engine; without it, the engine runs
 * on the image signals alone (`mode: 'signals'`).
 */
import * as ort from 'onnxruntime-node';
import { livenessModelPath } from '../../../models/liveness.js';
import { MODELS_BUILD_DIR } from '../../../models/convert.js';
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
  const file = options.useNetwork === false ? null : livenessModelPath(options.modelsDir ?? MODELS_BUILD_DIR);
  const session = file
    ? await ort.InferenceSession.create(file, { graphOptimizationLevel: 'all', executionMode: 'sequential', interOpNumThreads: 1, intraOpNumThreads: options.intraOpNumThreads ?? 1 })
    : null;
  return new PassiveLivenessEngine(session, { ...DEFAULT_LIVENESS_TUNING, ...options.tuning });
}
