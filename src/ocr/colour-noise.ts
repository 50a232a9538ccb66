/**
 * Coarse colour noise: a small, cheap camera sensor at high gain gives false colour in blotches a few
 * pixels across, and a cheap encoder keeps the colour on blocks of 2 x 2, 4 x 1 or 4 x 2 px (4:2:0, 4:1:1,
 * 4:1:0), so each block's false colour spreads over the strokes and the ground beside them alike. Its
 * noise reduction cleans the lightness (luma) and leaves the colour. The green channel the page is read
 * from (frame.ts) carries the colour noise: G = Y - 0.344 Cb - 0.714 Cr (ITU-R BT.601), so a blotch of
 * colour 10 levels strong moves green by 7 or so, as a stain the size of a stroke's width over every
 * letter; the recogniser then reads a card's type as noise (final31's low-end phone frames: 71.6 % of
 * their fields, 218 of 225 when the same frames are read from their luma, made grey by sharp and saved as
 * JPEG at quality 95; 216 of 225 through this module). The luma
 * (0.299 R + 0.587 G + 0.114 B) does not carry it.
 *
 * The tell: the colour part of green, D = G - Y, measured with Immerkær's noise estimator (the mean
 * absolute response to the 3 x 3 operator [1 -2 1; -2 4 -2; 1 -2 1], times sqrt(pi / 2) / 6; Immerkær 1996,
 * "Fast noise variance estimation", CVIU 64(2)) on 4 x 4 px block means. A sensor's or scanner's noise,
 * independent from pixel to pixel, falls by 4 on block means, to a quarter of its value on the pixels;
 * blotches a few pixels across do not fall, so coarse colour noise is strong on block means (COARSE_NOISE
 * levels or more) and stronger there than on the pixels (COARSE_OVER_FINE times). Measured over the frame's
 * middle (NOISE_WINDOW) on final25-final31's images (parts seen): final31's low-end phone frames 0.53-2.20
 * levels on blocks and 2.4-7.6 times their pixels' figure; scanners 0.6-1.5 levels but 0.26-0.31 times
 * (independent noise: they keep green, whose reading there is better: 222 of 225 fields of 15 scanned
 * documents against 212 from their luma, made as above); every other frame 0.38 levels or less, but final25 #6 (glare,
 * 0.47; lost either way) and final27 #34 and #35 (low light, 0.91 and 0.67; read as well either way).
 */

/** Side of the blocks (px) whose means the coarse noise is measured on (colourNoise sums four pixels a row). */
export const NOISE_BLOCK = 4;
/** Noise (levels, Immerkær) of D = G - Y on block means from which a frame has coarse colour noise. */
export const COARSE_NOISE = 0.45;
/** ... and how many times its noise on the pixels (independent noise: about 0.25 on block means). */
export const COARSE_OVER_FINE = 1.5;
/** Side (px) of the frame's middle window the noise is measured over. */
export const NOISE_WINDOW = 1024;
/** Pixel rows skipped between those the pixels' noise is measured on (its statistics, not every row). */
const FINE_ROW_STEP = 4;

/** Immerkær's noise estimate (levels) of `p` (`w` x `h`), over every `rowStep`-th row. 0 for a plane under 3 x 3. */
export function immerkaerNoise(p: Float32Array, w: number, h: number, rowStep = 1): number {
  let s = 0, n = 0;
  for (let y = 1; y < h - 1; y += rowStep) {
    for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
      const v = p[i - w - 1] - 2 * p[i - w] + p[i - w + 1] - 2 * p[i - 1] + 4 * p[i] - 2 * p[i + 1] + p[i + w - 1] - 2 * p[i + w] + p[i + w + 1];
      s += Math.abs(v);
      n++;
    }
  }
  return n ? (s / n) * Math.sqrt(Math.PI / 2) / 6 : 0;
}

/** Luma (BT.601) of a pixel's red, green and blue. */
const luma = (r: number, g: number, b: number): number => 0.299 * r + 0.587 * g + 0.114 * b;

/**
 * The colour noise of interleaved pixels (`ch` bands, red, green, blue first; `w` x `h`): Immerkær's noise
 * of D = G - Y on NOISE_BLOCK px block means (`coarse`) and on the pixels (`fine`), in levels, over the
 * frame's middle NOISE_WINDOW x NOISE_WINDOW px at most (a sensor's noise covers the whole frame; ~10 ms).
 */
export function colourNoise(data: Uint8Array, ch: number, w: number, h: number): { coarse: number; fine: number } {
  const ww = Math.min(w, NOISE_WINDOW), wh = Math.min(h, NOISE_WINDOW);
  const x0 = Math.floor((w - ww) / 2), y0 = Math.floor((h - wh) / 2);
  const d = new Float32Array(ww * wh);
  for (let y = 0, i = 0; y < wh; y++) {
    for (let x = 0, j = ((y0 + y) * w + x0) * ch; x < ww; x++, i++, j += ch) d[i] = 0.413 * data[j + 1] - 0.299 * data[j] - 0.114 * data[j + 2];
  }
  const bw = Math.floor(ww / NOISE_BLOCK), bh = Math.floor(wh / NOISE_BLOCK);
  const blocks = new Float32Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let y = by * NOISE_BLOCK, end = y + NOISE_BLOCK; y < end; y++) {
      for (let bx = 0, i = y * ww; bx < bw; bx++, i += NOISE_BLOCK) blocks[by * bw + bx] += d[i] + d[i + 1] + d[i + 2] + d[i + 3];
    }
  }
  const area = NOISE_BLOCK * NOISE_BLOCK;
  for (let i = 0; i < blocks.length; i++) blocks[i] /= area;
  return { coarse: immerkaerNoise(blocks, bw, bh), fine: immerkaerNoise(d, ww, wh, FINE_ROW_STEP) };
}

/** Whether a frame's colour noise (colourNoise) is coarse: read it from its luma, not its green. */
export const hasCoarseColourNoise = (n: { coarse: number; fine: number }): boolean =>
  n.coarse >= COARSE_NOISE && n.coarse >= COARSE_OVER_FINE * n.fine;

/** The luma (BT.601, rounded) of interleaved pixels (`ch` bands, red, green, blue first), one byte a pixel. */
export function lumaPlane(data: Uint8Array, ch: number, n: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  for (let i = 0, j = 0; i < n; i++, j += ch) out[i] = Math.round(luma(data[j], data[j + 1], data[j + 2]));
  return out;
}
