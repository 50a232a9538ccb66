/**
 * A light veil over part of the card (glare: a lamp's reflection adds light, lifting ink far more than
 * paper, so that under it dark type turns pale gray and the global stretch leaves it faint) taken out
 * by a local contrast normalisation: each pixel is stretched between the local ink level and the local
 * paper level, both estimated on a coarse grid (the same block approach as light.ts's paper grid:
 * Gonzalez & Woods, Digital Image Processing, 3rd ed., 10.3.4 "variable thresholding"; here the ink
 * level as well as the paper's, as in local min-max contrast normalisation). Pure, in place.
 */
import { blockQuantile } from './light.js';

/** Block side as a fraction of the page height (~41 px on an 820 px card: a label line and some of its value). */
const BLOCK_OF_HEIGHT = 1 / 20;
/** The local range (paper minus ink) is never taken under this many levels: blank blocks are not stretched into noise. */
const MIN_RANGE = 48;

/** A 3 x 3 minimum (`max` false) or maximum over the grid, then a 3 x 3 mean. */
function spread(g: Float64Array, gw: number, gh: number, max: boolean): Float64Array {
  const m = new Float64Array(g.length), out = new Float64Array(g.length);
  for (let pass = 0; pass < 2; pass++) {
    const src = pass ? m : g, dst = pass ? out : m;
    for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) {
      let acc = pass ? 0 : max ? -Infinity : Infinity, n = 0;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(gh - 1, y + 1); yy++) for (let xx = Math.max(0, x - 1); xx <= Math.min(gw - 1, x + 1); xx++) {
        const v = src[yy * gw + xx];
        if (pass) { acc += v; n++; } else acc = max ? Math.max(acc, v) : Math.min(acc, v);
      }
      dst[y * gw + x] = pass ? acc / n : acc;
    }
  }
  return out;
}

/**
 * Stretches `data` (w x h, 8-bit gray, in place) between its local ink level (each block's 2nd
 * percentile, the darkest of its 3 x 3 neighbourhood, smoothed) and local paper level (90th
 * percentile, the lightest of the neighbourhood, smoothed), interpolated bilinearly between block
 * centres: ink to 0, paper to 255 everywhere, whatever veil lies over it. Ranges under MIN_RANGE are
 * widened by lowering the ink level. Pages under 16 px on a side are left as they are.
 */
export function normaliseLocalContrast(data: Uint8Array, w: number, h: number): void {
  if (w < 16 || h < 16) return;
  const block = Math.max(8, Math.round(h * BLOCK_OF_HEIGHT));
  const gw = Math.ceil(w / block), gh = Math.ceil(h / block);
  const ink = new Float64Array(gw * gh), paper = new Float64Array(gw * gh), hist = new Uint32Array(256);
  for (let by = 0; by < gh; by++) for (let bx = 0; bx < gw; bx++) {
    const x0 = bx * block, y0 = by * block, x1 = Math.min(w, x0 + block), y1 = Math.min(h, y0 + block);
    ink[by * gw + bx] = blockQuantile(data, w, x0, y0, x1, y1, 0.02, hist);
    paper[by * gw + bx] = blockQuantile(data, w, x0, y0, x1, y1, 0.9, hist);
  }
  const lo = spread(ink, gw, gh, false), hi = spread(paper, gw, gh, true);
  const at = (g: Float64Array, fx: number, fy: number): number => {
    const x0 = Math.max(0, Math.min(gw - 1, Math.floor(fx))), y0 = Math.max(0, Math.min(gh - 1, Math.floor(fy)));
    const x1 = Math.min(gw - 1, x0 + 1), y1 = Math.min(gh - 1, y0 + 1);
    const tx = Math.max(0, Math.min(1, fx - x0)), ty = Math.max(0, Math.min(1, fy - y0));
    return (g[y0 * gw + x0] * (1 - tx) + g[y0 * gw + x1] * tx) * (1 - ty) + (g[y1 * gw + x0] * (1 - tx) + g[y1 * gw + x1] * tx) * ty;
  };
  const loRow = new Float64Array(w), hiRow = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    const fy = (y + 0.5) / block - 0.5;
    for (let x = 0; x < w; x++) {
      const fx = (x + 0.5) / block - 0.5;
      const p = at(hi, fx, fy);
      loRow[x] = Math.min(at(lo, fx, fy), p - MIN_RANGE);
      hiRow[x] = p;
    }
    for (let x = 0, i = y * w; x < w; x++, i++) {
      const v = (255 * (data[i] - loRow[x])) / (hiRow[x] - loRow[x]);
      data[i] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
}
