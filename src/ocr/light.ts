/**
 * Uneven light (a shadow across the frame, a lamp's fall-off): the paper's level is estimated on a
 * coarse grid and divided out before the contrast stretch, so one global ink/paper threshold holds
 * over the whole card again.
 *
 * Background estimation by a grey-level closing of the page followed by a smoothing, then division
 * ("flat-field" or background normalisation): the usual remedy for uneven illumination before a global
 * threshold (Gonzalez & Woods, Digital Image Processing, 3rd ed., 9.6.3 "top-hat transformation" and
 * 10.3.4 "variable thresholding"; Leptonica's pixBackgroundNorm does the same with tiles). Here:
 *
 * 1. the page is cut into square blocks of BLOCK_OF_HEIGHT x its height; each block's paper level is
 *    its 90th percentile (ink rarely covers 10 % of a block of value type);
 * 2. a 3 x 3 maximum over blocks (the closing: blocks filled with ink or a dark box take a neighbour's
 *    paper), then two 5 x 5 box means (the light varies slowly);
 * 3. the smoothed grid is divided out (bilinear between block centres), scaled so its median keeps its
 *    level, only when the light really is uneven: the plane fitted to the grid (least squares) changes
 *    by more than UNEVEN_LIGHT of its mean level across the page. Evenly lit pages are left unchanged.
 *
 * Before that, on the whole frame (card and table), framePlane/dividePlane remove a shadow that spans
 * the frame: a plane fitted to the light blocks only, so the card finder's Otsu threshold separates
 * card from table again instead of lit from shadowed (preprocess.ts evenFrame).
 *
 * Thresholds (measured on the tuning part, 80 images, and the same images under a synthetic linear
 * shadow 30-50 % deep): evenly lit cards measure at most 0.083 (unevenness) and 0.094 (frame spread),
 * shadowed ones from 0.074 and 0.14 (most above 0.2).
 */

/** Block side as a fraction of the page height (~20 px on an 820 px card: several value letters). */
const BLOCK_OF_HEIGHT = 1 / 40;
/** Relative change of the fitted light plane across the page above which the page is flattened. */
export const UNEVEN_LIGHT = 0.12;

export interface LightField {
  /** Smoothed paper level per block, row-major, gw x gh. */
  grid: Float64Array;
  gw: number;
  gh: number;
  /** Block side, px. */
  block: number;
  /** Relative change of the least-squares plane across the page: (max - min) / mean over its corners. */
  unevenness: number;
}

/**
 * The `q`-quantile (0..1) of the block [x0, x1) x [y0, y1) of an 8-bit grayscale image `w` px wide: the
 * lowest level at or under which at least q of its pixels lie. `hist` is scratch space of 256 counts.
 */
export function blockQuantile(data: Uint8Array, w: number, x0: number, y0: number, x1: number, y1: number, q: number, hist: Uint32Array): number {
  hist.fill(0);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) hist[data[y * w + x]]++;
  const n = (x1 - x0) * (y1 - y0);
  let acc = 0, v = 0;
  while (v < 255 && (acc += hist[v]) < q * n) v++;
  return v;
}

/** Paper level of a block (blockQuantile's arguments): its 90th percentile (ink rarely covers 10 % of a block). */
const paperLevel = (data: Uint8Array, w: number, x0: number, y0: number, x1: number, y1: number, hist: Uint32Array): number =>
  blockQuantile(data, w, x0, y0, x1, y1, 0.9, hist);

/** Paper level on a coarse grid of an 8-bit grayscale page (w x h px), smoothed; see the module's steps 1-2. */
export function lightField(data: Uint8Array, w: number, h: number): LightField {
  const block = Math.max(8, Math.round(h * BLOCK_OF_HEIGHT));
  const gw = Math.max(1, Math.ceil(w / block)), gh = Math.max(1, Math.ceil(h / block));
  const raw = new Float64Array(gw * gh);
  const hist = new Uint32Array(256);
  for (let by = 0; by < gh; by++) {
    for (let bx = 0; bx < gw; bx++) {
      const x0 = bx * block, y0 = by * block;
      raw[by * gw + bx] = paperLevel(data, w, x0, y0, Math.min(w, x0 + block), Math.min(h, y0 + block), hist);
    }
  }
  const closed = new Float64Array(gw * gh);
  for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) {
    let m = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const yy = y + dy, xx = x + dx;
      if (yy >= 0 && yy < gh && xx >= 0 && xx < gw) m = Math.max(m, raw[yy * gw + xx]);
    }
    closed[y * gw + x] = m;
  }
  const grid = boxMean(boxMean(closed, gw, gh, 2), gw, gh, 2);
  return { grid, gw, gh, block, unevenness: planeSpread(grid, gw, gh) };
}

