/**
 * Joint liveness decision over several images of one capture session (pure).
 *
 * Rules: 'every' = each image must pass on its own (what the API does: a request fails on its first
 * attack image); 'mean' = the mean log-odds of P(live) over the images against logit(threshold)
 * (each image's evidence weighed equally, so one poor frame of a live person does not sink the session,
 * and one lucky frame of an attack does not carry it). Measured on real sessions (NUAA print attacks,
 * bench:liveness section 5 and README "Several images of one request"). The API uses 'mean' only for a
 * main image with its `livenessFrames` (frames.ts), after checking that they show the same person at the
 * same place and scale: the mean lets an attack image ride on live ones unless the images are known to
 * be one session of one person, so a request's several `Images` keep 'every'.
 */

const logit = (p: number): number => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};

export type SessionRule = 'every' | 'mean';

/**
 * @param probabilities each image's P(live), 0..1 (at least one); @param threshold 0..1.
 * @returns the session's probability (the lowest image's for 'every', the sigmoid of the mean
 * log-odds for 'mean') and the verdict.
 * @throws RangeError for no images or a probability outside 0..1.
 */
export function sessionDecision(probabilities: number[], threshold: number, rule: SessionRule): { probability: number; live: boolean } {
  if (probabilities.length === 0) throw new RangeError('sessionDecision: no images');
  if (probabilities.some((p) => !(p >= 0 && p <= 1))) throw new RangeError('sessionDecision: probabilities must be within 0..1');
  if (rule === 'every') {
    const probability = Math.min(...probabilities);
    return { probability, live: probability >= threshold };
  }
  const z = probabilities.reduce((s, p) => s + logit(p), 0) / probabilities.length;
  const probability = 1 / (1 + Math.exp(-z));
  return { probability, live: z >= logit(threshold) };
}
