/**
 * A printout whose print head's passes are out of line: an inkjet prints the page in bands (passes) a
 * few px tall along its width, and when the head's two directions of travel are not aligned (a
 * bidirectional printer's alignment off), every other band lands shifted sideways. Each line of type is
 * then cut into strips that are offset by a pixel or more: a vertical stroke becomes a staircase, and the
 * recogniser reads the labels' small type cut that way as noise (a page whose labels are unread is not
 * taken as a CNH, quality.ts looksLikeCnh).
 *
 * Found from the type's own vertical strokes: for every row of every column tile, the sideways shift
 * (-MAX_SHIFT..MAX_SHIFT px, half a px apart) that best matches it to the row above (least absolute
 * difference). In print without the defect the best shift is 0 almost everywhere (a vertical stroke
 * continues; an italic stroke moves by well under a px a row). Out-of-line passes give a square wave:
 * +s at the first row of every other band and -s at the first row of the bands between, at a fixed
 * period (two passes). The shifts are folded modulo each candidate period (fractional: the card's scale
 * on the prepared page is any), along a few slopes (a residual skew); the fold is taken when one phase's
 * mean shift is +s and the phase half a period later -s, each agreeing in sign on MIN_AGREE of their rows,
 * with |s| >= MIN_SHIFT, while the other phases' mean shift stays small. The bands between the +s and
 * the -s boundary are then moved back by s (linear interpolation).
 */

/** Width (px) of the column tiles whose rows are matched. */
const TILE_PX = 256;
/** Largest sideways shift (px) looked for between two rows. */
const MAX_SHIFT = 4;
/** Candidate pass heights (px of the prepared page; the card ~820 px tall). */
const PASSES: readonly [number, number] = [4, 30];
/** Smallest band offset (px) worth mending. */
export const MIN_SHIFT = 1;
/** Share of a boundary phase's shifted rows whose shift has the boundary's sign. */
export const MIN_AGREE = 0.8;
/** Least rows (tile rows) at a boundary phase. */
const MIN_ROWS = 30;
/** The other phases' share of shifted rows must stay under this share of the boundaries'. */
const QUIET = 0.35;
/** Least share by which a shift must match better than none to count (paper's grain gives shifts that barely do). */
const MIN_GAIN = 0.2;
/** Least sum of absolute level differences between a tile row and the row above (per px) for the row to be matched: rows of flat paper say nothing. */
const MIN_DETAIL = 3;

/** What passShiftOf found: pass height (px, fractional), the phase (px into the two-pass cycle) where the shifted band starts, its shift (px), the slope folded along. */
export interface PassShift { pass: number; start: number; shift: number; slope: number; agree: number }

const SLOPES: readonly number[] = Array.from({ length: 5 }, (_, k) => (k - 2) * 0.0025);
const STEPS: readonly number[] = [
  ...Array.from({ length: Math.round((16 - PASSES[0]) / 0.05) }, (_, k) => PASSES[0] + 0.05 * k),
  ...Array.from({ length: Math.round((PASSES[1] - 16) / 0.1) + 1 }, (_, k) => 16 + 0.1 * k),
];

/** Level of row `y` at fractional column `x` (clamped). */
function levelAt(data: Uint8Array, w: number, y: number, x: number): number {
  const xc = Math.min(w - 1.001, Math.max(0, x)), xi = Math.floor(xc), f = xc - xi;
  return data[y * w + xi] * (1 - f) + data[y * w + xi + 1] * f;
}

/** Best shift (px) of each matched row of each tile against the row above; NaN where the row has no detail. */
function rowShifts(data: Uint8Array, w: number, h: number): { shifts: Float32Array[]; tiles: number } {
  const tiles = Math.max(1, Math.floor(w / TILE_PX));
  const shifts: Float32Array[] = [];
  for (let t = 0; t < tiles; t++) {
    const x0 = Math.floor((t * w) / tiles) + MAX_SHIFT, x1 = Math.floor(((t + 1) * w) / tiles) - MAX_SHIFT;
    const out = new Float32Array(h).fill(NaN);
    for (let y = 1; y < h; y++) {
      let detail = 0, n = 0;
      for (let x = x0; x < x1; x += 4, n++) detail += Math.abs(data[y * w + x] - data[(y - 1) * w + x]);
      if (n === 0 || detail / n < MIN_DETAIL) continue;
      let best = Infinity, at = 0, still = 0;
      for (let s = -MAX_SHIFT; s <= MAX_SHIFT; s += 0.5) {
        let c = 0;
        for (let x = x0; x < x1; x += 4) c += Math.abs(data[y * w + x] - levelAt(data, w, y - 1, x + s));
        if (s === 0) still = c;
        if (c < best - 1e-9 || (Math.abs(c - best) < 1e-9 && Math.abs(s) < Math.abs(at))) { best = c; at = s; }
      }
      // A shift under MIN_SHIFT, or one that matches barely better than none (paper's grain, noise), is none.
      out[y] = Math.abs(at) >= MIN_SHIFT && best < (1 - MIN_GAIN) * still ? at : 0;
    }
    shifts.push(out);
  }
  return { shifts, tiles };
}

