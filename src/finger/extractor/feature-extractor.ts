import { FingerError } from '../errors.js';
import { Parameters } from '../parameters.js';
import { rescaleGray, type GrayImage } from '../images/gray-image.js';
import type { Minutia, MinutiaType } from '../templates/model.js';
import { orientations, type OrientationField } from './block-orientations.js';
import { equalize } from './equalization.js';
import { ridgeness } from './ridge-signature.js';
import { innerMinutiae, removeClouds, topMinutiae } from './minutiae/minutia-filters.js';
import { smoothAndBinarize, voteCleanup } from './oriented-smoothing.js';
import { cropToForeground, erodeMask, segment, type Segmentation } from './segmentation.js';
import { thin } from './skeletons/binary-thinning.js';
import { endingDirection, filterSkeleton } from './skeletons/skeleton-filters.js';
import { traceSkeleton } from './skeletons/skeleton-graph.js';

/** Result of feature extraction, in the internal 500 dpi frame. */
export interface ExtractedFeatures {
  width: number;
  height: number;
  minutiae: Minutia[];
  /** Image quality 0..100, see `imageQuality`. */
  quality: number;
  /** Foreground area in px (500 dpi) and mean orientation coherence over it. */
  foregroundAreaPx: number;
  meanCoherence: number;
  /** Ridge-pattern evidence 0..1, see `ridgeness`. */
  ridgeness: number;
}

/**
 * The extractor's refusal thresholds, each defaulting to its Parameters value (minForegroundAreaPx
 * 12,000 px at 500 dpi, minMeanCoherence 0.12, minRidgeness 0.08, minMinutiae 5). An image under one
 * gives NO_FINGERPRINT. Lowered only by diagnostics (`biostation readers compare`, "gates open");
 * the station always uses the defaults.
 */
export interface ExtractionGates {
  /** Fewest foreground pixels (500 dpi) accepted; 0 accepts any area. */
  minForegroundAreaPx?: number;
  /** Lowest mean orientation coherence (0..1) accepted. */
  minMeanCoherence?: number;
  /** Lowest ridge-pattern evidence (0..1) accepted. */
  minRidgeness?: number;
  /** Fewest minutiae accepted; 0 accepts a print with none. */
  minMinutiae?: number;
}

/** Optional transparency hook: receives every intermediate result by name (for tuning and UI feedback). */
export type Transparency = (stage: string, data: unknown) => void;

/**
 * Image quality 0..100 = 100 x R x sqrt(A) x sqrt(M), where R is the ridge evidence (share of foreground
 * blocks with one dominant ridge frequency, rescaled so 0.1 -> 0 and 0.8 -> 1), A the foreground area
 * factor (saturating at 60,000 px^2 = 2.4 cm^2 at 500 dpi) and M the minutia count factor (saturating at
 * 25). Meaning: >= 60 good (clear ridges over a full fingertip), 30..60 usable, < 30 poor (dry/wet/partial
 * prints: expect more false non-matches); a template is still produced for any quality.
 */
export function imageQuality(ridgeEvidence: number, foregroundAreaPx: number, minutiaCount: number): number {
  const coherence = Math.min(1, Math.max(0, (ridgeEvidence - 0.1) / 0.7));
  const area = Math.min(1, foregroundAreaPx / 60_000);
  const count = Math.min(1, minutiaCount / 25);
  return Math.round(100 * coherence * Math.sqrt(area) * Math.sqrt(count));
}

function collectEndings(skeleton: Uint8Array, width: number, height: number, type: MinutiaType, field: OrientationField): Minutia[] {
  const graph = traceSkeleton(skeleton, width, height);
  filterSkeleton(graph);
  const out: Minutia[] = [];
  for (const node of graph.nodes) {
    if (node.removed || node.ridges.length !== 1) continue;
    const b = ((node.y / field.blockSize) | 0) * field.columns + ((node.x / field.blockSize) | 0);
    out.push({
      x: node.x,
      y: node.y,
      direction: endingDirection(graph, node),
      type,
      quality: Math.max(1, Math.min(100, Math.round(field.coherence[b] * 100))),
    });
  }
  return out;
}

/**
 * Fingerprint image -> minutiae (the SourceAFIS-style pipeline): rescale to 500 dpi, segmentation
 * (local histograms, contrast masks), local equalisation, orientation field, oriented smoothing and
 * binarisation, vote clean-up, thinning of ridges and of valleys, skeleton graph filters; ridge-skeleton
 * endings become ridge endings and valley-skeleton endings become bifurcations; then inner-mask,
 * cloud and top-N minutia filters.
 * Input: gray image at `dpi`. Output coordinates are at 500 dpi in the rescaled frame.
 * Throws FingerError IMAGE_TOO_SMALL / IMAGE_TOO_LARGE (after rescaling), NO_FINGERPRINT (blank,
 * noise or non-fingerprint image: too little foreground, incoherent ridges or too few minutiae; the
 * thresholds are `gates`, default Parameters').
 */
