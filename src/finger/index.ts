import type { FingerEngine, FingerExtraction } from './engine.js';
import { Parameters } from './engine/configuration/parameters.js';
import { extractFeatures } from './engine/extractor/featureExtractor.js';
import { prepareRecord } from './engine/fingerprintTemplate.js';
import { toStoredTemplate } from './engine/fingerprintTemplate.js';
import { WorkerFingerGallery } from './engine/gallery.js';
import { decodeImage } from './engine/images/decodeImage.js';
import { ProbeMatcher } from './engine/matcher/matcher.js';
import { BiostationError } from '../runtime/errors.js';

export { extractFeatures } from './engine/extractor/featureExtractor.js';
export { prepareRecord } from './engine/fingerprintTemplate.js';
export { ProbeMatcher } from './engine/matcher/matcher.js';
export { parseTemplate, writeTemplate, detectFormat } from './engine/templates/formats.js';
export type { TemplateFormat } from './engine/templates/formats.js';

/**
 * Default similarity threshold. Calibrated on the FVC B-sets in ../shared/datasets (fvc2002 DB1-DB4,
 * fvc2004 DB1, DB3): it is above the highest score of all 17,280 "all impostor pairs" (every
 * impression against every impression of every other finger, 2,880 per database), i.e. zero observed
 * false matches there, which bounds the FMR at about 1.7e-4 (95 % upper bound 3/17,280). Re-run
 * `npm run bench:finger` after any change to the extractor or matcher and update it from its output.
 */
export const DEFAULT_THRESHOLD = 17.25;

/** Best score over all pairs of views of two prepared records. */
function bestOfViews(a: ReturnType<typeof prepareRecord>, b: ReturnType<typeof prepareRecord>): number {
  let best = 0;
  for (const probe of a.views) {
    const matcher = new ProbeMatcher(probe);
    for (const candidate of b.views) best = Math.max(best, matcher.match(candidate));
  }
  return best;
}

/**
 * Returns the fingerprint engine (pure TypeScript; see src/finger/engine/ for the pipeline).
 * `extract` decodes, rescales `dpi` (default 500) to 500 dpi and extracts minutiae into an
 * ISO 19794-2:2005 record; `similarity` and `similarityOfInterchange` accept any ISO 2005/2011 or
 * ANSI 378-2004 record. Scores are unitless (0 = nothing in common), compare with `defaultThreshold`.
 */
export async function createFingerEngine(): Promise<FingerEngine> {
  return {
    defaultThreshold: DEFAULT_THRESHOLD,
    async extract(image: Uint8Array, options?: { dpi?: number }): Promise<FingerExtraction> {
      const dpi = options?.dpi ?? Parameters.internalDpi;
      if (!Number.isFinite(dpi) || dpi < 100 || dpi > 2000) {
        throw new BiostationError('INVALID_REQUEST', `dpi must be between 100 and 2000, got ${dpi}`);
      }
      const gray = await decodeImage(image);
      const features = extractFeatures(gray, dpi);
      return { template: toStoredTemplate(features), quality: features.quality, minutiaCount: features.minutiae.length };
    },
    similarity(a: Uint8Array, b: Uint8Array): number {
      return bestOfViews(prepareRecord(a), prepareRecord(b));
    },
    similarityOfInterchange(a: Uint8Array, b: Uint8Array): number {
      return bestOfViews(prepareRecord(a), prepareRecord(b));
    },
    createGallery() {
      return new WorkerFingerGallery();
    },
  };
}