/**
 * The passes out of line on a grey page (`data`, w x h, 8 bit), or null (see the module's comment).
 * Cost: the row matching (17 shifts over every fourth px of the page: 0.3-1.3 s wall on a 2600 x 820 page at load 8-12, not measured alone) and the folds.
 */
export function passShiftOf(data: Uint8Array, w: number, h: number): PassShift | null {
  if (w < 2 * TILE_PX || h < 4 * PASSES[1]) return null;
  const { shifts, tiles } = rowShifts(data, w, h);
  const rows = shifts.map((s) => { const r: number[] = []; for (let y = 0; y < h; y++) if (!Number.isNaN(s[y])) r.push(y); return r; });
  let best: PassShift | null = null, bestScore = 0;
  for (const slope of SLOPES) {
    const lift = Array.from({ length: tiles }, (_, t) => slope * ((t + 0.5) * w) / tiles);
    for (const pass of STEPS) {
      const cycle = 2 * pass, bins = Math.ceil(cycle);
      const sum = new Float64Array(bins), n = new Float64Array(bins), pos = new Float64Array(bins), neg = new Float64Array(bins), sumPos = new Float64Array(bins), sumNeg = new Float64Array(bins);
      for (let t = 0; t < tiles; t++) {
        for (const y of rows[t]) {
          const f = Math.floor((((y + lift[t]) % cycle) + cycle) % cycle), s = shifts[t][y];
          sum[f] += s; n[f]++;
          if (s > 0) { pos[f]++; sumPos[f] += s; } else if (s < 0) { neg[f]++; sumNeg[f] -= s; }
        }
      }
      let up = -1, down = -1;
      for (let f = 0; f < bins; f++) {
        if (n[f] < MIN_ROWS) continue;
        if (up < 0 || sum[f] / n[f] > sum[up] / n[up]) up = f;
        if (down < 0 || sum[f] / n[f] < sum[down] / n[down]) down = f;
      }
      if (up < 0 || down < 0) continue;
      // The two boundaries half a cycle apart (within a bin), of opposite sign, each agreeing on its shifted rows.
      const apart = Math.abs(((down - up + bins) % bins) - pass);
      if (apart > 1.5 || pos[up] < MIN_ROWS / 2 || neg[down] < MIN_ROWS / 2) continue;
      const agree = Math.min(pos[up] / (pos[up] + neg[up]), neg[down] / (pos[down] + neg[down]));
      if (agree < MIN_AGREE) continue;
      const s = (sumPos[up] / pos[up] + sumNeg[down] / neg[down]) / 2;
      if (s < MIN_SHIFT) continue;
      // Elsewhere rows rarely shift: their share of shifted rows under QUIET of the boundaries'.
      let moved = 0, qn = 0;
      for (let f = 0; f < bins; f++) {
        const near = (g: number): boolean => Math.min((f - g + bins) % bins, (g - f + bins) % bins) <= 1;
        if (near(up) || near(down)) continue;
        moved += pos[f] + neg[f]; qn += n[f];
      }
      const edge = Math.min(pos[up] / n[up], neg[down] / n[down]);
      if (qn > 0 && moved / qn > QUIET * edge) continue;
      const score = edge * agree;
      if (score > bestScore * 1.05) { bestScore = score; best = { pass, start: up, shift: s, slope, agree }; }
    }
  }
  return best;
}

/**
 * Moves the out-of-line bands of `data` (in place) back by p.shift: the rows from each +shift boundary
 * to the next -shift boundary (p.start to p.start + p.pass in the two-pass cycle, along p.slope).
 * A row whose best match is the row above shifted by +s (I(x, y) = I(x + s, y - 1)) shows that row's
 * content moved s px left, so the band is read back s px to the right: I'(x) = I(x - s).
 */
export function alignPasses(data: Uint8Array, w: number, h: number, p: PassShift): void {
  const tiles = Math.max(1, Math.floor(w / TILE_PX));
  const cycle = 2 * p.pass;
  const row = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    let any = false;
    for (let x = 0; x < w; x++) {
      const t = Math.min(tiles - 1, Math.floor((x * tiles) / w));
      const lift = p.slope * ((t + 0.5) * w) / tiles;
      const f = ((((y + lift) % cycle) + cycle) % cycle) - p.start;
      const inside = ((f % cycle) + cycle) % cycle < p.pass;
      row[x] = inside ? levelAt(data, w, y, x - p.shift) : data[y * w + x];
      any ||= inside;
    }
    if (any) for (let x = 0; x < w; x++) data[y * w + x] = Math.round(row[x]);
  }
}
