import { Parameters } from '../parameters.js';
import type { GrayImage } from '../images/gray-image.js';

/** Block grid over an image: `columns x rows` blocks of `blockSize` px (edge blocks may be smaller). */
export interface BlockGrid {
  blockSize: number;
  columns: number;
  rows: number;
}

/** Per-block histograms (256 bins each, row-major blocks) and block foreground mask. */
export interface Segmentation {
  grid: BlockGrid;
  /** `columns*rows*256` pixel counts (LocalHistograms in SourceAFIS terms). */
  histograms: Uint32Array;
  /** Clipped contrast per block, 0..255. */
  contrast: Float32Array;
  /** 1 = fingerprint area, per block. */
  blockMask: Uint8Array;
  /** 1 = fingerprint area, per pixel. */
  pixelMask: Uint8Array;
}

export function makeGrid(width: number, height: number, blockSize: number): BlockGrid {
  return { blockSize, columns: Math.ceil(width / blockSize), rows: Math.ceil(height / blockSize) };
}

/** Majority vote over a (2r+1)^2 block window; pixels outside the grid count as background. */
function voteFilter(mask: Uint8Array, columns: number, rows: number, radius: number, majority: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      let ones = 0;
      let total = 0;
      for (let dy = -radius; dy <= radius; dy++) {
        const yy = y + dy;
        for (let dx = -radius; dx <= radius; dx++) {
          const xx = x + dx;
          total++;
          if (yy >= 0 && yy < rows && xx >= 0 && xx < columns) ones += mask[yy * columns + xx];
        }
      }
      out[y * columns + x] = ones >= majority * total ? 1 : 0;
    }
  }
  return out;
}

/** Fills background holes not connected to the grid border (flood fill from the border). */
function fillHoles(mask: Uint8Array, columns: number, rows: number): void {
  const outside = new Uint8Array(mask.length);
  const stack: number[] = [];
  const push = (i: number) => {
    if (!mask[i] && !outside[i]) {
      outside[i] = 1;
      stack.push(i);
    }
  };
  for (let x = 0; x < columns; x++) {
    push(x);
    push((rows - 1) * columns + x);
  }
  for (let y = 0; y < rows; y++) {
    push(y * columns);
    push(y * columns + columns - 1);
  }
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % columns;
    const y = (i - x) / columns;
    if (x > 0) push(i - 1);
    if (x < columns - 1) push(i + 1);
    if (y > 0) push(i - columns);
    if (y < rows - 1) push(i + columns);
  }
  for (let i = 0; i < mask.length; i++) if (!outside[i]) mask[i] = 1;
}

/** Keeps only the largest 4-connected foreground component. */
function keepLargestComponent(mask: Uint8Array, columns: number, rows: number): void {
  const label = new Int32Array(mask.length);
  let best = 0;
  let bestSize = 0;
  let next = 0;
  const stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || label[s]) continue;
    next++;
    let size = 0;
    label[s] = next;
    stack.push(s);
    while (stack.length) {
      const i = stack.pop()!;
      size++;
      const x = i % columns;
      const y = (i - x) / columns;
      const visit = (j: number) => {
        if (mask[j] && !label[j]) {
          label[j] = next;
          stack.push(j);
        }
      };
      if (x > 0) visit(i - 1);
      if (x < columns - 1) visit(i + 1);
      if (y > 0) visit(i - columns);
      if (y < rows - 1) visit(i + columns);
    }
    if (size > bestSize) {
      bestSize = size;
      best = next;
    }
  }
  for (let i = 0; i < mask.length; i++) mask[i] = label[i] === best && best > 0 ? 1 : 0;
}

/**
 * Segments the fingerprint area: local histograms per block, clipped contrast, absolute and relative
 * contrast masks, vote filter, hole filling and largest component (after SourceAFIS `LocalHistograms`,
 * `ClippedContrast`, `AbsoluteContrastMask`, `RelativeContrastMask`, `SegmentationMask`).
 * Input: gray image at 500 dpi. Output masks per block and per pixel.
 */
