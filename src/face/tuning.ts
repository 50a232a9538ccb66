/**
 * Every tunable of the face engine in one place, with its unit in its name or doc. The engine reads
 * them from `FaceEngineTuning` (DEFAULT_TUNING unless a caller overrides some, e.g. a benchmark); the
 * algorithms' fixed constants (network input sizes, reference points, BT.601 weights) stay beside the
 * code that needs them.
 */

/** Limits of the decode stage (image.ts). */
export interface DecodeLimits {
  /** Largest accepted width*height of the encoded image (header), in pixels. */
  maxInputPixels: number;
  /** Smallest accepted width and height, in pixels. */
  minSidePx: number;
  /** Decoded images larger than this (longest side, px) are downscaled (Lanczos) before detection. */
  maxWorkingSidePx: number;
}

/** Enrollment quality limits (quality.ts measures; enroll mode refuses a face outside them). */
export interface QualityLimits {
  /** Distance between the eye centres, source pixels. */
  minInterOcularPx: number;
  /** Variance of the Laplacian of the grey aligned chip (grey levels squared). */
  minSharpnessLaplacianVar: number;
  maxAbsYawDeg: number;
  maxAbsPitchDeg: number;
  maxAbsRollDeg: number;
  /** Mean grey level of the aligned chip, 0..255. */
  minMeanLumaGrey: number;
  maxMeanLumaGrey: number;
  /** Detector objectness, 0..1. */
  minDetectionScore: number;
}

/** Detection stage (face-engine.ts `detect`). */
export interface DetectionTuning {
  /** A detection scoring at least this (objectness 0..1) counts as a confident face. */
  confidentScore: number;
  /** Extra detector input sides, as multiples of the default side (the tiny detector's recall swings with scale). */
  extraScaleFactors: number[];
  /** Detector input sides are rounded to multiples of this (px; the network's stride). */
  inputStridePx: number;
  /** Extra-scale input sides outside this range (px) are skipped. */
  minExtraInputSidePx: number;
  maxExtraInputSidePx: number;
  /** Black border added on each side, as a fraction of the width/height, for the last detection try (tight crops). */
  borderPadFraction: number;
  /** In enroll mode a second face overlapping the dominant one by at least this IoU (0..1) is the same face. */
  rivalMaxIou: number;
}

/** Landmark stage (align.ts `LandmarkNet`). */
export interface LandmarkTuning {
  /** Crop side around the box, as a multiple of the box's longest side. */
  cropSideRatio: number;
  /** Landmark passes (each re-crops around the previous pass's landmarks). */
  passes: number;
  /** Average the landmarks of the crop and of its mirror image (test-time flip of the landmark net). */
  mirror: boolean;
}

export interface FaceEngineTuning {
  /** Sum the embeddings of each chip and its mirror image (test-time flip), for both recognisers. */
  flip: boolean;
  /** 1:1 threshold, quantised cosine (FAR 1e-3 on lfw-dev all pairs, see bench/face.ts). */
  verifyThresholdCosine: number;
  /** 1:N threshold, quantised cosine (FAR 1e-4 on lfw-dev all pairs). */
  identifyThresholdCosine: number;
  decodeLimits: DecodeLimits;
  qualityLimits: QualityLimits;
  /** In enroll mode, a second face whose box width is at least this fraction of the dominant one's is "several faces". */
  multipleFaceWidthRatio: number;
  /**
   * When to add the extra-scale detector passes to 1x: 'always', 'unless-clear' (unless 1x
   * found exactly one face, confident, whole and near the centre: a framed portrait) or
   * 'if-none' (only when 1x finds no confident face). The tiny detector's recall swings with
   * scale: the extra scales found the centred LFW face where 1x only saw a neighbour cut by the border.
   */
  extraScales: 'always' | 'unless-clear' | 'if-none';
  detection: DetectionTuning;
  landmarks: LandmarkTuning;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = {
  maxInputPixels: 40_000_000,
  minSidePx: 32,
  maxWorkingSidePx: 2048,
};

/**
 * Enrollment limits. Chosen to reject clearly unusable captures while accepting typical web/ID
 * photos. Measured on every 8th lfw-dev photo (477): 1st-99th percentiles were inter-ocular 26-49 px,
 * sharpness 11-305, yaw -42..50 deg (rough estimate), pitch -20..16, roll -20..16, luma 72-179;
 * these limits reject about 2 % of them (mostly strongly turned heads).
 */
export const ENROLL_QUALITY_LIMITS: QualityLimits = {
  minInterOcularPx: 20,
  minSharpnessLaplacianVar: 6,
  maxAbsYawDeg: 60,
  maxAbsPitchDeg: 40,
  maxAbsRollDeg: 45,
  minMeanLumaGrey: 30,
  maxMeanLumaGrey: 230,
  minDetectionScore: 0.5,
};

export const DEFAULT_TUNING: FaceEngineTuning = {
  flip: true,
  // From `npm run bench:face` (all-pairs calibration on lfw-dev, fused with flip, int16 decision scores):
  // FAR 1e-3 -> 0.8505 (TAR 98.44 % over all 4,414 genuine pairs), FAR 1e-4 -> 0.8723 (TAR 95.49 %).
  verifyThresholdCosine: 0.8505,
  identifyThresholdCosine: 0.8723,
  decodeLimits: DEFAULT_DECODE_LIMITS,
  qualityLimits: ENROLL_QUALITY_LIMITS,
  multipleFaceWidthRatio: 0.7,
  extraScales: 'unless-clear',
  detection: {
    confidentScore: 0.5,
    extraScaleFactors: [0.625, 1.6],
    inputStridePx: 32,
    minExtraInputSidePx: 128,
    maxExtraInputSidePx: 800,
    borderPadFraction: 0.25,
    rivalMaxIou: 0.2,
  },
  landmarks: { cropSideRatio: 1.0, passes: 2, mirror: true },
};

/** Options of createFaceEngine / createPooledFaceEngine (index.ts). */
export interface CreateFaceEngineOptions {
  /** Folder of the built ONNX models (default models/build of this checkout). */
  modelsDir?: string;
  /** onnxruntime intra-op threads per session (default: onnxruntime's choice, all cores). */
  intraOpNumThreads?: number;
  tuning?: Partial<FaceEngineTuning>;
}
