/**
 * Contract between the fingerprint service (enroll/verify/identify over a store) and the
 * fingerprint engine (image -> minutiae template, template x template -> score, ISO/ANSI codecs).
 * The engine is a pure function of its input: no HTTP, no tenants, no storage, no env vars.
 */

export interface FingerExtraction {
  /** Stored form: ISO/IEC 19794-2:2005 record (may be followed by our own versioned data if needed). */
  template: Uint8Array;
  /** Image quality 0..100 (meaning documented in src/finger/README.md); never below the engine's quality gate. */
  quality: number;
  minutiaCount: number;
}

export interface FingerGalleryHit {
  extId: string;
  score: number;
}

/** In-memory 1:N index of one application's fingerprint templates. */
export interface FingerGallery {
  upsert(extId: string, templates: Uint8Array[]): void;
  remove(extId: string): void;
  readonly size: number;
  /** Best `topK` persons for the probe, best first (person score = best template score). May use worker threads. */
  search(probe: Uint8Array, topK: number): Promise<FingerGalleryHit[]>;
  /** Releases the gallery's worker threads (optional; the gallery is unusable afterwards). */
  close?(): Promise<void>;
}

export interface FingerEngine {
  /** Similarity threshold calibrated for a documented FMR (e.g. 1e-4 on FVC impostor pairs). */
  readonly defaultThreshold: number;
  /**
   * Image bytes (PNG, JPEG, BMP, TIFF; gray or colour) at `dpi` (default 500) -> template.
   * Throws FingerError: INVALID_IMAGE, IMAGE_TOO_LARGE, IMAGE_TOO_SMALL, NO_FINGERPRINT,
   * FINGERPRINT_QUALITY_TOO_LOW (quality under the documented gate, Parameters.minImageQuality),
   * INVALID_DPI (dpi outside 100..2000).
   */
  extract(image: Uint8Array, options?: { dpi?: number }): Promise<FingerExtraction>;
  /** Score of two stored templates (higher = more alike). Throws INVALID_TEMPLATE. */
  similarity(a: Uint8Array, b: Uint8Array): number;
  /**
   * Score of two interchange records (ISO 19794-2:2005/2011 or ANSI 378-2004, format detected).
   * Throws INVALID_TEMPLATE with an exact reason for truncated or inconsistent records.
   */
  similarityOfInterchange(a: Uint8Array, b: Uint8Array): number;
  createGallery(): FingerGallery;
  /** Releases the engine's extraction worker threads, when it has any (the engine is unusable afterwards). */
  close?(): Promise<void>;
}