export function segment(image: GrayImage): Segmentation {
  const { width, height, pixels } = image;
  const grid = makeGrid(width, height, Parameters.blockSizePx);
  const { columns, rows, blockSize } = grid;
  const blocks = columns * rows;
  const histograms = new Uint32Array(blocks * 256);
  for (let y = 0; y < height; y++) {
    const rowBlock = ((y / blockSize) | 0) * columns;
    for (let x = 0; x < width; x++) {
      histograms[(rowBlock + ((x / blockSize) | 0)) * 256 + pixels[y * width + x]]++;
    }
  }
  const contrast = new Float32Array(blocks);
  for (let b = 0; b < blocks; b++) {
    const base = b * 256;
    let total = 0;
    for (let v = 0; v < 256; v++) total += histograms[base + v];
    const clip = Math.round(total * Parameters.clippedContrast);
    let low = 0;
    for (let acc = 0; low < 255; low++) {
      acc += histograms[base + low];
      if (acc > clip) break;
    }
    let high = 255;
    for (let acc = 0; high > 0; high--) {
      acc += histograms[base + high];
      if (acc > clip) break;
    }
    contrast[b] = Math.max(0, high - low);
  }
  const sorted = Array.from(contrast).sort((a, b) => b - a);
  const sample = Math.max(1, Math.min(sorted.length, Math.round(Parameters.relativeContrastSampleArea / (blockSize * blockSize))));
  let sum = 0;
  for (let i = 0; i < sample; i++) sum += sorted[i];
  const relativeLimit = (sum / sample) * Parameters.relativeContrastPercentile;
  let blockMask: Uint8Array = new Uint8Array(blocks);
  for (let b = 0; b < blocks; b++) {
    blockMask[b] = contrast[b] >= Parameters.minAbsoluteContrast && contrast[b] >= relativeLimit ? 1 : 0;
  }
  blockMask = voteFilter(blockMask, columns, rows, Parameters.maskVoteRadius, Parameters.maskVoteMajority);
  fillHoles(blockMask, columns, rows);
  keepLargestComponent(blockMask, columns, rows);
  const pixelMask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const rowBlock = ((y / blockSize) | 0) * columns;
    for (let x = 0; x < width; x++) pixelMask[y * width + x] = blockMask[rowBlock + ((x / blockSize) | 0)];
  }
  return { grid, histograms, contrast, blockMask, pixelMask };
}

/**
 * Erodes a pixel mask by `radius` px (square structuring element, separable; outside = background).
 * Used for the inner mask that keeps minutiae away from the fingerprint's edge.
 */
export function erodeMask(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const tmp = new Uint8Array(mask.length);
  const out = new Uint8Array(mask.length);
  const left = new Int32Array(width);
  for (let y = 0; y < height; y++) {
    let run = 0;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      run = mask[row + x] ? run + 1 : 0;
      left[x] = run;
    }
    run = 0;
    for (let x = width - 1; x >= 0; x--) {
      run = mask[row + x] ? run + 1 : 0;
      tmp[row + x] = left[x] > radius && run > radius ? 1 : 0;
    }
  }
  const up = new Int32Array(height);
  for (let x = 0; x < width; x++) {
    let run = 0;
    for (let y = 0; y < height; y++) {
      run = tmp[y * width + x] ? run + 1 : 0;
      up[y] = run;
    }
    run = 0;
    for (let y = height - 1; y >= 0; y--) {
      run = tmp[y * width + x] ? run + 1 : 0;
      out[y * width + x] = up[y] > radius && run > radius ? 1 : 0;
    }
  }
  return out;
}

/**
 * Crops an image and its segmentation to the foreground blocks plus a one-block margin, on block
 * boundaries, so that every later stage works only where the fingerprint is (same block grid, same
 * histograms). Returns the crop and its offset (px) in the input image.
 */