/** Mean over a (2r+1)^2 window, clipped at the edges. */
function boxMean(g: Float64Array, gw: number, gh: number, r: number): Float64Array {
  const out = new Float64Array(g.length);
  for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) {
    let s = 0, n = 0;
    for (let yy = Math.max(0, y - r); yy <= Math.min(gh - 1, y + r); yy++) for (let xx = Math.max(0, x - r); xx <= Math.min(gw - 1, x + r); xx++) { s += g[yy * gw + xx]; n++; }
    out[y * gw + x] = s / n;
  }
  return out;
}

/** Least-squares plane a + b x + c y through the grid; (max - min) / mean of it over the grid's corners. */
function planeSpread(g: Float64Array, gw: number, gh: number): number {
  // Centred coordinates make the normal equations diagonal.
  const mx = (gw - 1) / 2, my = (gh - 1) / 2;
  let s = 0, sx = 0, sy = 0, xx = 0, yy = 0, xy = 0;
  for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) {
    const v = g[y * gw + x], dx = x - mx, dy = y - my;
    s += v; sx += v * dx; sy += v * dy; xx += dx * dx; yy += dy * dy; xy += dx * dy;
  }
  const n = gw * gh, a = s / n;
  // Solve [xx xy; xy yy] [b c] = [sx sy].
  const det = xx * yy - xy * xy;
  const b = det ? (sx * yy - sy * xy) / det : 0, c = det ? (sy * xx - sx * xy) / det : 0;
  const corners = [a - b * mx - c * my, a + b * mx - c * my, a - b * mx + c * my, a + b * mx + c * my];
  return a > 0 ? (Math.max(...corners) - Math.min(...corners)) / a : 0;
}

/**
 * Divides the paper level out of `data` (in place) when the light is uneven (lightField's unevenness
 * above `threshold`); returns the unevenness measured and whether it flattened. Levels are scaled so
 * the grid's median keeps its level.
 */
export function flattenLight(data: Uint8Array, w: number, h: number, threshold = UNEVEN_LIGHT): { unevenness: number; flattened: boolean } {
  if (w < 16 || h < 16) return { unevenness: 0, flattened: false };
  const f = lightField(data, w, h);
  if (f.unevenness <= threshold) return { unevenness: f.unevenness, flattened: false };
  const sorted = [...f.grid].sort((p, q) => p - q);
  divideByGrid(data, w, h, f, sorted[Math.floor(sorted.length / 2)], 8);
  return { unevenness: f.unevenness, flattened: true };
}

/**
 * Divides a per-block paper level out of `data` (in place): each pixel times `target` over the level
 * interpolated bilinearly between block centres (at least `floor`), clipped to 255.
 */
function divideByGrid(data: Uint8Array, w: number, h: number, field: BlockGrid, target: number, floor: number): void {
  const row = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    gridRow(field, y, row);
    for (let x = 0; x < w; x++) {
      const v = Math.round((data[y * w + x] * target) / Math.max(floor, row[x]));
      data[y * w + x] = v > 255 ? 255 : v;
    }
  }
}

/** A per-block level grid: gw x gh blocks of `block` px, row-major. */
export interface BlockGrid { grid: ArrayLike<number>; gw: number; gh: number; block: number }

/**
 * The levels of `field` along pixel row `y`, into `out` (one per pixel, `out.length` pixels): bilinear
 * between block centres, the edge blocks' levels held beyond them. A row at a time and without a
 * closure per pixel: this runs on every pixel of every page (a per-pixel helper cost ~150 ms a page).
 */
export function gridRow(field: BlockGrid, y: number, out: Float64Array | Float32Array): void {
  const { grid, gw, gh, block } = field;
  const fy = (y + 0.5) / block - 0.5, gy = Math.floor(fy), ty = fy - gy;
  const r0 = Math.min(gh - 1, Math.max(0, gy)) * gw, r1 = Math.min(gh - 1, Math.max(0, gy + 1)) * gw;
  for (let x = 0; x < out.length; x++) {
    const fx = (x + 0.5) / block - 0.5, gx = Math.floor(fx), tx = fx - gx;
    const c0 = Math.min(gw - 1, Math.max(0, gx)), c1 = Math.min(gw - 1, Math.max(0, gx + 1));
    out[x] = (grid[r0 + c0] * (1 - tx) + grid[r0 + c1] * tx) * (1 - ty) + (grid[r1 + c0] * (1 - tx) + grid[r1 + c1] * tx) * ty;
  }
}

