import { Parameters } from '../parameters.js';

/** Statistics of one pairing of probe and candidate minutiae. */
export interface PairingStats {
  probeCount: number;
  candidateCount: number;
  pairCount: number;
  supportedCount: number;
  typeHits: number;
  supportingEdges: number;
  /** Sums over the pairing tree's edges (pairCount - 1 of them), each error floored at its flat radius. */
  distanceErrorSum: number;
  angleErrorSum: number;
}

/**
 * Similarity score of a pairing (after SourceAFIS `Scoring`): a weighted sum of the number of paired
 * minutiae, their fraction in probe and candidate, supported pairs, matching types, edges, and the
 * distance/angle accuracy of the pairing-tree edges. Unitless, >= 0; higher = more alike.
 */
export function scorePairing(s: PairingStats): number {
  const P = Parameters;
  const fraction = 0.5 * (s.pairCount / s.probeCount + s.pairCount / s.candidateCount);
  let score =
    P.minutiaScore * s.pairCount +
    P.minutiaFractionScore * fraction +
    P.supportedMinutiaScore * s.supportedCount +
    P.minutiaTypeScore * s.typeHits +
    P.edgeScore * (s.pairCount - 1 + s.supportingEdges);
  const treeEdges = Math.max(0, s.pairCount - 1);
  if (treeEdges > 0) {
    const distancePotential = P.maxDistanceErrorPx * treeEdges;
    const anglePotential = 2 * P.maxAngleError * treeEdges;
    const scale = P.accuracyPerEdge ? treeEdges : 1;
    score += (scale * P.distanceAccuracyScore * (distancePotential - s.distanceErrorSum)) / distancePotential;
    score += (scale * P.angleAccuracyScore * (anglePotential - s.angleErrorSum)) / anglePotential;
  }
  return score;
}
