import { Parameters } from '../parameters.js';
import { maskRowExtents } from './segmentation.js';

/** Integer pixel offsets along a line through the origin, `2r+1` per orientation bin, flat. */
function lineOffsets(bins: number, radius: number, angleShift: number, stride: number, step = 1): Int32Array {
  const n = 2 * Math.floor(radius / step) + 1;
  const flat = new Int32Array(bins * n);
  for (let k = 0; k < bins; k++) {
    const angle = (k * Math.PI) / bins + angleShift;
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    for (let i = 0; i < n; i++) {
      const t = (i - (n - 1) / 2) * step;
      flat[k * n + i] = Math.round(t * c) + Math.round(t * s) * stride;
    }
  }
  return flat;
}

/**
 * One row of the along-ridge pass for 15-tap lines (the default radius 7, step 1): the offsets of the
 * current orientation bin stay in locals while the bin does not change along the row. Same sums, same
 * order as the generic loop.
 */
function parallelRow15(
  padded: Float32Array,
  smoothed: Float32Array,
  parallel: Int32Array,
  pixelBins: Uint8Array,
  binRow: number,
  width: number,
  row: number,
  x0: number,
  x1: number,
): void {
  let bin = -1;
  let o0 = 0, o1 = 0, o2 = 0, o3 = 0, o4 = 0, o5 = 0, o6 = 0, o7 = 0, o8 = 0, o9 = 0, o10 = 0, o11 = 0, o12 = 0, o13 = 0, o14 = 0;
  for (let x = x0; x <= x1; x++) {
    const xc = x < 0 ? 0 : x >= width ? width - 1 : x;
    const b = pixelBins[binRow + xc];
    if (b !== bin) {
      bin = b;
      const k = b * 15;
      o0 = parallel[k]; o1 = parallel[k + 1]; o2 = parallel[k + 2]; o3 = parallel[k + 3]; o4 = parallel[k + 4];
      o5 = parallel[k + 5]; o6 = parallel[k + 6]; o7 = parallel[k + 7]; o8 = parallel[k + 8]; o9 = parallel[k + 9];
      o10 = parallel[k + 10]; o11 = parallel[k + 11]; o12 = parallel[k + 12]; o13 = parallel[k + 13]; o14 = parallel[k + 14];
    }
    const p = row + x;
    let sum = 0;
    sum += padded[p + o0];
    sum += padded[p + o1];
    sum += padded[p + o2];
    sum += padded[p + o3];
    sum += padded[p + o4];
    sum += padded[p + o5];
    sum += padded[p + o6];
    sum += padded[p + o7];
    sum += padded[p + o8];
    sum += padded[p + o9];
    sum += padded[p + o10];
    sum += padded[p + o11];
    sum += padded[p + o12];
    sum += padded[p + o13];
    sum += padded[p + o14];
    smoothed[p] = sum;
  }
}

/** One row of the across-ridge pass and binarisation for 9-tap lines (radius 4), like `parallelRow15`. */
function orthogonalRow9(
  smoothed: Float32Array,
  binary: Uint8Array,
  orthogonal: Int32Array,
  pixelBins: Uint8Array,
  mask: Uint8Array,
  rowStart: number,
  width: number,
  paddedRow: number,
): void {
  let bin = -1;
  let o0 = 0, o1 = 0, o2 = 0, o3 = 0, o4 = 0, o5 = 0, o6 = 0, o7 = 0, o8 = 0;
  for (let x = 0; x < width; x++) {
    const i = rowStart + x;
    if (!mask[i]) continue;
    const b = pixelBins[i];
    if (b !== bin) {
      bin = b;
      const k = b * 9;
      o0 = orthogonal[k]; o1 = orthogonal[k + 1]; o2 = orthogonal[k + 2]; o3 = orthogonal[k + 3]; o4 = orthogonal[k + 4];
      o5 = orthogonal[k + 5]; o6 = orthogonal[k + 6]; o7 = orthogonal[k + 7]; o8 = orthogonal[k + 8];
    }
    const p = paddedRow + x;
    let sum = 0;
    sum += smoothed[p + o0];
    sum += smoothed[p + o1];
    sum += smoothed[p + o2];
    sum += smoothed[p + o3];
    sum += smoothed[p + o4];
    sum += smoothed[p + o5];
    sum += smoothed[p + o6];
    sum += smoothed[p + o7];
    sum += smoothed[p + o8];
    binary[i] = smoothed[p] * 9 < sum ? 1 : 0;
  }
}

