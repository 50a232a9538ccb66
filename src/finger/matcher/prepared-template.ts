import { Parameters } from '../parameters.js';
import type { Minutia } from '../templates/model.js';

const TWO_PI = 2 * Math.PI;

/**
 * A template ready for matching (struct-of-arrays, 500 dpi pixels, radians). The edge table holds,
 * for each minutia, its `edgeTableNeighbors` nearest minutiae sorted by edge length, with the edge
 * shape (length, angle of the edge relative to the reference minutia's direction, and relative to the
 * neighbour's direction), which is invariant to rotation and translation (SourceAFIS `EdgeTable`).
 */
export interface PreparedTemplate {
  count: number;
  xs: Float32Array;
  ys: Float32Array;
  directions: Float32Array;
  /** 1 = ending, 2 = bifurcation, 0 = other. */
  types: Uint8Array;
  /** Edge table, `count * K` slots; `neighborCount[i]` valid from `i*K`. */
  neighborCount: Uint8Array;
  neighbor: Int32Array;
  edgeLength: Float32Array;
  edgeReferenceAngle: Float32Array;
  edgeNeighborAngle: Float32Array;
  /** Edge-hash cell of each edge-table edge (-1 when too short or too long to seed a root). */
  edgeCell: Int32Array;
}

export function normalizeRadians(a: number): number {
  const t = a % TWO_PI;
  return t < 0 ? t + TWO_PI : t;
}

/** Absolute angular difference in [0, pi]. */
export function angleDistance(a: number, b: number): number {
  let d = a - b;
  if (d < 0) d = -d;
  return d > Math.PI ? TWO_PI - d : d;
}

/** Builds the struct-of-arrays template with its edge table. O(n^2 log n) for n minutiae. */
export function prepareTemplate(minutiae: Minutia[]): PreparedTemplate {
  const n = minutiae.length;
  const K = Parameters.edgeTableNeighbors;
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  const directions = new Float32Array(n);
  const types = new Uint8Array(n);
  minutiae.forEach((m, i) => {
    xs[i] = m.x;
    ys[i] = m.y;
    directions[i] = normalizeRadians(m.direction);
    types[i] = m.type === 'ending' ? 1 : m.type === 'bifurcation' ? 2 : 0;
  });
  const neighborCount = new Uint8Array(n);
  const neighbor = new Int32Array(n * K);
  const edgeLength = new Float32Array(n * K);
  const edgeReferenceAngle = new Float32Array(n * K);
  const edgeNeighborAngle = new Float32Array(n * K);
  const order = new Array<number>(n);
  const distance = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      order[j] = j;
      distance[j] = Math.hypot(xs[j] - xs[i], ys[j] - ys[i]);
    }
    order.sort((a, b) => distance[a] - distance[b]);
    let k = 0;
    for (const j of order) {
      if (j === i || distance[j] === 0) continue;
      if (k >= K) break;
      const slot = i * K + k;
      const angle = Math.atan2(ys[j] - ys[i], xs[j] - xs[i]);
      neighbor[slot] = j;
      edgeLength[slot] = distance[j];
      edgeReferenceAngle[slot] = normalizeRadians(angle - directions[i]);
      edgeNeighborAngle[slot] = normalizeRadians(angle - directions[j]);
      k++;
    }
    neighborCount[i] = k;
  }
  const edgeCell = new Int32Array(n * K).fill(-1);
  const angleBins = hashAngleBins();
  const lengthBins = hashLengthBins();
  for (let i = 0; i < n * K; i++) {
    if (i % K >= neighborCount[(i / K) | 0]) continue;
    const len = edgeLength[i];
    const lb = lengthBin(len);
    if (len < Parameters.minRootEdgeLengthPx || lb >= lengthBins) continue;
    edgeCell[i] = (lb * angleBins + angleBin(edgeReferenceAngle[i], angleBins)) * angleBins + angleBin(edgeNeighborAngle[i], angleBins);
  }
  return { count: n, xs, ys, directions, types, neighborCount, neighbor, edgeLength, edgeReferenceAngle, edgeNeighborAngle, edgeCell };
}

export function hashAngleBins(): number {
  return Math.floor(TWO_PI / Parameters.maxAngleError);
}
export function hashLengthBins(): number {
  return lengthBin(Parameters.maxEdgeHashLengthPx + Parameters.maxDistanceErrorPx) + 2;
}

