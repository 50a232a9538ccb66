/** The clerk's confidence word for a match decision (no React: shared by screens and tests). */

export type ConfidenceWord = 'high' | 'medium' | 'low';

/**
 * How a modality's scores run: fingerprint scores are open-ended (0 up, threshold ~17), face scores are
 * cosine-like (at most about 1, threshold ~0.85), so one ratio cannot serve both.
 */
export type ScoreScale = 'open' | 'cosine';

/**
 * How far a decision sits from its threshold, as a word for the clerk (a margin heuristic, not a
 * calibrated probability; undefined without a positive threshold).
 * - Open scale (fingerprint): the ratio score/threshold. Accepted: >= 1.3 high, >= 1.1 medium, else low.
 * - Cosine scale (face): the share of the way from the threshold to a perfect 1. Accepted: >= 0.5 high,
 *   >= 0.15 medium (at the default verify threshold 0.8505 that is 0.873, the FAR 1e-4 threshold
 *   0.8723 of src/face/tuning.ts), else low. The ratio would call an identical photo (score ~1.0,
 *   ratio 1.18) only "medium".
 * - Rejected, both scales: the ratio. <= 0.7 high, <= 0.9 medium, else low.
 */
export function confidenceWord(score: number | undefined, threshold: number | undefined, matched: boolean, scale: ScoreScale = 'open'): ConfidenceWord | undefined {
  if (score === undefined || threshold === undefined || !(threshold > 0)) return undefined;
  const r = score / threshold;
  if (!matched) return r <= 0.7 ? 'high' : r <= 0.9 ? 'medium' : 'low';
  if (scale === 'cosine' && threshold < 1) {
    const m = (score - threshold) / (1 - threshold);
    return m >= 0.5 ? 'high' : m >= 0.15 ? 'medium' : 'low';
  }
  return r >= 1.3 ? 'high' : r >= 1.1 ? 'medium' : 'low';
}
