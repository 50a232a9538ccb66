/**
 * Default gates, fusion weights and threshold of the passive liveness engine. The fusion weights and
 * the threshold are printed by `npm run bench:liveness -- --fit` (fitted on the tuning part of the
 * bench set only) and copied here; see README.md.
 */
import type { PassiveLivenessTuning } from './engine.js';

export const DEFAULT_LIVENESS_TUNING: PassiveLivenessTuning = {
  gates: { minFaceWidthPx: 48, minSharpness: 2, minMeanLuma: 35, maxMeanLuma: 225, maxClipped: 0.3 },
  // placeholder until the first fit: the network alone
  fusion: { inputs: ['cnn'], mean: [0], std: [1], weights: [1], bias: 0 },
  fusionNoCnn: { inputs: ['spectralPeak'], mean: [1], std: [0.3], weights: [-1], bias: 0 },
  threshold: 0.5,
  cropScale: 2.7,
};
