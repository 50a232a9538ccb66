import { Parameters } from '../../parameters.js';
import {
  connect,
  otherEnd,
  pointsFrom,
  removeKnotsAndDots,
  removeRidge,
  type SkeletonGraph,
  type SkeletonNode,
} from './skeleton-graph.js';

/** Direction (radians, image coordinates) at an ending, pointing from the ending into its ridge (ISO 19794-2 convention). */
export function endingDirection(graph: SkeletonGraph, node: SkeletonNode): number {
  const points = pointsFrom(node.ridges[0], node);
  const k = Math.min(points.length - 1, Parameters.ridgeDirectionSamplePx);
  const s = Math.min(points.length - 1, Parameters.ridgeDirectionSkipPx);
  const w = graph.width;
  const ax = points[s] % w;
  const ay = (points[s] / w) | 0;
  const bx = points[k] % w;
  const by = (points[k] / w) | 0;
  return Math.atan2(by - ay, bx - ax);
}

function angleBetween(a: number, b: number): number {
  let d = Math.abs(a - b) % (2 * Math.PI);
  if (d > Math.PI) d = 2 * Math.PI - d;
  return d;
}

/** Removes small loops: self-loops and pairs of short parallel ridges between two nodes (pores, islands). */
function removePores(graph: SkeletonGraph): void {
  const maxArm = Parameters.maxPoreArmPx;
  for (const ridge of graph.ridges) {
    if (ridge.removed) continue;
    if (ridge.start === ridge.end) {
      if (ridge.points.length <= 2 * maxArm) removeRidge(ridge);
      continue;
    }
    if (ridge.points.length > maxArm) continue;
    for (const other of ridge.start.ridges) {
      if (other === ridge || other.removed || otherEnd(other, ridge.start) !== ridge.end) continue;
      if (other.points.length > maxArm) continue;
      removeRidge(other.points.length > ridge.points.length ? other : ridge);
      break;
    }
  }
}

/** Joins ridge endings that face each other across a short gap (SourceAFIS `GapRemover`). */
function removeGaps(graph: SkeletonGraph): void {
  const endings = graph.nodes.filter((n) => !n.removed && n.ridges.length === 1);
  const directions = endings.map((n) => endingDirection(graph, n));
  const candidates: Array<[number, number, number]> = [];
  const maxGap = Parameters.maxGapLengthPx;
  for (let i = 0; i < endings.length; i++) {
    for (let j = i + 1; j < endings.length; j++) {
      const dx = endings[j].x - endings[i].x;
      const dy = endings[j].y - endings[i].y;
      const d2 = dx * dx + dy * dy;
      if (d2 > maxGap * maxGap || endings[i].ridges[0] === endings[j].ridges[0]) continue;
      const d = Math.sqrt(d2);
      if (d > Parameters.shortestJoinedGapPx) {
        const line = Math.atan2(dy, dx);
        // directions point into the ridges: a joinable gap has each ridge pointing away from the other ending
        if (angleBetween(directions[i] + Math.PI, line) > Parameters.maxGapAngle) continue;
        if (angleBetween(directions[j], line) > Parameters.maxGapAngle) continue;
      } else if (angleBetween(directions[i], directions[j] + Math.PI) > Math.PI / 2) continue;
      candidates.push([d, i, j]);
    }
  }
  candidates.sort((a, b) => a[0] - b[0]);
  const used = new Uint8Array(endings.length);
  for (const [, i, j] of candidates) {
    if (used[i] || used[j]) continue;
    used[i] = used[j] = 1;
    const a = endings[i];
    const b = endings[j];
    const steps = Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y));
    const points: number[] = [];
    for (let t = 0; t <= steps; t++) {
      const x = Math.round(a.x + ((b.x - a.x) * t) / Math.max(1, steps));
      const y = Math.round(a.y + ((b.y - a.y) * t) / Math.max(1, steps));
      points.push(y * graph.width + x);
    }
    connect(graph, a, b, points);
  }
}

/** Removes short ridges hanging off a branch (`TailRemover`) and short isolated ridges (`FragmentRemover`). */
function removeTailsAndFragments(graph: SkeletonGraph, tails: boolean, fragments: boolean): void {
  for (const ridge of graph.ridges) {
    if (ridge.removed) continue;
    const startDegree = ridge.start.ridges.length;
    const endDegree = ridge.end.ridges.length;
    const length = ridge.points.length;
    if (tails && length < Parameters.minTailLengthPx && ((startDegree === 1 && endDegree >= 3) || (endDegree === 1 && startDegree >= 3))) {
      removeRidge(ridge);
    } else if (fragments && length < Parameters.minFragmentLengthPx && startDegree === 1 && endDegree === 1) {
      removeRidge(ridge);
    }
  }
}

/**
 * The skeleton clean-up chain (after SourceAFIS `SkeletonFilters`): dots, pores, gaps, tails,
 * fragments, with knot merging between steps. Mutates the graph.
 */
export function filterSkeleton(graph: SkeletonGraph): void {
  removeKnotsAndDots(graph);
  removePores(graph);
  removeKnotsAndDots(graph);
  removeGaps(graph);
  removeKnotsAndDots(graph);
  for (let pass = 0; pass < 3; pass++) {
    removeTailsAndFragments(graph, true, false);
    removeKnotsAndDots(graph);
  }
  removeTailsAndFragments(graph, false, true);
  removeKnotsAndDots(graph);
}
