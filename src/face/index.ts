/**
 * Face engine entry point: loads the ONNX models once (building them from the npm-shipped
 * weights first when models/build is missing or stale) and returns the engine.
 */
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { buildModels, MODELS_BUILD_DIR } from '../../models/convert.js';
import { encodeModel } from '../../models/onnx-proto.js';
import { FaceError } from './errors.js';
import type { FaceEngine } from './engine.js';
import { FaceExtractorPool, PooledFaceEngine } from './extract-pool.js';
import { OnnxFaceEngine } from './face-engine.js';
import { DEFAULT_TUNING, type CreateFaceEngineOptions } from './tuning.js';
import { faceModelId, FaceTemplateSpace } from './template-space.js';

export type { FaceEngine } from './engine.js';
export { OnnxFaceEngine, type AnalyzedFace } from './face-engine.js';
export { FaceExtractorPool, PooledFaceEngine } from './extract-pool.js';

export { DEFAULT_TUNING, type CreateFaceEngineOptions, type FaceEngineTuning } from './tuning.js';

function matmulIntegerModel(): Uint8Array {
  return encodeModel({
    graphName: 'gallery_scores',
    opset: 13,
    producer: 'biostation',
    initializers: [],
    nodes: [{ opType: 'MatMulInteger', inputs: ['A', 'B'], outputs: ['Y'], name: 'scores' }],
    inputs: [
      { name: 'A', elemType: 3, shape: ['N', 'D'] },
      { name: 'B', elemType: 3, shape: ['D', 'M'] },
    ],
    outputs: [{ name: 'Y', elemType: 6, shape: ['N', 'M'] }],
  });
}

const sessionOptions = (intraOpNumThreads?: number): ort.InferenceSession.SessionOptions => ({
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
  interOpNumThreads: 1,
  ...(intraOpNumThreads ? { intraOpNumThreads } : {}),
});

/**
 * Loads the face models once and returns the engine, running in this thread.
 * @throws FaceError ENGINE_UNAVAILABLE when the models cannot be built or loaded.
 */
export async function createFaceEngine(options: CreateFaceEngineOptions = {}): Promise<OnnxFaceEngine & FaceEngine> {
  const dir = options.modelsDir ?? MODELS_BUILD_DIR;
  try {
    buildModels(dir);
    const so = sessionOptions(options.intraOpNumThreads);
    const [detector, landmarks, recognizer, mobileFaceNet, matmul] = await Promise.all([
      ort.InferenceSession.create(path.join(dir, 'tiny_face_detector.onnx'), so),
      ort.InferenceSession.create(path.join(dir, 'face_landmark_68.onnx'), so),
      ort.InferenceSession.create(path.join(dir, 'face_recognition_dlib_r34.onnx'), so),
      ort.InferenceSession.create(path.join(dir, 'face_recognition_mobilefacenet.onnx'), so),
      ort.InferenceSession.create(matmulIntegerModel(), so),
    ]);
    return new OnnxFaceEngine({ detector, landmarks, recognizer, mobileFaceNet, matmul }, { ...DEFAULT_TUNING, ...options.tuning });
  } catch (e) {
    throw new FaceError('ENGINE_UNAVAILABLE', `The face models could not be loaded: ${(e as Error).message}`);
  }
}

/**
 * The engine with extraction on `workers` threads (extract-pool.ts), each with its own sessions and
 * one intra-op thread: requests are served in parallel and never block the event loop. Templates,
 * scores and galleries are computed in this thread exactly as by createFaceEngine's engine.
 * @throws FaceError ENGINE_UNAVAILABLE when the models cannot be built or a worker cannot load them.
 */
export async function createPooledFaceEngine(workers: number, options: Omit<CreateFaceEngineOptions, 'intraOpNumThreads'> = {}): Promise<PooledFaceEngine> {
  const dir = options.modelsDir ?? MODELS_BUILD_DIR;
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  let matmul: ort.InferenceSession;
  try {
    buildModels(dir); // once here, so that the workers find the build current
    matmul = await ort.InferenceSession.create(matmulIntegerModel(), sessionOptions());
  } catch (e) {
    throw new FaceError('ENGINE_UNAVAILABLE', `The face models could not be loaded: ${(e as Error).message}`);
  }
  const pool = await FaceExtractorPool.start(workers, { modelsDir: dir, tuning });
  return new PooledFaceEngine(new FaceTemplateSpace(faceModelId(tuning.flip), matmul), pool, tuning.verifyThresholdCosine, tuning.identifyThresholdCosine);
}
