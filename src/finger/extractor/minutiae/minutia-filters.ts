import { Parameters } from '../../parameters.js';
import type { Minutia } from '../../templates/model.js';

/** Drops minutiae outside the inner mask (`innerMask[y*width+x] === 0`), SourceAFIS `InnerMinutiaeFilter`. */
export function innerMinutiae(minutiae: Minutia[], innerMask: Uint8Array, width: number): Minutia[] {
  return minutiae.filter((m) => innerMask[Math.round(m.y) * width + Math.round(m.x)] === 1);
}

/** Drops minutiae with more than `maxCloudSize` others within `minutiaCloudRadiusPx` (`MinutiaCloudFilter`). */
export function removeClouds(minutiae: Minutia[]): Minutia[] {
  const r2 = Parameters.minutiaCloudRadiusPx ** 2;
  return minutiae.filter((m) => {
    let count = 0;
    for (const o of minutiae) {
      if (o !== m && (o.x - m.x) ** 2 + (o.y - m.y) ** 2 <= r2) count++;
    }
    return count <= Parameters.maxCloudSize;
  });
}

/**
 * Keeps at most `maxMinutiae`, preferring isolated minutiae: ranked by the distance to their
 * `sortByNeighbor`-th nearest neighbour, largest first (`TopMinutiaeFilter`).
 */
export function topMinutiae(minutiae: Minutia[]): Minutia[] {
  if (minutiae.length <= Parameters.maxMinutiae) return minutiae;
  const k = Parameters.sortByNeighbor;
  const ranked = minutiae.map((m) => {
    const d = minutiae.filter((o) => o !== m).map((o) => (o.x - m.x) ** 2 + (o.y - m.y) ** 2).sort((a, b) => a - b);
    return { m, key: d[Math.min(k, d.length) - 1] ?? 0 };
  });
  ranked.sort((a, b) => b.key - a.key);
  return ranked.slice(0, Parameters.maxMinutiae).map((r) => r.m);
}
