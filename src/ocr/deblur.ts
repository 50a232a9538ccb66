/**
 * A measured-blur path for the page's sharpening (preprocess.ts). The quality metrics (quality.ts) give
 * the strong edges' mean |Laplacian| (`sharpness`) and the ink-to-paper step (`contrast`). For a step of
 * height C blurred by a Gaussian of sigma s, the Laplacian's peak is about 0.24 C / s^2, so
 * sqrt(contrast / sharpness) grows with the blur's width and, unlike sharpness alone, not with a dark or
 * pale page's lower contrast (a low-light frame's sharpness is as low as a blurred one's: tuning #12,
 * 48.8 at contrast 73, against tuning #31's blur, 39.9 at 158). It costs nothing: both are measured
 * on every page already.
 *
 * A page whose edges are that wide gets a stronger unsharp mask (sigma 1.5, slopes 2 and 5 instead of
 * libvips' 1 and 2: a first step of a deconvolution, which brings the blurred stroke's edge back
 * where the ink's edge was); every other page is sharpened as before (sigma 1 under sharpness 50,
 * 2 under 25, none above), so a sharp or merely dark page is prepared exactly as it was.
 */
import type { QualityMetrics } from './quality.js';

/** Edge width index, px at the prepared scale (CARD_HEIGHT_PX): sqrt(contrast / sharpness); Infinity without edges. */
export function edgeWidth(q: Pick<QualityMetrics, 'sharpness' | 'contrast'>): number {
  return q.sharpness > 0 ? Math.sqrt(q.contrast / q.sharpness) : Infinity;
}

/**
 * Pages whose edge width index is at least this are blurred. Measured on the seen parts' images whose
 * sharpness is under 60 (the others are never sharpened): final9's blurred photographs that lost
 * fields (#8, #30, #52, #74) 2.3-3.2, tuning's and final5's blurred ones 1.7-3.2 (those at 1.7-2.0
 * read as before), low-light photographs 1.1-1.3, a scan 1.7; final6's small webcam cards 2.9-3.3
 * before the upscale is taken out (sharpeningFor's `scale`).
 */
export const BLURRED_EDGE_WIDTH = 2.2;

/** Sharpening of a blurred page (sharp's sharpen: sigma, flat and jagged slopes). */
export const DEBLUR_SHARPEN = { sigma: 1.5, m1: 2, m2: 5 } as const;

/** Sharpness under which a page gets the plain unsharp mask (sigma 1), and under which sigma 2 (preprocess.ts, before this file). */
export const SHARPEN_BELOW = 50;
export const SHARPEN_MORE_BELOW = 25;

export interface Sharpening { sigma: number; m1?: number; m2?: number }

/**
 * The unsharp mask a page of `quality` gets, or null for none. `requested` (PrepareOptions.sharpenSigma,
 * a second reading's own choice) wins: its sigma with libvips' slopes, 0 for none. `scale`: how much the
 * page was enlarged from the input (preprocess.ts's factor, at least 1): an upscale alone widens the
 * edges `scale` times, so the width is brought back to the input's before it is judged. Without it,
 * final6's small webcam cards (card 338-348 px tall in the frame, enlarged 2.4 x, edge widths 2.9-3.3)
 * and final5's fax scans in their 1.5 x second preparation were taken for blurred; on final6 the
 * stronger mask there lost 2 fields and made 7 more values wrong (all under 0.8 but one).
 */
export function sharpeningFor(quality: Pick<QualityMetrics, 'sharpness' | 'contrast'>, requested?: number, scale = 1): Sharpening | null {
  if (requested !== undefined) return requested > 0 ? { sigma: requested } : null;
  if (quality.sharpness >= SHARPEN_BELOW) return null;
  if (edgeWidth(quality) / scale >= BLURRED_EDGE_WIDTH) return { ...DEBLUR_SHARPEN };
  return { sigma: quality.sharpness < SHARPEN_MORE_BELOW ? 2 : 1 };
}