export function extractFeatures(input: GrayImage, dpi: number, transparency?: Transparency, gates: ExtractionGates = {}): ExtractedFeatures {
  const full = rescaleGray(input, Parameters.internalDpi / dpi);
  const fullWidth = full.width;
  const fullHeight = full.height;
  const features = extractFromRescaled(full, transparency, gates);
  return { ...features, width: fullWidth, height: fullHeight };
}

function extractFromRescaled(full: GrayImage, transparency: Transparency | undefined, gates: ExtractionGates): ExtractedFeatures {
  const { width, height } = full;
  if (width < Parameters.minImageSidePx || height < Parameters.minImageSidePx) {
    throw new FingerError('IMAGE_TOO_SMALL', `Image of ${width}x${height} px at 500 dpi is too small for a fingerprint`);
  }
  if (width > Parameters.maxImageSidePx || height > Parameters.maxImageSidePx) {
    throw new FingerError('IMAGE_TOO_LARGE', `Image of ${width}x${height} px at 500 dpi is too large for a fingerprint`);
  }
  const cropped = cropToForeground(full, segment(full));
  const { image, segmentation, offsetX, offsetY } = cropped;
  transparency?.('segmentation', cropped);
  let foregroundAreaPx = 0;
  for (let i = 0; i < segmentation.pixelMask.length; i++) foregroundAreaPx += segmentation.pixelMask[i];
  if (foregroundAreaPx < (gates.minForegroundAreaPx ?? Parameters.minForegroundAreaPx)) {
    throw new FingerError('NO_FINGERPRINT', 'No fingerprint area was found in the image', { foregroundAreaPx });
  }
  return extractFromForeground(image, segmentation, foregroundAreaPx, offsetX, offsetY, transparency, gates);
}

function extractFromForeground(
  image: GrayImage,
  segmentation: Segmentation,
  foregroundAreaPx: number,
  offsetX: number,
  offsetY: number,
  transparency: Transparency | undefined,
  gates: ExtractionGates,
): ExtractedFeatures {
  const { width, height } = image;
  const mask = segmentation.pixelMask;
  const equalized = equalize(image, segmentation);
  transparency?.('equalized', equalized);
  const field = orientations(equalized, mask, width, height);
  transparency?.('orientations', field);
  let coherenceSum = 0;
  let coherenceCount = 0;
  for (let by = 0; by < field.rows; by++) {
    for (let bx = 0; bx < field.columns; bx++) {
      const cx = Math.min(width - 1, bx * field.blockSize + (field.blockSize >> 1));
      const cy = Math.min(height - 1, by * field.blockSize + (field.blockSize >> 1));
      if (!mask[cy * width + cx]) continue;
      coherenceSum += field.coherence[by * field.columns + bx];
      coherenceCount++;
    }
  }
  const meanCoherence = coherenceCount ? coherenceSum / coherenceCount : 0;
  if (meanCoherence < (gates.minMeanCoherence ?? Parameters.minMeanCoherence)) {
    throw new FingerError('NO_FINGERPRINT', 'The image has no coherent ridge pattern', { meanCoherence });
  }
  const ridgeScore = ridgeness(equalized, mask, width, height, field);
  transparency?.('ridgeness', ridgeScore);
  if (ridgeScore < (gates.minRidgeness ?? Parameters.minRidgeness)) {
    throw new FingerError('NO_FINGERPRINT', 'The image has no fingerprint ridge pattern', { ridgeness: ridgeScore });
  }
  const raw = smoothAndBinarize(equalized, field.pixelBins, field.bins, mask, width, height);
  const binary = voteCleanup(raw, mask, width, height);
  transparency?.('binarized', binary);
  const inverted = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) inverted[i] = mask[i] && !binary[i] ? 1 : 0;
  const ridges = thin(binary, width, height);
  const valleys = thin(inverted, width, height);
  transparency?.('ridgeSkeleton', ridges);
  transparency?.('valleySkeleton', valleys);
  let minutiae = collectEndings(ridges, width, height, 'ending', field).concat(collectEndings(valleys, width, height, 'bifurcation', field));
  const inner = erodeMask(mask, width, height, Parameters.innerMaskBorderPx);
  minutiae = innerMinutiae(minutiae, inner, width);
  minutiae = removeClouds(minutiae);
  minutiae = topMinutiae(minutiae);
  transparency?.('minutiae', minutiae);
  if (minutiae.length < (gates.minMinutiae ?? Parameters.minMinutiae)) {
    throw new FingerError('NO_FINGERPRINT', `Only ${minutiae.length} minutiae were found`, { minutiaCount: minutiae.length });
  }
  const quality = imageQuality(ridgeScore, foregroundAreaPx, minutiae.length);
  minutiae = minutiae.map((m) => ({ ...m, x: m.x + offsetX, y: m.y + offsetY }));
  return { width, height, minutiae, quality, foregroundAreaPx, meanCoherence, ridgeness: ridgeScore };
}