/**
 * Hash of every probe edge (all ordered minutia pairs up to `maxEdgeHashLengthPx`) on a dense grid of
 * (length, reference angle, neighbour angle) cells one tolerance wide; each edge is stored in every
 * cell its tolerance box touches, so a candidate edge needs one cell lookup (SourceAFIS `EdgeHash`).
 * CSR layout: entries of cell c are `cellStart[c] .. cellStart[c+1]` of the entry arrays `from`, `to`,
 * `length`, `referenceAngle`, `neighborAngle` (an edge is copied into each of its cells, for locality).
 */
export interface EdgeHash {
  lengthBins: number;
  angleBins: number;
  cellStart: Int32Array;
  from: Int32Array;
  to: Int32Array;
  length: Float32Array;
  referenceAngle: Float32Array;
  neighborAngle: Float32Array;
}

export function lengthBin(length: number): number {
  return Math.floor(length / Parameters.maxDistanceErrorPx);
}
export function angleBin(angle: number, bins: number): number {
  const b = Math.floor((angle / TWO_PI) * bins);
  return b >= bins ? bins - 1 : b;
}

export function buildEdgeHash(t: PreparedTemplate): EdgeHash {
  const dTol = Parameters.maxDistanceErrorPx;
  const aTol = Parameters.maxAngleError;
  const maxLength = Parameters.maxEdgeHashLengthPx;
  const lengthBins = hashLengthBins();
  const angleBins = hashAngleBins();
  const n = t.count;
  const from: number[] = [];
  const to: number[] = [];
  const len: number[] = [];
  const ref: number[] = [];
  const nb: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const d = Math.hypot(t.xs[j] - t.xs[i], t.ys[j] - t.ys[i]);
      if (d > maxLength || d === 0) continue;
      const angle = Math.atan2(t.ys[j] - t.ys[i], t.xs[j] - t.xs[i]);
      from.push(i);
      to.push(j);
      len.push(d);
      ref.push(normalizeRadians(angle - t.directions[i]));
      nb.push(normalizeRadians(angle - t.directions[j]));
    }
  }
  const cellCount = lengthBins * angleBins * angleBins;
  const counts = new Int32Array(cellCount + 1);
  const cellsOf = (e: number, visit: (cell: number) => void) => {
    const l0 = Math.max(0, lengthBin(len[e] - dTol));
    const l1 = Math.min(lengthBins - 1, lengthBin(len[e] + dTol));
    const r0 = Math.floor(((ref[e] - aTol) / TWO_PI) * angleBins);
    const r1 = Math.floor(((ref[e] + aTol) / TWO_PI) * angleBins);
    const n0 = Math.floor(((nb[e] - aTol) / TWO_PI) * angleBins);
    const n1 = Math.floor(((nb[e] + aTol) / TWO_PI) * angleBins);
    for (let l = l0; l <= l1; l++) {
      for (let r = r0; r <= r1; r++) {
        const rr = ((r % angleBins) + angleBins) % angleBins;
        for (let q = n0; q <= n1; q++) {
          const qq = ((q % angleBins) + angleBins) % angleBins;
          visit((l * angleBins + rr) * angleBins + qq);
        }
      }
    }
  };
  for (let e = 0; e < from.length; e++) cellsOf(e, (c) => counts[c + 1]++);
  for (let c = 0; c < cellCount; c++) counts[c + 1] += counts[c];
  const fill = counts.slice(0, cellCount);
  const total = counts[cellCount];
  const hash: EdgeHash = {
    lengthBins,
    angleBins,
    cellStart: counts,
    from: new Int32Array(total),
    to: new Int32Array(total),
    length: new Float32Array(total),
    referenceAngle: new Float32Array(total),
    neighborAngle: new Float32Array(total),
  };
  for (let e = 0; e < from.length; e++) {
    cellsOf(e, (c) => {
      const slot = fill[c]++;
      hash.from[slot] = from[e];
      hash.to[slot] = to[e];
      hash.length[slot] = len[e];
      hash.referenceAngle[slot] = ref[e];
      hash.neighborAngle[slot] = nb[e];
    });
  }
  return hash;
}
