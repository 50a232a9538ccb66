import { neighbourCounts } from './binary-thinning.js';

/** A node of the skeleton graph: a ridge ending (1 ridge) or a branch point (3+ ridges). */
export interface SkeletonNode {
  x: number;
  y: number;
  ridges: SkeletonRidge[];
  removed: boolean;
}

/** A skeleton ridge between two nodes; `points` are pixel indices from `start` to `end`. */
export interface SkeletonRidge {
  start: SkeletonNode;
  end: SkeletonNode;
  points: number[];
  removed: boolean;
}

export interface SkeletonGraph {
  width: number;
  nodes: SkeletonNode[];
  ridges: SkeletonRidge[];
}

const DX = [0, 1, 1, 1, 0, -1, -1, -1];
const DY = [-1, -1, 0, 1, 1, 1, 0, -1];

/**
 * Traces a thinned skeleton into a graph of nodes (endings: 1 neighbour; branch clusters: 3+
 * neighbours, adjacent branch pixels merged into one node) and ridges (pixel paths between nodes),
 * after SourceAFIS `Skeleton`/`SkeletonMinutia`/`SkeletonRidge`. Closed loops without nodes are dropped.
 */
export function traceSkeleton(skeleton: Uint8Array, width: number, height: number): SkeletonGraph {
  const counts = neighbourCounts(skeleton, width, height);
  const nodeOf = new Int32Array(skeleton.length).fill(-1);
  const nodes: SkeletonNode[] = [];
  const ridges: SkeletonRidge[] = [];
  const stack: number[] = [];
  for (let i = 0; i < skeleton.length; i++) {
    if (!skeleton[i] || nodeOf[i] >= 0) continue;
    const c = counts[i];
    if (c === 2) continue;
    const id = nodes.length;
    if (c === 0) continue;
    if (c === 1) {
      nodeOf[i] = id;
      nodes.push({ x: i % width, y: (i / width) | 0, ridges: [], removed: false });
      continue;
    }
    let sx = 0;
    let sy = 0;
    let n = 0;
    nodeOf[i] = id;
    stack.push(i);
    while (stack.length) {
      const p = stack.pop()!;
      const px = p % width;
      const py = (p - px) / width;
      sx += px;
      sy += py;
      n++;
      for (let d = 0; d < 8; d++) {
        const q = p + DX[d] + DY[d] * width;
        if (skeleton[q] && counts[q] > 2 && nodeOf[q] < 0) {
          nodeOf[q] = id;
          stack.push(q);
        }
      }
    }
    nodes.push({ x: Math.round(sx / n), y: Math.round(sy / n), ridges: [], removed: false });
  }
  const visited = new Uint8Array(skeleton.length);
  const directPairs = new Set<number>();
  for (let i = 0; i < skeleton.length; i++) {
    const from = nodeOf[i];
    if (from < 0) continue;
    for (let d = 0; d < 8; d++) {
      const first = i + DX[d] + DY[d] * width;
      if (!skeleton[first] || nodeOf[first] === from || visited[first]) continue;
      if (nodeOf[first] >= 0) {
        const a = Math.min(i, first);
        const key = a * 8 + (a === i ? d : (d + 4) % 8);
        if (directPairs.has(key)) continue;
        directPairs.add(key);
        addRidge(nodes, ridges, from, nodeOf[first], [i, first]);
        continue;
      }
      const points = [i, first];
      let prev = i;
      let cur = first;
      visited[cur] = 1;
      let to = -1;
      for (;;) {
        let next = -1;
        for (let e = 0; e < 8; e++) {
          const q = cur + DX[e] + DY[e] * width;
          if (!skeleton[q] || q === prev || (nodeOf[q] === from && points.length <= 2)) continue;
          if (nodeOf[q] >= 0) {
            next = q;
            break;
          }
          if (!visited[q] && next < 0) next = q;
        }
        if (next < 0) break;
        points.push(next);
        if (nodeOf[next] >= 0) {
          to = nodeOf[next];
          break;
        }
        visited[next] = 1;
        prev = cur;
        cur = next;
      }
      if (to >= 0) addRidge(nodes, ridges, from, to, points);
    }
  }
  return { width, nodes, ridges };
}

function addRidge(nodes: SkeletonNode[], ridges: SkeletonRidge[], from: number, to: number, points: number[]): void {
  const ridge: SkeletonRidge = { start: nodes[from], end: nodes[to], points, removed: false };
  nodes[from].ridges.push(ridge);
  if (to !== from) nodes[to].ridges.push(ridge);
  else nodes[to].ridges.push(ridge);
  ridges.push(ridge);
}

/** Detaches a ridge from its nodes. */
export function removeRidge(ridge: SkeletonRidge): void {
  if (ridge.removed) return;
  ridge.removed = true;
  const drop = (node: SkeletonNode) => {
    const k = node.ridges.indexOf(ridge);
    if (k >= 0) node.ridges.splice(k, 1);
  };
  drop(ridge.start);
  drop(ridge.end);
}

/** Adds a ridge between two nodes (points from start to end). */
export function connect(graph: SkeletonGraph, start: SkeletonNode, end: SkeletonNode, points: number[]): SkeletonRidge {
  const ridge: SkeletonRidge = { start, end, points, removed: false };
  start.ridges.push(ridge);
  end.ridges.push(ridge);
  graph.ridges.push(ridge);
  return ridge;
}

/** The ridge's points ordered away from `node`. */
export function pointsFrom(ridge: SkeletonRidge, node: SkeletonNode): number[] {
  return ridge.start === node ? ridge.points : ridge.points.slice().reverse();
}

/** The node at the far end of `ridge` seen from `node`. */
export function otherEnd(ridge: SkeletonRidge, node: SkeletonNode): SkeletonNode {
  return ridge.start === node ? ridge.end : ridge.start;
}

/**
 * Merges every node with exactly two (distinct) ridges into one ridge (SourceAFIS `KnotRemover`), and
 * marks nodes without ridges removed (`DotRemover`).
 */
export function removeKnotsAndDots(graph: SkeletonGraph): void {
  for (const node of graph.nodes) {
    if (node.removed) continue;
    if (node.ridges.length === 0) {
      node.removed = true;
      continue;
    }
    if (node.ridges.length !== 2) continue;
    const [a, b] = node.ridges;
    if (a === b || otherEnd(a, node) === node || otherEnd(b, node) === node) continue;
    const startNode = otherEnd(a, node);
    const endNode = otherEnd(b, node);
    const first = pointsFrom(a, startNode);
    const second = pointsFrom(b, node);
    removeRidge(a);
    removeRidge(b);
    node.removed = true;
    connect(graph, startNode, endNode, first.concat(second.slice(1)));
  }
}
