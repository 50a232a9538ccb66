/**
 * Image assembly for sensors that deliver a finger in pieces, ported from libfprint's
 * fpi-assembling.c (LGPL-2.1, snapshot 1f5e082) so replays reproduce its images bit for bit:
 * - frame assembly (swipe over a small area sensor, e.g. Elan): movement estimation between
 *   consecutive frames by exhaustive block matching (dy 2..h-1, dx -8..7, mean absolute
 *   difference), tried in both directions, then frames blitted at their cumulative offsets;
 * - line assembly (two-line swipe sensors, e.g. VFS5011): per pair of lines the best matching later
 *   line gives the swipe speed, a median filter smooths it, and lines are interpolated onto a
 *   uniform grid in 16.16 fixed point.
 * Integer arithmetic follows the C code (unsigned 32-bit wrap where the C code wraps).
 */

/** One frame of `widthPx * heightPx` grey pixels (row-major) with its offset to the previous frame. */
export interface Frame {
  pixels: Uint8Array;
  deltaX: number;
  deltaY: number;
}

/** Error of overlaying `second` shifted by (dx, dy) on `first`, normalised to the full frame area. */
function calcError(w: number, h: number, first: Uint8Array, second: Uint8Array, dx: number, dy: number): number {
  const width = w - Math.abs(dx);
  const height = h - dy;
  if (height <= 0 || width <= 0) return 0x7fffffff;
  let err = 0;
  const x1s = dx < 0 ? 0 : dx;
  const x2s = dx < 0 ? -dx : 0;
  for (let i = 0; i < height; i++) {
    const r1 = i * w + x1s;
    const r2 = (i + dy) * w + x2s;
    for (let j = 0; j < width; j++) err += Math.abs(first[r1 + j]! - second[r2 + j]!);
  }
  // unsigned int arithmetic: err *= h*w wraps at 2^32 before the division
  return Math.floor(((err * h * w) % 0x100000000) / (height * width));
}

function findOverlap(w: number, h: number, first: Uint8Array, second: Uint8Array, out: Frame): number {
  let min = 255 * h * w;
  for (let dy = 2; dy < h; dy++) {
    for (let dx = -8; dx < 8; dx++) {
      const err = calcError(w, h, first, second, dx, dy);
      if (err < min) {
        min = err;
        out.deltaX = -dx;
        out.deltaY = dy;
      }
    }
  }
  return min;
}

function movementEstimation(w: number, h: number, frames: Frame[], reverse: boolean): number {
  let total = 0;
  for (let k = 1; k < frames.length; k++) {
    const prev = frames[k - 1]!;
    const cur = frames[k]!;
    if (reverse) {
      total += findOverlap(w, h, prev.pixels, cur.pixels, cur);
      cur.deltaY = -cur.deltaY;
      cur.deltaX = -cur.deltaX;
    } else {
      total += findOverlap(w, h, cur.pixels, prev.pixels, cur);
    }
  }
  return Math.floor(total / frames.length);
}

/** Fills each frame's deltaX/deltaY (fpi_do_movement_estimation). */
export function estimateMovement(widthPx: number, heightPx: number, frames: Frame[]): void {
  const err = movementEstimation(widthPx, heightPx, frames, false);
  const revErr = movementEstimation(widthPx, heightPx, frames, true);
  if (err < revErr) movementEstimation(widthPx, heightPx, frames, false);
}

/**
 * Assembles frames at their offsets into an `imageWidthPx`-wide image (fpi_assemble_frames),
 * then normalises orientation and polarity as libfprint does before use: inverted, and flipped
 * on both axes unless the swipe ran in reverse.
 */
export function assembleFrames(widthPx: number, heightPx: number, imageWidthPx: number, frames: Frame[]): { widthPx: number; heightPx: number; pixels: Uint8Array } {
  frames[0]!.deltaX = 0;
  frames[0]!.deltaY = 0;
  let height = frames.reduce((s, f) => s + f.deltaY, 0);
  const reverse = height < 0;
  if (reverse) height = -height;
  height += heightPx;
  const img = new Uint8Array(imageWidthPx * height);
  let y = reverse ? height - heightPx : 0;
  let x = Math.trunc((imageWidthPx - widthPx) / 2);
  for (const f of frames) {
    y += f.deltaY;
    x += f.deltaX;
    const fx1 = x < 0 ? -x : 0;
    const fy1 = y < 0 ? -y : 0;
    for (let fy = fy1, iy = Math.max(y, 0); fy < heightPx && iy < height; fy++, iy++) {
      for (let fx = fx1, ix = Math.max(x, 0); fx < widthPx && ix < imageWidthPx; fx++, ix++) img[ix + iy * imageWidthPx] = f.pixels[fx + fy * widthPx]!;
    }
  }
  const out = reverse ? img : rotate180(img);
  for (let i = 0; i < out.length; i++) out[i] = 255 - out[i]!;
  return { widthPx: imageWidthPx, heightPx: height, pixels: out };
}

