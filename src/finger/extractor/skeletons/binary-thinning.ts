/**
 * Binary thinning to a one-pixel-wide, 8-connected skeleton: Zhang & Suen's two-subiteration parallel
 * thinning (CACM 27(3), 1984) driven by 256-entry lookup tables, followed by a sequential pass that
 * removes staircase pixels (simple, non-end pixels at a 4-connected corner).
 * Neighbour code bits: N=1, NE=2, E=4, SE=8, S=16, SW=32, W=64, NW=128.
 */

const RING = [1, 2, 4, 8, 16, 32, 64, 128];

function buildTables(): { first: Uint8Array; second: Uint8Array; staircase: Uint8Array } {
  const first = new Uint8Array(256);
  const second = new Uint8Array(256);
  const staircase = new Uint8Array(256);
  for (let code = 0; code < 256; code++) {
    const p: number[] = RING.map((bit) => (code & bit ? 1 : 0));
    const [n, , e, , s, , w] = p;
    const count = p.reduce((a, b) => a + b, 0);
    let transitions = 0;
    for (let i = 0; i < 8; i++) if (!p[i] && p[(i + 1) % 8]) transitions++;
    const base = count >= 2 && count <= 6 && transitions === 1;
    first[code] = base && n * e * s === 0 && e * s * w === 0 ? 1 : 0;
    second[code] = base && n * e * w === 0 && n * s * w === 0 ? 1 : 0;
    // 8-connected components among the neighbours (orthogonal neighbours touch across a corner)
    const parent = [0, 1, 2, 3, 4, 5, 6, 7];
    const find = (a: number): number => (parent[a] === a ? a : (parent[a] = find(parent[a])));
    for (let i = 0; i < 8; i++) {
      if (!p[i]) continue;
      const j = (i + 1) % 8;
      if (p[j]) parent[find(i)] = find(j);
      if (i % 2 === 0 && p[(i + 2) % 8]) parent[find(i)] = find((i + 2) % 8);
    }
    const roots = new Set<number>();
    for (let i = 0; i < 8; i++) if (p[i]) roots.add(find(i));
    const corner = (n && e) || (e && s) || (s && w) || (w && n);
    staircase[code] = roots.size === 1 && count >= 2 && corner && !(n && e && s && w) ? 1 : 0;
  }
  return { first, second, staircase };
}

const TABLES = buildTables();

function neighbourCode(img: Uint8Array, i: number, w: number): number {
  return (
    img[i - w] |
    (img[i - w + 1] << 1) |
    (img[i + 1] << 2) |
    (img[i + w + 1] << 3) |
    (img[i + w] << 4) |
    (img[i + w - 1] << 5) |
    (img[i - 1] << 6) |
    (img[i - w - 1] << 7)
  );
}

/**
 * Thins `binary` (1 = foreground, `width*height`) and returns the skeleton (1 = skeleton pixel).
 * The one-pixel image border is cleared first so neighbour reads never leave the raster.
 */
export function thin(binary: Uint8Array, width: number, height: number): Uint8Array {
  const img = binary.slice();
  for (let x = 0; x < width; x++) {
    img[x] = 0;
    img[(height - 1) * width + x] = 0;
  }
  for (let y = 0; y < height; y++) {
    img[y * width] = 0;
    img[y * width + width - 1] = 0;
  }
  let active: Int32Array;
  {
    let count = 0;
    for (let i = 0; i < img.length; i++) count += img[i];
    active = new Int32Array(count);
    let k = 0;
    for (let i = 0; i < img.length; i++) {
      active[k] = i;
      k += img[i];
    }
  }
  // Zhang-Suen subiterations alternate between the two tables; every decision of a subiteration reads
  // the state before its deletions. While many pixels are deleted, every remaining foreground pixel is
  // examined. Once deletions are few, only foreground pixels next to a pixel deleted in the previous two
  // subiterations are: any other pixel has the same 8-neighbourhood as when the same table last kept it.
  let marked = new Int32Array(active.length);
  let prevMarked = new Int32Array(active.length);
  let prevCount = 0;
  const queued = new Int32Array(img.length); // subiteration + 1 at which the pixel was queued
  let candidates: Int32Array | undefined;
  let candidateCount = 0;
  let quiet = 0;
  for (let sub = 0; quiet < 2; sub++) {
    const table = sub & 1 ? TABLES.second : TABLES.first;
    let m = 0;
    if (!candidates) {
      for (let k = 0; k < active.length; k++) {
        const i = active[k];
        marked[m] = i; // branch-free: the slot is kept only when the pixel is deletable
        m += table[neighbourCode(img, i, width)];
      }
    } else {
      for (let k = 0; k < candidateCount; k++) {
        const i = candidates[k];
        if (img[i] && table[neighbourCode(img, i, width)]) marked[m++] = i;
      }
    }
    for (let k = 0; k < m; k++) img[marked[k]] = 0;
    quiet = m > 0 ? 0 : quiet + 1;
    if (!candidates) {
      let keep = 0;
      for (let k = 0; k < active.length; k++) {
        const i = active[k];
        active[keep] = i;
        keep += img[i];
      }
      active = active.subarray(0, keep);
    }
    if (sub >= 1 && (candidates || 9 * (m + prevCount) < active.length)) {
      // candidates for the next subiteration: foreground pixels around the deletions of this and the previous one
      const next = candidates ?? new Int32Array(active.length);
      const stamp = sub + 1;
      let c = 0;
      for (let pass = 0; pass < 2; pass++) {
        const list = pass === 0 ? prevMarked : marked;
        const count = pass === 0 ? prevCount : m;
        for (let k = 0; k < count; k++) {
          const d = list[k];
          for (let dy = -width; dy <= width; dy += width) {
            for (let dx = -1; dx <= 1; dx++) {
              const q = d + dy + dx;
              if (img[q] && queued[q] !== stamp) {
                queued[q] = stamp;
                next[c++] = q;
              }
            }
          }
        }
      }
      candidates = next;
      candidateCount = c;
    }
    const swap = prevMarked;
    prevMarked = marked;
    marked = swap;
    prevCount = m;
  }
  for (let k = 0; k < active.length; k++) {
    const i = active[k];
    img[i] &= TABLES.staircase[neighbourCode(img, i, width)] ^ 1; // sequential: later pixels see this
  }
  return img;
}

/** Number of 8-neighbours set, for every skeleton pixel (0 elsewhere). */
export function neighbourCounts(skeleton: Uint8Array, width: number, height: number): Uint8Array {
  const counts = new Uint8Array(skeleton.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (!skeleton[i]) continue;
      const c = neighbourCode(skeleton, i, width);
      let n = 0;
      for (let b = c; b; b &= b - 1) n++;
      counts[i] = n;
    }
  }
  return counts;
}