/**
 * Oriented smoothing and binarisation (after SourceAFIS `OrientedSmoothing` + `BinarizedImage`):
 * average along the ridge (radius `parallelSmoothingRadius`), then across it (`orthogonalSmoothingRadius`);
 * a pixel is ridge when its along-ridge average is darker than the across-ridge local mean.
 * Input: equalised image [-1,1], per-pixel orientation bins, pixel mask. Output: 1 = ridge pixel.
 */
export function smoothAndBinarize(
  equalized: Float32Array,
  pixelBins: Uint8Array,
  bins: number,
  mask: Uint8Array,
  width: number,
  height: number,
): Uint8Array {
  const pad = Math.max(Parameters.parallelSmoothingRadius, Parameters.orthogonalSmoothingRadius) + 1;
  const pw = width + 2 * pad;
  const ph = height + 2 * pad;
  const padded = new Float32Array(pw * ph);
  for (let y = 0; y < height; y++) padded.set(equalized.subarray(y * width, (y + 1) * width), (y + pad) * pw + pad);
  const parallel = lineOffsets(bins, Parameters.parallelSmoothingRadius, 0, pw, Parameters.parallelSmoothingStep);
  const orthogonal = lineOffsets(bins, Parameters.orthogonalSmoothingRadius, Math.PI / 2, pw);
  const smoothed = new Float32Array(pw * ph);
  const pn = parallel.length / bins;
  // parallel pass needs the orthogonal radius margin around the mask too; compute it on a dilated box
  // the parallel pass is needed within the orthogonal radius of the mask: per row, the span of mask
  // pixels in the rows within that radius, widened by it
  const margin = Parameters.orthogonalSmoothingRadius;
  const { rowMin, rowMax } = maskRowExtents(mask, width, height);
  for (let y = -margin; y < height + margin; y++) {
    let lo = width;
    let hi = -1;
    for (let r = Math.max(0, y - margin); r <= Math.min(height - 1, y + margin); r++) {
      if (rowMin[r] < lo) lo = rowMin[r];
      if (rowMax[r] > hi) hi = rowMax[r];
    }
    if (hi < 0) continue;
    const yc = y < 0 ? 0 : y >= height ? height - 1 : y;
    const row = (y + pad) * pw + pad;
    const x1 = Math.min(width + margin - 1, hi + margin);
    const x0 = Math.max(-margin, lo - margin);
    if (pn === 15) parallelRow15(padded, smoothed, parallel, pixelBins, yc * width, width, row, x0, x1);
    else {
      for (let x = x0; x <= x1; x++) {
        const xc = x < 0 ? 0 : x >= width ? width - 1 : x;
        const base = pixelBins[yc * width + xc] * pn;
        const p = row + x;
        let sum = 0;
        for (let t = 0; t < pn; t++) sum += padded[p + parallel[base + t]];
        smoothed[p] = sum;
      }
    }
  }
  const on = 2 * Parameters.orthogonalSmoothingRadius + 1;
  const binary = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    if (on === 9) {
      orthogonalRow9(smoothed, binary, orthogonal, pixelBins, mask, y * width, width, (y + pad) * pw + pad);
      continue;
    }
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      const base = pixelBins[i] * on;
      const p = (y + pad) * pw + x + pad;
      let sum = 0;
      for (let t = 0; t < on; t++) sum += smoothed[p + orthogonal[base + t]];
      binary[i] = smoothed[p] * on < sum ? 1 : 0;
    }
  }
  return binary;
}

/**
 * Majority vote clean-up of a binary image (removes small islands and fills small holes): a pixel
 * flips when at least `majority` of its (2r+1)^2 window disagrees with it. Integral-image based, O(pixels).
 */
export function voteCleanup(binary: Uint8Array, mask: Uint8Array, width: number, height: number): Uint8Array {
  const r = Parameters.binarizedVoteRadius;
  const majority = Parameters.binarizedVoteMajority;
  const iw = width + 1;
  const integral = new Int32Array(iw * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += binary[y * width + x];
      integral[(y + 1) * iw + x + 1] = integral[y * iw + x + 1] + row;
    }
  }
  const out = new Uint8Array(binary.length);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height, y + r + 1);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width, x + r + 1);
      const total = (y1 - y0) * (x1 - x0);
      const ones = integral[y1 * iw + x1] - integral[y0 * iw + x1] - integral[y1 * iw + x0] + integral[y0 * iw + x0];
      if (binary[i]) out[i] = total - ones >= majority * total ? 0 : 1;
      else out[i] = ones >= majority * total ? 1 : 0;
    }
  }
  return out;
}
