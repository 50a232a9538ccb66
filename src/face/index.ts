/**
 * Face engine entry point: opens the built ONNX models once (src/runtime/onnx-models.ts; `npm run
 * models` builds them) and returns the engine.
 */
import { loadOnnxModels, onnxSessionFromBytes } from '../runtime/onnx-models.js';
import { FaceError } from './errors.js';
import type { FaceEngine } from './engine.js';
import { FaceExtractorPool, PooledFaceEngine } from './extract-pool.js';
import { OnnxFaceEngine } from './face-engine.js';
import { GALLERY_SCORES_MODEL } from './template/gallery-scores-model.js';
import { faceModelId, FaceTemplateSpace } from './template/template-space.js';
import { DEFAULT_TUNING, type CreateFaceEngineOptions } from './tuning.js';

export type { FaceEngine } from './engine.js';
export { OnnxFaceEngine, type AnalyzedFace } from './face-engine.js';
export { FaceExtractorPool, PooledFaceEngine } from './extract-pool.js';
export { DEFAULT_TUNING, type CreateFaceEngineOptions, type FaceEngineTuning } from './tuning.js';

/** The model files of the face engine in the build folder. */
export const FACE_MODEL_FILES = {
  detector: 'tiny_face_detector.onnx',
  landmarks: 'face_landmark_68.onnx',
  recognizer: 'face_recognition_dlib_r34.onnx',
  mobileFaceNet: 'face_recognition_mobilefacenet.onnx',
} as const;

/**
 * Loads the face models once and returns the engine, running in this thread.
 * @throws FaceError ENGINE_UNAVAILABLE when the built models are missing, damaged or cannot be loaded.
 */
export async function createFaceEngine(options: CreateFaceEngineOptions = {}): Promise<OnnxFaceEngine & FaceEngine> {
  try {
    const [sessions, matmul] = await Promise.all([
      loadOnnxModels(FACE_MODEL_FILES, { modelsDir: options.modelsDir, intraOpNumThreads: options.intraOpNumThreads }),
      onnxSessionFromBytes(GALLERY_SCORES_MODEL, options.intraOpNumThreads),
    ]);
    return new OnnxFaceEngine({ ...sessions, matmul }, { ...DEFAULT_TUNING, ...options.tuning });
  } catch (e) {
    throw new FaceError('ENGINE_UNAVAILABLE', `The face models could not be loaded: ${(e as Error).message}`);
  }
}

/**
 * The engine with extraction on `workers` threads (extract-pool.ts), each with its own sessions and
 * one intra-op thread: requests are served in parallel and never block the event loop. Templates,
 * scores and galleries are computed in this thread exactly as by createFaceEngine's engine.
 * @throws FaceError ENGINE_UNAVAILABLE when a worker cannot load the built models.
 */
export async function createPooledFaceEngine(workers: number, options: Omit<CreateFaceEngineOptions, 'intraOpNumThreads'> = {}): Promise<PooledFaceEngine> {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  let matmul;
  try {
    matmul = await onnxSessionFromBytes(GALLERY_SCORES_MODEL);
  } catch (e) {
    throw new FaceError('ENGINE_UNAVAILABLE', `The face models could not be loaded: ${(e as Error).message}`);
  }
  const pool = await FaceExtractorPool.start(workers, { modelsDir: options.modelsDir, tuning });
  return new PooledFaceEngine(new FaceTemplateSpace(faceModelId(tuning.flip), matmul), pool, tuning.verifyThresholdCosine, tuning.identifyThresholdCosine);
}
