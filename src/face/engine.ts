/**
 * Contract between the face service (enroll/verify/identify over a store) and the face engine
 * (pixels -> template, template x template -> score). The engine is a pure function of its input
 * and its loaded models: no HTTP, no tenants, no storage, no env vars.
 */

/** Per-face quality measures, all documented in src/face/quality.ts. */
export interface FaceQuality {
  /** Inter-ocular distance in pixels of the source image. */
  interOcularPx: number;
  /** Face box width in pixels of the source image. */
  faceWidthPx: number;
  /** Sharpness, variance of the Laplacian on the aligned crop (higher is sharper). */
  sharpness: number;
  /** Estimated yaw, pitch and roll in degrees. */
  yawDeg: number;
  pitchDeg: number;
  rollDeg: number;
  /** Mean luminance of the aligned crop, 0..255. */
  meanLuma: number;
  /** Detector confidence 0..1. */
  detectionScore: number;
}

export interface FaceExtraction {
  /** Versioned binary template (see src/face/template.ts); stored as is, base64 in the API. */
  template: Uint8Array;
  quality: FaceQuality;
  /** Face box in source pixels. */
  box: { x: number; y: number; width: number; height: number };
}

export type FaceExtractMode =
  /** Strict: exactly one dominant face, quality limits enforced (enroll, update). */
  | 'enroll'
  /** Lenient: the dominant face is used (verify, identify, match). */
  | 'probe';

/** A 1:N search result: one row per person, the person's score is its best template's. */
export interface GalleryHit {
  extId: string;
  score: number;
}

/** In-memory 1:N index of one application's face templates. */
export interface FaceGallery {
  /** Adds or replaces all templates of a person. Throws TEMPLATE_INCOMPATIBLE. */
  upsert(extId: string, templates: Uint8Array[]): void;
  remove(extId: string): void;
  /** Number of templates held. */
  readonly size: number;
  /** Best `topK` persons for the probe template, best first (exact search, synchronous JS loop). */
  search(probe: Uint8Array, topK: number): GalleryHit[];
  /**
   * Same result as `search`; large galleries run on onnxruntime (int8 MatMulInteger, several cores,
   * ~4x faster at 1M templates). Prefer this one in services.
   */
  searchAsync(probe: Uint8Array, topK: number): Promise<GalleryHit[]>;
}

export interface FaceEngine {
  /** Model id and version written into every template, e.g. "dlib-r34-128+mfn-192/lm68-chip150-arc112+flip@2". */
  readonly modelId: string;
  /** 1:1 similarity threshold (verify, match): FAR 1e-3 on lfw-dev (see src/face/README.md). */
  readonly defaultThreshold: number;
  /**
   * 1:N threshold (identify): FAR 1e-4 per comparison on lfw-dev, so that a probe of someone not
   * enrolled is wrongly identified with probability about (persons in gallery) x 1e-4.
   */
  readonly identifyThreshold: number;
  /**
   * Image bytes (JPEG, PNG, WebP; EXIF orientation honoured) -> template of the dominant face.
   * Throws FaceError: INVALID_IMAGE, IMAGE_TOO_LARGE, IMAGE_TOO_SMALL, NO_FACE,
   * MULTIPLE_FACES (enroll only), FACE_QUALITY_TOO_LOW (enroll only).
   */
  extract(image: Uint8Array, mode: FaceExtractMode): Promise<FaceExtraction>;
  /** Similarity of two templates (higher = more alike). Throws INVALID_TEMPLATE / TEMPLATE_INCOMPATIBLE. */
  similarity(a: Uint8Array, b: Uint8Array): number;
  /** Throws INVALID_TEMPLATE / TEMPLATE_INCOMPATIBLE when the template cannot be compared by this engine. */
  assertCompatible(template: Uint8Array): void;
  createGallery(): FaceGallery;
  /** Releases worker threads (engines that have them); the engine is unusable afterwards. */
  close?(): Promise<void>;
}