/** Share of a block's pixels brighter than its paper level (evenPaper): its upper quartile. */
const PAPER_SHARE = 0.25;

/**
 * Divides the local paper level out of an 8-bit grayscale page (w x h px), in place, so that paper
 * reads white (255) everywhere: each block's (BLOCK_OF_HEIGHT of the height) paper level, the level
 * PAPER_SHARE of its pixels are brighter than, bilinear between block centres. Finer than
 * flattenLight (which smooths over ~9 blocks, for shadows across the card), for the steep light
 * falloff at a photo's corners (vignetting), where the recogniser's own global threshold loses the
 * labels and values printed near the card's edge; not smoothed at all, as the falloff changes within
 * two or three blocks (a 3 x 3 maximum over blocks left those corners dark). Linear time; one 256-bin
 * histogram per block.
 */
export function evenPaper(data: Uint8Array, w: number, h: number): void {
  const block = Math.max(8, Math.round(h * BLOCK_OF_HEIGHT));
  const gw = Math.ceil(w / block), gh = Math.ceil(h / block);
  // Each block's paper: the level PAPER_SHARE of its pixels are brighter than (the noise of a dark
  // corner has bright specks, so not its brightest; value type's strokes cover well under half a block).
  const hists = new Uint32Array(gw * gh * 256);
  for (let y = 0; y < h; y++) {
    const row = Math.floor(y / block) * gw;
    for (let x = 0; x < w; x++) hists[(row + Math.floor(x / block)) * 256 + data[y * w + x]]++;
  }
  const grid = new Uint8Array(gw * gh);
  for (let g = 0; g < gw * gh; g++) {
    const bx = g % gw, by = (g - bx) / gw;
    const n = (Math.min(w, (bx + 1) * block) - bx * block) * (Math.min(h, (by + 1) * block) - by * block);
    let acc = 0, v = 255;
    while (v > 0 && (acc += hists[g * 256 + v]) < PAPER_SHARE * n) v--;
    grid[g] = v;
  }
  divideByGrid(data, w, h, { grid, gw, gh, block }, 255, 16);
}

/**
 * A light plane level(x, y) = a + b x + c y over an image (px); `top`: its highest level over the blocks
 * it was fitted on; `spread`: (top - lowest) / top there.
 */
export interface LightPlane { a: number; b: number; c: number; top: number; spread: number }

/** Relative spread of the frame's light plane above which the whole frame is divided by it. */
export const UNEVEN_FRAME = 0.15;

/**
 * Light plane of a whole frame (card and whatever surrounds it), 8-bit grayscale `data` (w x h px,
 * best a small analysis copy): each block's paper level (90th percentile) on a grid of about 40
 * blocks across, then a least-squares plane through the light blocks only, refitted twice keeping the
 * blocks within 20 % under the plane (a dark table, a dark box on the card and ink fall out). The
 * spread is (max - min) / max of the plane over those blocks. Used before the card is looked for:
 * a shadow across the frame otherwise moves the card/background threshold (Otsu) into the card.
 */
export function framePlane(data: Uint8Array, w: number, h: number): LightPlane {
  const block = Math.max(4, Math.round(Math.max(w, h) / 40));
  const pts: Array<{ x: number; y: number; v: number }> = [];
  const hist = new Uint32Array(256);
  for (let y0 = 0; y0 < h; y0 += block) for (let x0 = 0; x0 < w; x0 += block) {
    const x1 = Math.min(w, x0 + block), y1 = Math.min(h, y0 + block);
    pts.push({ x: (x0 + x1) / 2, y: (y0 + y1) / 2, v: paperLevel(data, w, x0, y0, x1, y1, hist) });
  }
  const flat: LightPlane = { a: 0, b: 0, c: 0, top: 0, spread: 0 };
  if (pts.length < 9) return flat;
  // Start from the light class of the blocks' levels (Otsu over them), then refit on the inliers.
  const levels = new Uint8Array(pts.map((p) => p.v));
  const t = otsu(levels);
  let keep = pts.filter((p) => p.v > t);
  let plane = fit(keep);
  for (let k = 0; k < 2 && plane; k++) {
    const pl: { a: number; b: number; c: number } = plane;
    const next = pts.filter((p) => p.v >= 0.8 * (pl.a + pl.b * p.x + pl.c * p.y));
    if (next.length < 9) break;
    keep = next;
    plane = fit(keep) ?? plane;
  }
  if (!plane || keep.length < 9) return flat;
  const at = (p: { x: number; y: number }): number => plane.a + plane.b * p.x + plane.c * p.y;
  const vals = keep.map(at);
  const max = Math.max(...vals), min = Math.min(...vals);
  return { ...plane, top: max, spread: max > 0 ? (max - Math.max(0, min)) / max : 0 };
}

