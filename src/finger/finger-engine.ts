/**
 * The fingerprint engine (pure TypeScript, a SourceAFIS-style pipeline; see src/finger/README.md):
 * decode (images/) -> rescale to 500 dpi and extract minutiae (extractor/) -> quality gate ->
 * ISO/IEC 19794-2:2005 record (fingerprint-template.ts); 1:1 by the matcher (matcher/) over every pair
 * of views, 1:N by a worker-thread gallery (gallery/). Scores are unitless (0 = nothing in common),
 * compared with `defaultThreshold` (parameters.ts).
 */
import type { FingerEngine, FingerExtraction } from './engine.js';
import { FingerError } from './errors.js';
import { extractFeatures, type ExtractionGates } from './extractor/feature-extractor.js';
import { prepareRecord, toStoredTemplate } from './fingerprint-template.js';
import { WorkerFingerGallery } from './gallery/gallery.js';
import { decodeImage } from './images/decode-image.js';
import { ProbeMatcher } from './matcher/matcher.js';
import { DEFAULT_THRESHOLD, Parameters } from './parameters.js';

export interface MinutiaeFingerEngineOptions {
  /** Quality gate (0..100; default Parameters.minImageQuality): extraction below it gives FINGERPRINT_QUALITY_TOO_LOW. */
  minImageQuality?: number;
  /**
   * The extractor's refusal thresholds: area, coherence, ridgeness, minutia count
   * (extractor/feature-extractor.ts; default Parameters'). Diagnostics only (`biostation readers compare`); the station never sets them.
   */
  extractionGates?: ExtractionGates;
}

/** Best score over all pairs of views of two prepared records. */
function bestOfViews(a: ReturnType<typeof prepareRecord>, b: ReturnType<typeof prepareRecord>): number {
  let best = 0;
  for (const probe of a.views) {
    const matcher = new ProbeMatcher(probe);
    for (const candidate of b.views) best = Math.max(best, matcher.match(candidate));
  }
  return best;
}

export class MinutiaeFingerEngine implements FingerEngine {
  readonly defaultThreshold = DEFAULT_THRESHOLD;
  readonly minImageQuality: number;
  private readonly extractionGates: ExtractionGates;

  constructor(options: MinutiaeFingerEngineOptions = {}) {
    this.minImageQuality = options.minImageQuality ?? Parameters.minImageQuality;
    this.extractionGates = { ...options.extractionGates };
  }

  /**
   * Decodes, rescales `dpi` (default 500) to 500 dpi, extracts minutiae into an ISO 19794-2:2005 record.
   * @throws FingerError INVALID_DPI (outside 100..2000), the decoder's and extractor's input errors,
   *   FINGERPRINT_QUALITY_TOO_LOW (quality under minImageQuality; details.quality, details.minQuality).
   */
  async extract(image: Uint8Array, options?: { dpi?: number }): Promise<FingerExtraction> {
    const dpi = options?.dpi ?? Parameters.internalDpi;
    if (!Number.isFinite(dpi) || dpi < 100 || dpi > 2000) {
      throw new FingerError('INVALID_DPI', `dpi must be between 100 and 2000, got ${dpi}`);
    }
    const gray = await decodeImage(image);
    const features = extractFeatures(gray, dpi, undefined, this.extractionGates);
    if (features.quality < this.minImageQuality) {
      throw new FingerError('FINGERPRINT_QUALITY_TOO_LOW', `Fingerprint quality ${features.quality} is below ${this.minImageQuality} (0..100)`, {
        quality: features.quality,
        minQuality: this.minImageQuality,
      });
    }
    return { template: toStoredTemplate(features), quality: features.quality, minutiaCount: features.minutiae.length };
  }

  similarity(a: Uint8Array, b: Uint8Array): number {
    return bestOfViews(prepareRecord(a), prepareRecord(b));
  }

  similarityOfInterchange(a: Uint8Array, b: Uint8Array): number {
    return bestOfViews(prepareRecord(a), prepareRecord(b));
  }

  createGallery(): WorkerFingerGallery {
    return new WorkerFingerGallery();
  }
}
