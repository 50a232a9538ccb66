import { Parameters } from '../parameters.js';
import { angleDistance, buildEdgeHash, type EdgeHash, type PreparedTemplate } from './prepared-template.js';
import { scorePairing, type PairingStats } from './scoring.js';

/**
 * One probe prepared for fast 1:N comparison. `match(candidate)` runs:
 * 1. root voting: each candidate edge-table edge is looked up in the probe's edge hash; every probe edge
 *    of the same shape votes for the two minutia pairs it implies (SourceAFIS `RootEnumerator`, with votes
 *    to order the roots);
 * 2. for the best-voted untried roots, pairing-graph growth (SourceAFIS `EdgeSpider`): a priority queue of
 *    matching neighbour edges, smallest length error first; a pair is added when both minutiae are free,
 *    an edge between two consistent pairs adds support;
 * 3. scoring of each pairing (`scorePairing`); the best score is the similarity.
 * Scratch buffers are reused, so a ProbeMatcher is not re-entrant (one per thread).
 */
export class ProbeMatcher {
  private readonly hash: EdgeHash;
  private votes = new Uint16Array(0);
  private tried = new Uint8Array(0);
  private probeToCandidate: Int32Array;
  private candidateToProbe = new Int32Array(0);
  private pairProbe: Int32Array;
  private pairSupport: Int32Array;
  private probeToPair: Int32Array;
  private heapKey = new Float32Array(256);
  private heapProbe = new Int32Array(256);
  private heapCandidate = new Int32Array(256);
  private heapAngle = new Float32Array(256);
  private heapFrom = new Int32Array(256);
  private heapSize = 0;
  private rootList = new Int32Array(0);
  private voteLevels = new Int32Array(64);
  private orderedRoots = new Int32Array(64);

  /** 1 for every edge-hash cell holding at least one probe edge; `occupancy` = their share. */
  private readonly occupied: Uint8Array;
  private readonly occupancy: number;

  constructor(readonly probe: PreparedTemplate) {
    this.hash = buildEdgeHash(probe);
    const cells = this.hash.cellStart.length - 1;
    this.occupied = new Uint8Array(cells);
    let used = 0;
    for (let c = 0; c < cells; c++) if (this.hash.cellStart[c + 1] > this.hash.cellStart[c]) used += this.occupied[c] = 1;
    this.occupancy = used / cells;
    this.probeToCandidate = new Int32Array(probe.count);
    this.pairProbe = new Int32Array(probe.count);
    this.pairSupport = new Int32Array(probe.count);
    this.probeToPair = new Int32Array(probe.count);
  }

  /**
   * Pre-filter for 1:N search (root voting only, no pairing growth; about 4x faster than `match`):
   * the highest number of edge votes any minutia pair received. Used only to rank candidates.
   */
  quickScore(candidate: PreparedTemplate): number {
    this.vote(candidate, Parameters.prefilterNeighbors);
    return this.lastMaxVotes;
  }

  /** Similarity of the probe to `candidate` (>= 0, higher = more alike). */
  match(candidate: PreparedTemplate): number {
    const np = this.probe.count;
    const nc = candidate.count;
    if (np < 2 || nc < 2) return 0;
    const roots = this.vote(candidate);
    const votes = this.votes;
    // order roots by votes, highest first (counting sort; ties keep discovery order)
    const maxVotes = this.lastMaxVotes;
    if (this.voteLevels.length < maxVotes + 2) this.voteLevels = new Int32Array(maxVotes + 2);
    const levels = this.voteLevels;
    levels.fill(0, 0, maxVotes + 2);
    const rootList = this.rootList;
    for (let i = 0; i < roots; i++) levels[maxVotes - votes[rootList[i]] + 1]++;
    for (let v = 1; v <= maxVotes + 1; v++) levels[v] += levels[v - 1];
    if (this.orderedRoots.length < roots) this.orderedRoots = new Int32Array(Math.max(roots, 2 * this.orderedRoots.length));
    const ordered = this.orderedRoots;
    for (let i = 0; i < roots; i++) ordered[levels[maxVotes - votes[rootList[i]]]++] = rootList[i];
    let best = 0;
    let tries = 0;
    for (let i = 0; i < roots; i++) {
      if (tries >= Parameters.maxTriedRoots) break;
      const root = ordered[i];
      if (this.tried[root]) continue;
      tries++;
      const p = (root / nc) | 0;
      const score = this.grow(candidate, p, root - p * nc);
      if (score > best) best = score;
    }
    return best;
  }

  private lastMaxVotes = 0;