export function cropToForeground(image: GrayImage, segmentation: Segmentation): { image: GrayImage; segmentation: Segmentation; offsetX: number; offsetY: number } {
  const { columns, rows, blockSize } = segmentation.grid;
  let bx0 = columns;
  let bx1 = -1;
  let by0 = rows;
  let by1 = -1;
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < columns; bx++) {
      if (!segmentation.blockMask[by * columns + bx]) continue;
      if (bx < bx0) bx0 = bx;
      if (bx > bx1) bx1 = bx;
      if (by < by0) by0 = by;
      if (by > by1) by1 = by;
    }
  }
  if (bx1 < 0) return { image, segmentation, offsetX: 0, offsetY: 0 };
  bx0 = Math.max(0, bx0 - 1);
  by0 = Math.max(0, by0 - 1);
  bx1 = Math.min(columns - 1, bx1 + 1);
  by1 = Math.min(rows - 1, by1 + 1);
  const offsetX = bx0 * blockSize;
  const offsetY = by0 * blockSize;
  const width = Math.min(image.width, (bx1 + 1) * blockSize) - offsetX;
  const height = Math.min(image.height, (by1 + 1) * blockSize) - offsetY;
  const pixels = new Uint8Array(width * height);
  const pixelMask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (y + offsetY) * image.width + offsetX;
    pixels.set(image.pixels.subarray(from, from + width), y * width);
    pixelMask.set(segmentation.pixelMask.subarray(from, from + width), y * width);
  }
  const cropColumns = bx1 - bx0 + 1;
  const cropRows = by1 - by0 + 1;
  const histograms = new Uint32Array(cropColumns * cropRows * 256);
  const contrast = new Float32Array(cropColumns * cropRows);
  const blockMask = new Uint8Array(cropColumns * cropRows);
  for (let by = 0; by < cropRows; by++) {
    for (let bx = 0; bx < cropColumns; bx++) {
      const src = (by + by0) * columns + bx + bx0;
      const dst = by * cropColumns + bx;
      histograms.set(segmentation.histograms.subarray(src * 256, src * 256 + 256), dst * 256);
      contrast[dst] = segmentation.contrast[src];
      blockMask[dst] = segmentation.blockMask[src];
    }
  }
  return {
    image: { width, height, pixels },
    segmentation: { grid: { blockSize, columns: cropColumns, rows: cropRows }, histograms, contrast, blockMask, pixelMask },
    offsetX,
    offsetY,
  };
}

/** Per row, the first and last mask column (`rowMax < 0` when the row has no mask pixel). */
export function maskRowExtents(mask: Uint8Array, width: number, height: number): { rowMin: Int32Array; rowMax: Int32Array } {
  const rowMin = new Int32Array(height).fill(width);
  const rowMax = new Int32Array(height).fill(-1);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x = 0;
    while (x < width && !mask[row + x]) x++;
    if (x === width) continue;
    rowMin[y] = x;
    x = width - 1;
    while (!mask[row + x]) x--;
    rowMax[y] = x;
  }
  return { rowMin, rowMax };
}

/**
 * Per row y, the column range [lo[y], hi[y]] (inclusive, clipped to the image) of pixels within
 * `margin` px (Chebyshev distance, by rows then columns) of a mask pixel; `hi[y] < lo[y]` when none.
 * Later stages compute only inside these spans.
 */
export function maskRowSpans(mask: Uint8Array, width: number, height: number, margin: number): { lo: Int32Array; hi: Int32Array } {
  const { rowMin, rowMax } = maskRowExtents(mask, width, height);
  const lo = new Int32Array(height);
  const hi = new Int32Array(height);
  for (let y = 0; y < height; y++) {
    let a = width;
    let b = -1;
    for (let r = Math.max(0, y - margin); r <= Math.min(height - 1, y + margin); r++) {
      if (rowMin[r] < a) a = rowMin[r];
      if (rowMax[r] > b) b = rowMax[r];
    }
    lo[y] = b < 0 ? width : Math.max(0, a - margin);
    hi[y] = b < 0 ? -1 : Math.min(width - 1, b + margin);
  }
  return { lo, hi };
}
