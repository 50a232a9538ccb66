/**
 * Which face of an image is "the" face: the one a clerk framed. Capture guidance for identity
 * photos (ISO/IEC 19794-5, ICAO 9303 portrait rules) centres one whole face; bystanders are smaller,
 * off-centre or cut by the border. The largest box alone is not enough: the tiny detector often
 * draws a neighbour cut by the border at least as large as the centred face (LFW pairs show it).
 *
 * dominance = visible box area (px^2, the part inside the image)
 *           x exp(-d^2 / (2 * 0.35^2)), d = distance of the box centre from the image centre
 *             divided by the half-diagonal (0 at the centre, 1 in a corner: weight 0.017)
 *           x 1 for a confident detection (score >= 0.5), 0.5 below
 *           x the number of detector passes that found it (detect() runs three scales): a box
 *             seen at one scale only is often spurious (a head-and-headset box of LFW's
 *             Dick_Vermeil_0001 at 1.6x outranked the face all three scales agreed on).
 */
import type { Box, Detection } from './detector.js';

/** Spread of the centre weight, as a fraction of the half-diagonal. */
export const CENTRE_SIGMA = 0.35;
/** Detector score from which a detection counts as confident. */
export const CONFIDENT_SCORE = 0.5;

/** Area of the box inside a width x height image, px^2. */
export function visibleArea(b: Box, width: number, height: number): number {
  const w = Math.min(width, b.x + b.width) - Math.max(0, b.x);
  const h = Math.min(height, b.y + b.height) - Math.max(0, b.y);
  return Math.max(0, w) * Math.max(0, h);
}

/** exp(-d^2 / (2 * CENTRE_SIGMA^2)), d = box centre's distance from the image centre / half-diagonal. */
export function centreWeight(b: Box, width: number, height: number): number {
  const dx = b.x + b.width / 2 - width / 2;
  const dy = b.y + b.height / 2 - height / 2;
  const d2 = (dx * dx + dy * dy) / ((width * width + height * height) / 4);
  return Math.exp(-d2 / (2 * CENTRE_SIGMA * CENTRE_SIGMA));
}

/** Dominance of one detection in a width x height image (larger = more likely the subject). */
export function dominance(d: Detection, width: number, height: number): number {
  const visible = visibleArea(d.box, width, height);
  return visible * centreWeight(d.box, width, height) * (d.score >= CONFIDENT_SCORE ? 1 : 0.5) * (d.support ?? 1);
}

/**
 * A lone face that needs no second opinion: confident, at least 90 % inside the image and with a
 * centre weight of at least 0.5 (within ~0.41 of the half-diagonal from the centre).
 */
export function isFramedPortrait(d: Detection, width: number, height: number): boolean {
  const area = d.box.width * d.box.height;
  if (d.score < CONFIDENT_SCORE || !(area > 0) || visibleArea(d.box, width, height) < 0.9 * area) return false;
  return centreWeight(d.box, width, height) >= 0.5;
}

/** Detections sorted by dominance, the subject first (a new array). */
export function byDominance(dets: Detection[], width: number, height: number): Detection[] {
  return dets
    .map((d) => ({ d, k: dominance(d, width, height) }))
    .sort((p, q) => q.k - p.k)
    .map((p) => p.d);
}