  /** Root voting: fills `votes` and `rootList` (pairs with >= 2 votes); returns the root count. */
  private vote(candidate: PreparedTemplate, neighbors: number = Parameters.edgeTableNeighbors): number {
    const np = this.probe.count;
    const nc = candidate.count;
    const cells = np * nc;
    if (this.votes.length < cells) {
      this.votes = new Uint16Array(cells);
      this.tried = new Uint8Array(cells);
      this.rootList = new Int32Array(2 * cells);
    }
    if (this.candidateToProbe.length < nc) this.candidateToProbe = new Int32Array(nc);
    const votes = this.votes;
    votes.fill(0, 0, cells);
    this.tried.fill(0, 0, cells);
    let maxVotes = 0;
    const h = this.hash;
    const dTol = Parameters.maxDistanceErrorPx;
    const aTol = Parameters.maxAngleError;
    const rootList = this.rootList;
    let roots = 0;
    const total = nc * Parameters.edgeTableNeighbors;
    const edgeCell = candidate.edgeCell;
    const K = Parameters.edgeTableNeighbors;
    const cellStart = h.cellStart;
    const hLength = h.length;
    const hReference = h.referenceAngle;
    const hNeighbor = h.neighborAngle;
    const hFrom = h.from;
    const hTo = h.to;
    const cLength = candidate.edgeLength;
    const cReference = candidate.edgeReferenceAngle;
    const cNeighbor = candidate.edgeNeighborAngle;
    const cNeighborIndex = candidate.neighbor;
    for (let slot = 0; slot < total; slot++) {
      if (slot % K >= neighbors) continue;
      const cell = edgeCell[slot];
      if (cell < 0) continue;
      const end = cellStart[cell + 1];
      const start = cellStart[cell];
      if (start === end) continue;
      const len = cLength[slot];
      const ref = cReference[slot];
      const nb = cNeighbor[slot];
      const c = (slot / K) | 0;
      const d = cNeighborIndex[slot];
      for (let e = start; e < end; e++) {
        const dl = hLength[e] - len;
        if (dl > dTol || dl < -dTol) continue;
        if (angleDistance(hReference[e], ref) > aTol || angleDistance(hNeighbor[e], nb) > aTol) continue;
        const a = hFrom[e] * nc + c;
        const va = ++votes[a];
        if (va === 2) rootList[roots++] = a;
        if (va > maxVotes) maxVotes = va;
        const b = hTo[e] * nc + d;
        const vb = ++votes[b];
        if (vb === 2) rootList[roots++] = b;
        if (vb > maxVotes) maxVotes = vb;
      }
    }
    this.lastMaxVotes = maxVotes;
    return roots;
  }

