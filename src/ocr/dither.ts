/**
 * A frame posterised with an ordered dither (a scanner's halftone mode, a picture passed through a
 * few-colour converter): each channel quantised to a few levels against a threshold matrix tiled over the
 * frame (Bayer 1973: 2 x 2, 4 x 4, 8 x 8 cells, each cell one or more pixels). Grey becomes a fine
 * pattern of full-strength dots whose local mean is the grey; the recogniser reads the dots as ink (type
 * broken into stipple, paper peppered). Measured on the decoded frame (before any resize, turn or warp
 * mixes its pixels) and undone there by averaging each pixel over one whole period of the pattern.
 *
 * The tell (any period, any level count, colour or grey): the threshold matrix repeats every P pixels
 * across and down, so over flat and slowly varying parts of the frame a pixel equals the one P pixels
 * away, while pixels nearer than P differ by whole quantisation steps. The mean absolute difference
 * between pixels k apart, D(k), therefore falls at k = P far below its values at shorter lags, across and
 * down alike. A natural frame's D(k) grows with k (nearer pixels are more alike), sensor noise's is flat,
 * an interlaced comb repeats down only, a moiré grating is smooth (small D(1)) and repeats along one
 * direction: none falls to half at the same lag both ways with large steps before it.
 *
 * The smoothing: a P x P box mean, which cancels every harmonic of a pattern of period P exactly (its
 * transfer function is zero at every multiple of 1 / P) and keeps the local mean, i.e. the grey the dither
 * encoded; the box is capped at MAX_SMOOTHING_BOX (4 px), which keeps small type's strokes. Source of the idea: inverse halftoning by low-pass filtering (e.g. Wong 1995, "Inverse
 * halftoning and kernel estimation for error diffusion"; the classic descreen of a known screen period).
 */

/** Longest lag (px) looked at: a 8 x 8 matrix of 2 x 2 px cells; a longer period is left as it is. */
export const MAX_DITHER_PERIOD = 16;
/** D(P) must be under this share of the largest D at a shorter lag, across and down, for a period P. */
export const DITHER_RATIO = 0.5;
/** The largest D at a shorter lag must reach this many levels: a dither's steps are a quarter of the range and more. */
export const DITHER_MIN_STEP = 24;
/** A multiple of the first period found is the period when D falls there under this share of D at the one taken so far, across and down. */
export const SUB_PERIOD_RATIO = 0.7;
/** ... and only when D at the period taken so far is at least this many levels (a residue worth a wider box; under it, JPEG noise and content). */
export const SUB_PERIOD_MIN = 6;
/**
 * The widest box the smoothing uses (px). A box as wide as an 8 px pattern also erases the strokes of small
 * type (final22 #27, period 8: four right values lost at 8 px, none at 4); over an 8 x 8 matrix, pixels 4
 * apart differ only in its lowest bits, whose swing a 4 px box leaves small.
 */
export const MAX_SMOOTHING_BOX = 4;
/** Lags looked at first (across): a dither whose cells are at most this wide shows its steps within them. */
const EARLY_LAG = 4;
/** Rows (and columns) sampled for D: about this many, evenly spread. */
const SAMPLE_LINES = 160;

/** A frame's dither pattern as measured. */
export interface DitherPattern {
  /** The pattern's period (px), across and down. */
  period: number;
  /** The larger (across or down) of D(period) over the largest D at a shorter lag. */
  ratio: number;
  /** The smaller (across or down) of the largest D at a lag shorter than the period (levels). */
  step: number;
}

/**
 * Mean absolute differences of band `band` of `data` (w x h, `ch` interleaved bands) between pixels k
 * apart across (`down` false) or down, for k = 1 .. MAX_DITHER_PERIOD (index k; index 0 unused), over
 * about SAMPLE_LINES rows (across) or row pairs (down).
 */
function lagDifferences(data: Uint8Array, w: number, h: number, ch: number, band: number, down: boolean, maxLag = MAX_DITHER_PERIOD): Float64Array {
  const d = new Float64Array(MAX_DITHER_PERIOD + 1);
  const counts = new Float64Array(MAX_DITHER_PERIOD + 1);
  const stepY = Math.max(1, Math.floor(h / SAMPLE_LINES));
  const stepX = down ? Math.max(1, Math.floor(w / 400)) : 1;
  for (let y = 0; y < h; y += stepY) {
    const row = y * w;
    for (let k = 1; k <= maxLag; k++) {
      if (down ? y + k >= h : k >= w) break;
      let s = 0, n = 0;
      const lastX = down ? w : w - k;
      const off = down ? k * w : k;
      for (let x = 0; x < lastX; x += stepX, n++) {
        const i = (row + x) * ch + band;
        s += Math.abs(data[i] - data[i + off * ch]);
      }
      d[k] += s;
      counts[k] += n;
    }
  }
  for (let k = 1; k <= maxLag; k++) d[k] = counts[k] ? d[k] / counts[k] : 0;
  return d;
}