/** Least-squares plane through points (null when degenerate). */
function fit(ps: Array<{ x: number; y: number; v: number }>): { a: number; b: number; c: number } | null {
  if (ps.length < 3) return null;
  const n = ps.length;
  const mx = ps.reduce((s, p) => s + p.x, 0) / n, my = ps.reduce((s, p) => s + p.y, 0) / n, mv = ps.reduce((s, p) => s + p.v, 0) / n;
  let xx = 0, yy = 0, xy = 0, xv = 0, yv = 0;
  for (const p of ps) {
    const dx = p.x - mx, dy = p.y - my, dv = p.v - mv;
    xx += dx * dx; yy += dy * dy; xy += dx * dy; xv += dx * dv; yv += dy * dv;
  }
  const det = xx * yy - xy * xy;
  if (Math.abs(det) < 1e-9) return null;
  const b = (xv * yy - yv * xy) / det, c = (yv * xx - xv * xy) / det;
  return { a: mv - b * mx - c * my, b, c };
}

/** Otsu's threshold (Otsu 1979) of an 8-bit image. */
export function otsu(data: Uint8Array): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) hist[data[i]]++;
  return otsuOfHistogram(hist);
}

/** Otsu's threshold of a 256-bin histogram: the first level of greatest between-class variance (127 when there is none). */
export function otsuOfHistogram(hist: ArrayLike<number>): number {
  let n = 0, sum = 0;
  for (let i = 0; i < 256; i++) { n += hist[i]; sum += i * hist[i]; }
  let sumB = 0, wB = 0, best = 0, t = 127;
  for (let i = 0; i < 256; i++) {
    wB += hist[i];
    if (!wB) continue;
    const wF = n - wB;
    if (!wF) break;
    sumB += i * hist[i];
    const mB = sumB / wB, mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) { best = between; t = i; }
  }
  return t;
}

/**
 * Keeps the page's Otsu threshold where it was before ink was whitened. Tesseract binarises the page
 * at its Otsu threshold; with less ink that threshold rises (by 1-4 levels on tuning and heldout
 * sides) and pale security print just above the old one turned to ink: on a scanned card (heldout
 * #36, threshold 193 -> 197) it joined the labels' boxes (13 -> 29 px tall) and six fields were lost.
 * Pixels between the old threshold and the new one are raised just above the new one (a few levels,
 * paper either way; where it fell instead, by 1 on 3 of 215 sides, those between are lowered to it,
 * ink either way), until no pixel lies between the two thresholds: the page binarises as it did (at most 5 rounds).
 */
export function keepThreshold(data: Uint8Array, hist: Float64Array, before: number): void {
  // Worked out on the histogram, then applied in one pass through a lookup table.
  const lut = Uint8Array.from({ length: 256 }, (_, v) => v);
  for (let round = 0; round < 5; round++) {
    const t = otsuOfHistogram(hist);
    const lo = Math.min(t, before), hi = Math.max(t, before), to = t > before ? t + 1 : t;
    let moved = 0;
    for (let v = lo + 1; v <= hi; v++) { moved += hist[v]; hist[to] += hist[v]; hist[v] = 0; }
    if (!moved) break;
    for (let v = 0; v < 256; v++) if (lut[v] > lo && lut[v] <= hi) lut[v] = to;
  }
  if (lut.some((v, i) => v !== i)) for (let i = 0; i < data.length; i++) data[i] = lut[data[i]];
}

/**
 * Divides `plane` (fitted on an image `scale` times this one's size) out of 8-bit `data` (w x h px,
 * `channels` interleaved, all scaled alike), in place, so the plane's `top` keeps its level (divisor
 * floored at 30 % of it).
 */
export function dividePlane(data: Uint8Array, w: number, h: number, channels: number, plane: LightPlane, scale: number): void {
  const top = plane.top;
  if (!(top > 0)) return;
  const floor = 0.3 * top;
  for (let y = 0; y < h; y++) {
    const row = plane.a + plane.c * y * scale;
    for (let x = 0; x < w; x++) {
      const k = top / Math.max(floor, row + plane.b * x * scale);
      const i = (y * w + x) * channels;
      for (let ch = 0; ch < channels; ch++) {
        const v = Math.round(data[i + ch] * k);
        data[i + ch] = v > 255 ? 255 : v;
      }
    }
  }
}
