/**
 * The page image handed to the recogniser (index.ts pageWords): raw 8-bit gray pixels, cut into card
 * sides, cleared of the ink that touches its border, and encoded as binary PGM. Pure functions on
 * pixel buffers; no recognition here.
 */

/** A grayscale image, 8 bit, one byte per pixel, rows top to bottom (`data.length` = width x height). */
export interface GrayImage { data: Uint8Array; width: number; height: number }

/**
 * Binary PGM (P5) of a gray image. Leptonica (inside tesseract.js) reads it as is, so a page costs
 * neither PNG compression here nor decompression there (~20-40 ms of CPU per 2 MP page as PNG).
 */
export function toPgm(img: GrayImage): Buffer {
  const head = Buffer.from(`P5\n${img.width} ${img.height}\n255\n`, 'latin1');
  return Buffer.concat([head, Buffer.from(img.data.buffer, img.data.byteOffset, img.width * img.height)]);
}

/** Columns [x0, x1) of `img` (clamped to it) as an image of their own; at least one column wide. */
export function columns(img: GrayImage, x0: number, x1: number): GrayImage {
  const a = Math.max(0, Math.min(img.width - 1, Math.round(x0)));
  const width = Math.max(1, Math.min(img.width, Math.round(x1)) - a);
  const data = new Uint8Array(width * img.height);
  for (let y = 0; y < img.height; y++) data.set(img.data.subarray(y * img.width + a, y * img.width + a + width), y * width);
  return { data, width, height: img.height };
}

/**
 * Level under which a pixel counts as ink for clearBorderInk. A card's edge on the prepared image is
 * an anti-aliased gray line (~140), above the usual 128; the pale security print (guilloche, ~215
 * after the contrast stretch) stays above it, so the fill cannot run along it into the text.
 */
export const BORDER_INK_LEVEL = 170;

/**
 * Most of the page, as a share of its pixels, that clearBorderInk may whiten. Edges, rounded corners and
 * rotation corners are a few percent of a card crop (final part: at most 4.6%); a dark vignette or shadow
 * along the border is far more (low-light photos: 20-23%) and the fill runs through it into the labels
 * and values printed near the card's edge (the registration number and the remarks vanished).
 */
export const MAX_BORDER_INK_SHARE = 0.1;

/**
 * Whitens, in place, the pixels darker than `level` that are 8-connected to the image's border
 * (its outer 2 px): a card's edge and rounded corners, frame rules, black corners left by rotation or
 * perspective warping. Text on a card never touches the crop's border, but these do, and the
 * recogniser reads them as page-wide lines of noise (tuning part: up to a third of its time on some
 * photos, ~7% on average). When that would whiten more than `maxShare` of the pixels
 * (MAX_BORDER_INK_SHARE: dark light falloff, not edges) the image is left as it was. Returns the number
 * of pixels whitened, or -1 when the image was left as it was. One flood fill with an explicit stack: linear time, one Int32Array
 * of width x height.
 */
export function clearBorderInk(img: GrayImage, level = BORDER_INK_LEVEL, maxShare = MAX_BORDER_INK_SHARE): number {
  const { data, width: w, height: h } = img;
  const stack = new Int32Array(w * h);
  const limit = maxShare * w * h;
  // Whitened pixels are all below `level`; the originals are kept to undo a fill that ran too far.
  const before = new Uint8Array(data);
  let top = 0, cleared = 0;
  const push = (i: number): void => {
    if (data[i] < level) {
      data[i] = 255;
      stack[top++] = i;
      cleared++;
    }
  };
  for (let x = 0; x < w; x++) for (let y = 0; y < Math.min(2, h); y++) { push(y * w + x); push((h - 1 - y) * w + x); }
  for (let y = 0; y < h; y++) for (let x = 0; x < Math.min(2, w); x++) { push(y * w + x); push(y * w + (w - 1 - x)); }
  while (top > 0 && cleared <= limit) {
    const i = stack[--top];
    const x = i % w, y = (i - x) / w;
    for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
      for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) push(yy * w + xx);
    }
  }
  if (cleared > limit) {
    data.set(before);
    return -1;
  }
  return cleared;
}