/**
 * The ordered dither's pattern of a frame (`data`: w x h pixels, `ch` interleaved bands, measured on band
 * `band`), or null when it shows none: the smallest lag P (2 .. MAX_DITHER_PERIOD) at which D(P), across
 * and down, is under DITHER_RATIO of the largest D at a shorter lag, that largest D at least
 * DITHER_MIN_STEP levels both ways (module comment). Cost: ~2 x 16 passes over ~SAMPLE_LINES rows.
 */
export function ditherPattern(data: Uint8Array, w: number, h: number, ch = 1, band = 0): DitherPattern | null {
  if (w < 4 * MAX_DITHER_PERIOD || h < 4 * MAX_DITHER_PERIOD) return null;
  // A frame whose pixels up to EARLY_LAG apart differ by less than a step across is no dither (every
  // clean, noisy, blurred frame): a quarter of the cost.
  const near = lagDifferences(data, w, h, ch, band, false, EARLY_LAG);
  if (Math.max(...near.subarray(1)) < DITHER_MIN_STEP) return null;
  const across = lagDifferences(data, w, h, ch, band, false);
  const down = lagDifferences(data, w, h, ch, band, true);
  let maxA = across[1], maxD = down[1];
  for (let p = 2; p <= MAX_DITHER_PERIOD; p++) {
    const step = Math.min(maxA, maxD);
    const ratio = Math.max(across[p] / maxA, down[p] / maxD);
    if (step >= DITHER_MIN_STEP && ratio < DITHER_RATIO) {
      // A matrix's coarser bits repeat at a multiple of the first period found (an 8 x 8 matrix's pixels 4
      // apart differ only in its lowest bits): the period is the multiple at which D falls further still.
      let period = p, r = ratio;
      for (let q = 2 * p; q <= MAX_DITHER_PERIOD; q += p) {
        if (Math.min(across[period], down[period]) >= SUB_PERIOD_MIN && across[q] < SUB_PERIOD_RATIO * across[period] && down[q] < SUB_PERIOD_RATIO * down[period]) {
          period = q;
          r = Math.max(across[q] / maxA, down[q] / maxD);
        }
      }
      return { period, ratio: r, step };
    }
    maxA = Math.max(maxA, across[p]);
    maxD = Math.max(maxD, down[p]);
  }
  return null;
}

/**
 * Every band of `data` (w x h, `ch` interleaved bands) replaced in place by its mean over the `p` x `p`
 * box around each pixel (clamped at the edges): separable running sums, O(w h ch) whatever `p`.
 */
export function boxMean(data: Uint8Array, w: number, h: number, ch: number, p: number): void {
  const lo = Math.floor((p - 1) / 2), hi = p - 1 - lo;
  const tmp = new Float32Array(w * h);
  const line = new Float64Array(Math.max(w, h) + 1);
  for (let b = 0; b < ch; b++) {
    // Across: prefix sums of each row, the window clamped to the row.
    for (let y = 0; y < h; y++) {
      const row = y * w;
      line[0] = 0;
      for (let x = 0; x < w; x++) line[x + 1] = line[x] + data[(row + x) * ch + b];
      for (let x = 0; x < w; x++) {
        const a = Math.max(0, x - lo), z = Math.min(w - 1, x + hi);
        tmp[row + x] = (line[z + 1] - line[a]) / (z - a + 1);
      }
    }
    // Down: the same over each column of the across means.
    for (let x = 0; x < w; x++) {
      line[0] = 0;
      for (let y = 0; y < h; y++) line[y + 1] = line[y] + tmp[y * w + x];
      for (let y = 0; y < h; y++) {
        const a = Math.max(0, y - lo), z = Math.min(h - 1, y + hi);
        data[(y * w + x) * ch + b] = Math.round((line[z + 1] - line[a]) / (z - a + 1));
      }
    }
  }
}

/**
 * A frame's ordered dither undone in place (`data`: w x h, `ch` interleaved bands, measured on band
 * `band`): when ditherPattern finds one, every band is averaged over one period, at most MAX_SMOOTHING_BOX
 * (boxMean). Returns the pattern found (its period as measured), or null (the frame untouched).
 */
export function undither(data: Uint8Array, w: number, h: number, ch = 1, band = 0): DitherPattern | null {
  const pattern = ditherPattern(data, w, h, ch, band);
  if (pattern) boxMean(data, w, h, ch, Math.min(pattern.period, MAX_SMOOTHING_BOX));
  return pattern;
}
