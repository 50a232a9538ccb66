/**
 * Verification metrics for face benchmarks and threshold calibration (LFW View-2 protocol).
 */

export interface ScoredPair {
  score: number;
  same: boolean;
  fold: number;
}

/** Accuracy of the rule "same iff score >= t". */
export function accuracyAt(pairs: ScoredPair[], t: number): number {
  let ok = 0;
  for (const p of pairs) if ((p.score >= t) === p.same) ok++;
  return ok / pairs.length;
}

/** Threshold maximising accuracy on `pairs` (midpoints between sorted scores). */
export function bestAccuracyThreshold(pairs: ScoredPair[]): number {
  const s = [...new Set(pairs.map((p) => p.score))].sort((a, b) => a - b);
  let best = -Infinity;
  let bestT = 0;
  const candidates = [s[0] - 1e-6, ...s.slice(1).map((v, i) => (v + s[i]) / 2), s[s.length - 1] + 1e-6];
  for (const t of candidates) {
    const a = accuracyAt(pairs, t);
    if (a > best) {
      best = a;
      bestT = t;
    }
  }
  return bestT;
}

/**
 * LFW View-2: for each fold, the threshold is chosen on the other folds and accuracy measured on it.
 * @returns per-fold accuracies, their mean and sample standard deviation.
 */
export function foldAccuracy(pairs: ScoredPair[]): { perFold: number[]; mean: number; std: number } {
  const folds = [...new Set(pairs.map((p) => p.fold))].sort((a, b) => a - b);
  const perFold = folds.map((f) => accuracyAt(pairs.filter((p) => p.fold === f), bestAccuracyThreshold(pairs.filter((p) => p.fold !== f))));
  const mean = perFold.reduce((a, b) => a + b, 0) / perFold.length;
  const std = Math.sqrt(perFold.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, perFold.length - 1));
  return { perFold, mean, std };
}

/**
 * Threshold for a target false accept rate: at most floor(far * impostors) impostor scores are
 * >= the threshold (midpoint between the last rejected and the last accepted impostor score).
 * @returns threshold and the true accept rate of genuine pairs at it.
 */
export function tarAtFar(pairs: ScoredPair[], far: number): { threshold: number; tar: number; falseAccepts: number } {
  const imp = pairs.filter((p) => !p.same).map((p) => p.score).sort((a, b) => b - a);
  const gen = pairs.filter((p) => p.same).map((p) => p.score);
  const k = Math.floor(far * imp.length);
  const threshold = k === 0 ? imp[0] + 1e-6 : (imp[k - 1] + imp[k]) / 2;
  const tar = gen.filter((s) => s >= threshold).length / gen.length;
  return { threshold, tar, falseAccepts: imp.filter((s) => s >= threshold).length };
}

/** Percentile (0..100) of a numeric sample, nearest-rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