/** Both axes flipped. */
export function rotate180(pixels: Uint8Array): Uint8Array {
  const out = new Uint8Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) out[i] = pixels[pixels.length - 1 - i]!;
  return out;
}

/** Rows in reverse order. */
export function flipVertical(pixels: Uint8Array, widthPx: number): Uint8Array {
  const height = pixels.length / widthPx;
  const out = new Uint8Array(pixels.length);
  for (let y = 0; y < height; y++) out.set(pixels.subarray(y * widthPx, (y + 1) * widthPx), (height - 1 - y) * widthPx);
  return out;
}

/** Parameters of line assembly (fpi_line_asmbl_ctx). */
export interface LineAssembly {
  lineWidthPx: number;
  maxHeightPx: number;
  /** Output lines per unit of line offset. */
  resolution: number;
  medianFilterSize: number;
  maxSearchOffset: number;
  /** Dissimilarity of two lines (lower = more alike). */
  deviation(a: Uint8Array, b: Uint8Array): number;
  /** Grey value of pixel `x` of a line. */
  pixel(line: Uint8Array, x: number): number;
}

function medianFilter(data: Int32Array, size: number, filterSize: number): void {
  const result = new Int32Array(size);
  for (let i = 0; i < size; i++) {
    const i1 = Math.max(0, i - Math.trunc((filterSize - 1) / 2));
    const i2 = Math.min(size - 1, i + Math.trunc((filterSize - 1) / 2));
    const sorted = Array.from(data.subarray(i1, i2 + 1)).sort((a, b) => a - b);
    result[i] = sorted[Math.trunc((i2 - i1 + 1) / 2)]!;
  }
  data.set(result.subarray(0, size));
}

/** Assembles swipe lines into an image rescaled for the swipe speed (fpi_assemble_lines), then flips it vertically. */
export function assembleLines(ctx: LineAssembly, lines: Uint8Array[], numLines: number): { widthPx: number; heightPx: number; pixels: Uint8Array } {
  const offsets = new Int32Array(Math.max(1, Math.trunc(numLines / 2)));
  const output = new Uint8Array(ctx.lineWidthPx * ctx.maxHeightPx);
  for (let i = 0; i < numLines - 1 && i < lines.length; i += 2) {
    let bestMatch = i;
    let bestDiff = 0;
    const firstRow = i + 1;
    const lastRow = Math.min(i + ctx.maxSearchOffset, numLines - 1);
    for (let j = firstRow; j <= lastRow; j++) {
      const diff = ctx.deviation(lines[i]!, lines[j]!);
      if (j === firstRow || diff < bestDiff) {
        bestDiff = diff;
        bestMatch = j;
      }
    }
    offsets[i / 2] = bestMatch - i;
  }
  medianFilter(offsets, Math.trunc(numLines / 2) - 1, ctx.medianFilterSize);
  let yF = 0;
  let lineInd = 0;
  outer: for (let i = 0; i < numLines - 1; i++) {
    const offset = offsets[i >> 1]!;
    if (offset <= 0) continue;
    const ynextF = yF + Math.trunc((ctx.resolution << 16) / offset);
    while (lineInd << 16 < ynextF) {
      if (lineInd > ctx.maxHeightPx - 1) break outer;
      const a = lines[i]!;
      const b = lines[i + 1]!;
      const yi = lineInd << 16;
      const row = lineInd * ctx.lineWidthPx;
      for (let x = 0; x < ctx.lineWidthPx; x++) {
        const unscaled = (yi - yF) * ctx.pixel(b, x) + (ynextF - yi) * ctx.pixel(a, x);
        output[row + x] = Math.trunc(unscaled / (ynextF - yF)) & 0xff;
      }
      lineInd++;
    }
    yF = ynextF;
  }
  const pixels = flipVertical(output.subarray(0, lineInd * ctx.lineWidthPx), ctx.lineWidthPx);
  return { widthPx: ctx.lineWidthPx, heightPx: lineInd, pixels };
}