  private push(key: number, probe: number, candidate: number, angle: number, from: number): void {
    if (this.heapSize === this.heapKey.length) this.growHeap();
    let i = this.heapSize++;
    const hk = this.heapKey;
    const hp = this.heapProbe;
    const hc = this.heapCandidate;
    const ha = this.heapAngle;
    const hf = this.heapFrom;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (hk[parent] <= key) break;
      hk[i] = hk[parent];
      hp[i] = hp[parent];
      hc[i] = hc[parent];
      ha[i] = ha[parent];
      hf[i] = hf[parent];
      i = parent;
    }
    hk[i] = key;
    hp[i] = probe;
    hc[i] = candidate;
    ha[i] = angle;
    hf[i] = from;
  }

  private growHeap(): void {
    const n = this.heapKey.length * 2;
    const key = new Float32Array(n);
    key.set(this.heapKey);
    this.heapKey = key;
    const angle = new Float32Array(n);
    angle.set(this.heapAngle);
    this.heapAngle = angle;
    for (const name of ['heapProbe', 'heapCandidate', 'heapFrom'] as const) {
      const next = new Int32Array(n);
      next.set(this[name]);
      this[name] = next;
    }
  }

  /** Removes the heap top (values must be read before calling). */
  private pop(): void {
    const n = --this.heapSize;
    if (n === 0) return;
    const hk = this.heapKey;
    const hp = this.heapProbe;
    const hc = this.heapCandidate;
    const ha = this.heapAngle;
    const hf = this.heapFrom;
    const key = hk[n];
    const probe = hp[n];
    const candidate = hc[n];
    const angle = ha[n];
    const from = hf[n];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && hk[child + 1] < hk[child]) child++;
      if (hk[child] >= key) break;
      hk[i] = hk[child];
      hp[i] = hp[child];
      hc[i] = hc[child];
      ha[i] = ha[child];
      hf[i] = hf[child];
      i = child;
    }
    hk[i] = key;
    hp[i] = probe;
    hc[i] = candidate;
    ha[i] = angle;
    hf[i] = from;
  }

  /** Pushes every neighbour-edge pair of (p, c) whose shapes agree within tolerance. */
  private expand(candidate: PreparedTemplate, p: number, c: number, pairIndex: number): void {
    const probe = this.probe;
    const K = Parameters.edgeTableNeighbors;
    const dTol = Parameters.maxDistanceErrorPx;
    const aTol = Parameters.maxAngleError;
    const pc = probe.neighborCount[p];
    const cc = candidate.neighborCount[c];
    const pLength = probe.edgeLength;
    const pReference = probe.edgeReferenceAngle;
    const pNeighborAngle = probe.edgeNeighborAngle;
    const pNeighbor = probe.neighbor;
    const cLength = candidate.edgeLength;
    const cReference = candidate.edgeReferenceAngle;
    const cNeighborAngle = candidate.edgeNeighborAngle;
    const cNeighbor = candidate.neighbor;
    const p2c = this.probeToCandidate;
    const c2p = this.candidateToProbe;
    const cBase = c * K;
    let low = 0;
    for (let i = 0; i < pc; i++) {
      const ps = p * K + i;
      const pl = pLength[ps];
      const q = pNeighbor[ps];
      const pairedTo = p2c[q];
      while (low < cc && cLength[cBase + low] < pl - dTol) low++;
      for (let j = low; j < cc; j++) {
        const cs = cBase + j;
        const dl = cLength[cs] - pl;
        if (dl > dTol) break;
        const d = cNeighbor[cs];
        if (pairedTo >= 0 ? pairedTo !== d : c2p[d] >= 0) continue;
        const ra = angleDistance(pReference[ps], cReference[cs]);
        if (ra > aTol) continue;
        const na = angleDistance(pNeighborAngle[ps], cNeighborAngle[cs]);
        if (na > aTol) continue;
        this.push(dl < 0 ? -dl : dl, q, d, ra + na, pairIndex);
      }
    }
  }

  private readonly stats: PairingStats = {
    probeCount: 0,
    candidateCount: 0,
    pairCount: 0,
    supportedCount: 0,
    typeHits: 0,
    supportingEdges: 0,
    distanceErrorSum: 0,
    angleErrorSum: 0,
  };

  private addPair(candidate: PreparedTemplate, p: number, c: number): void {
    const stats = this.stats;
    const index = stats.pairCount++;
    this.probeToCandidate[p] = c;
    this.candidateToProbe[c] = p;
    this.pairProbe[index] = p;
    this.pairSupport[index] = 0;
    this.probeToPair[p] = index;
    if (this.probe.types[p] === candidate.types[c]) stats.typeHits++;
    this.tried[p * candidate.count + c] = 1;
    this.expand(candidate, p, c, index);
  }

  private grow(candidate: PreparedTemplate, rootProbe: number, rootCandidate: number): number {
    const np = this.probe.count;
    const nc = candidate.count;
    const p2c = this.probeToCandidate;
    const c2p = this.candidateToProbe;
    p2c.fill(-1, 0, np);
    c2p.fill(-1, 0, nc);
    this.heapSize = 0;
    const innerDistance = Parameters.distanceErrorFlatness * Parameters.maxDistanceErrorPx;
    const innerAngle = Parameters.angleErrorFlatness * Parameters.maxAngleError;
    const stats = this.stats;
    stats.probeCount = np;
    stats.candidateCount = nc;
    stats.pairCount = 0;
    stats.supportedCount = 0;
    stats.typeHits = 0;
    stats.supportingEdges = 0;
    stats.distanceErrorSum = 0;
    stats.angleErrorSum = 0;
    this.addPair(candidate, rootProbe, rootCandidate);
    while (this.heapSize > 0) {
      const key = this.heapKey[0];
      const p = this.heapProbe[0];
      const c = this.heapCandidate[0];
      const angle = this.heapAngle[0];
      const from = this.heapFrom[0];
      this.pop();
      if (p2c[p] < 0 && c2p[c] < 0) {
        stats.distanceErrorSum += key > innerDistance ? key : innerDistance;
        stats.angleErrorSum += angle > innerAngle ? angle : innerAngle;
        this.addPair(candidate, p, c);
      } else if (p2c[p] === c) {
        stats.supportingEdges++;
        this.pairSupport[this.probeToPair[p]]++;
        this.pairSupport[from]++;
      }
    }
    const minSupport = Parameters.minSupportingEdges;
    for (let i = 0; i < stats.pairCount; i++) if (this.pairSupport[i] >= minSupport) stats.supportedCount++;
    return scorePairing(stats);
  }
}
