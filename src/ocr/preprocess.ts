/**
 * Image preprocessing for the recogniser (sharp): the card found in the frame, upright (frame.ts:
 * EXIF orientation, green channel, hard shadow and uneven frame light, card crop, perspective,
 * rotation, skew, quarter turns), then its tone: scaling to a standard text size, quality metrics,
 * uneven light left on the card divided out (light.ts), optional denoise, local contrast, unsharp mask
 * and thickening, and the contrast stretch.
 */
import sharp from 'sharp';
import { fromRaw, frames } from './frame.js';
import type { Quad } from './perspective.js';
import { measureQuality, type QualityMetrics } from './quality.js';
import { normaliseLocalContrast } from './veil.js';
import { liftOverlay } from './overlay-text.js';
import { flattenLight, otsu } from './light.js';
import { sharpeningFor } from './deblur.js';
import { gratingPeak, removeGrating } from './grating.js';
import { CropCache } from './crop-cache.js';

export { otsu };

export interface PreparedImage {
  /**
   * 8-bit grayscale PNG ready for the recogniser, stored without compression (level 0: it only
   * crosses to the reader's thread, where it is decoded; on 20 tuning pages level 1 took 5.1 ms to
   * encode and 16.3 ms to decode and squeeze, level 0 2.7 and 13.7 ms, for ~2 MB instead of ~0.4 MB).
   */
  png: Buffer;
  width: number;
  height: number;
  quality: QualityMetrics;
  /** Degrees the input was turned (clockwise) to make text horizontal. */
  rotationDeg: number;
  /**
   * For wide crops (two card sides next to each other, aspect > 2.3): the x (px) of the emptiest
   * column band in the middle fifth, where the image can be cut and each side recognised on its own.
   */
  splitX?: number;
  /** Set when the card was photographed at an angle and warped upright: its corners (TL, TR, BR, BL, input px). */
  perspective?: Quad;
  /** Unevenness of the light measured on the card (light.ts) and whether it was divided out. */
  light: { unevenness: number; flattened: boolean };
  /** Set when the page's strokes were thin and thickened (PrepareOptions.thickenThin). */
  thickened?: boolean;
  /** Set when translucent text over the picture was divided out (overlay-text.ts): its level as a ratio to the paper. */
  overlay?: number;
  /** With PrepareOptions.degrate or surveyGrating: how strongly a grating stood out over the crop's tiles (grating.ts Degrated.peak: GRATING_PEAK and more, one across the page). */
  grating?: number;
}

/** Height (px) the card crop is scaled to: values ~30 px tall, where the LSTM model reads best. */
export const CARD_HEIGHT_PX = 820;
/** Width (px) portrait crops (card sides stacked, e.g. a CNH-e page) are scaled to. */
export const CARD_WIDTH_PX = 1280;
/** Largest prepared image handed to the recogniser, pixels (a card at CARD_HEIGHT_PX is ~1.1 MP a side). */
export const MAX_PREPARED_PIXELS = 6_000_000;
/** The most frequent level of a histogram (the lowest of equals). */
const modeOf = (hist: Uint32Array): number => {
  let m = 0;
  for (let i = 1; i < 256; i++) if (hist[i] > hist[m]) m = i;
  return m;
};

/**
 * Contrast stretch [a, b] for sharp.linear: the darkest 1% (ink) to 0 and 75% of the way to the most
 * frequent level (the card's paper) to 255, so the pale security print (guilloche) turns white while ink
 * stays dark (0.95: keeps thin blurred label strokes; the guilloche, at ~0.88 of the range, stays pale).
 */
export function stretch(data: Uint8Array, clip: number, w: number): [number, number] {
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) hist[data[i]]++;
  // The paper is the most frequent level of the card itself, not of a turn's white fill (paperHistogram).
  const paper = paperHistogram(data, w);
  const mode = modeOf(paper);
  // A page whose fill outnumbered its paper (a dark photograph turned) has its ink's level measured
  // on the card alone too (final11 #12: 9 -> 6 fields missed, against 10 with the ink's level of the
  // whole page); any other page is stretched exactly as before.
  const levels = modeOf(hist) !== mode ? paper : hist;
  let total = 0;
  for (let i = 0; i < 256; i++) total += levels[i];
  let acc = 0, lo = 0;
  while (lo < 255 && (acc += levels[lo]) < 0.01 * total) lo++;
  if (mode - lo < 30) return [1, 0];
  const a = 255 / (clip * (mode - lo));
  return [a, -a * lo];
}

/** Levels at or above this are white enough to be a rotation's fill (frame.ts turns with a white background). */
export const FILL_LEVEL = 253;

/**
 * The page's histogram without the white a turn filled in: each row's runs of FILL_LEVEL and whiter
 * that touch its left or right end (the wedges a skew correction leaves at the corners, frame.ts; a
 * light margin left by the crop). Such white is no paper of the card: on a dark photograph (final11
 * #12, low light, paper ~65 of 255, turned 0.4 degrees with ~11 % of the page filled white) it was the
 * most frequent level, the stretch took it for the paper, and the card's paper stayed dark grey
 * (~43), where the recogniser's own threshold made paper and ink one. Counted as they were: every
 * other pixel, white ones inside a row included (a bright card's clipped paper).
 */
export function paperHistogram(data: Uint8Array, w: number): Uint32Array {
  const hist = new Uint32Array(256);
  const h = Math.floor(data.length / w);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let a = 0, b = w;
    while (a < w && data[row + a] >= FILL_LEVEL) a++;
    while (b > a && data[row + b - 1] >= FILL_LEVEL) b--;
    for (let x = a; x < b; x++) hist[data[row + x]]++;
  }
  // A page that is all white (or all fill) keeps its own histogram.
  let n = 0;
  for (let i = 0; i < 256; i++) n += hist[i];
  if (n === 0) for (let i = 0; i < data.length; i++) hist[data[i]]++;
  return hist;
}

/*
 * Sharpening (deblur.ts sharpeningFor): inputs whose measured sharpness (quality.ts) is below 50 get an
 * unsharp mask (sigma 1 px), below 25 a wider one (sigma 2 px: on the tuning part's two images under it
 * (both blurred, 19-20), 11 -> 12 and 14 -> 15 fields read; the five blurred ones between 34 and 57 read
 * the same with sigma 1, 1.5 or 2); a page whose edges are measured wide (deblur.ts edgeWidth) a
 * stronger one.
 */
/** Fraction of the ink-to-paper range kept; lighter levels become white. */
const PAPER_CLIP = 0.95;

/**
 * Centre of the 15 px column band with the least ink (gray < 160) within 40-60% of the width; among
 * bands within 2% of the least, the one nearest the centre (blank columns inside a side are common).
 */
function emptiestColumn(data: Uint8Array, w: number, h: number): number {
  const ink = new Float64Array(w);
  for (let y = 0; y < h; y++) for (let x = Math.floor(0.4 * w) - 8; x < Math.ceil(0.6 * w) + 8; x++) if (data[y * w + x] < 160) ink[x]++;
  const bands: Array<[number, number]> = [];
  for (let x = Math.floor(0.4 * w); x < Math.ceil(0.6 * w); x++) {
    let s = 0;
    for (let k = -7; k <= 7; k++) s += ink[x + k];
    bands.push([x, s]);
  }
  const least = Math.min(...bands.map((b) => b[1]));
  const near = bands.filter((b) => b[1] <= least + 0.02 * 15 * h);
  near.sort((a, b) => Math.abs(a[0] - w / 2) - Math.abs(b[0] - w / 2));
  return near[0]?.[0] ?? Math.round(w / 2);
}


export interface PrepareOptions {
  /** Extra clockwise turn first, degrees (the reader retries at 180 when labels are missing). */
  extraTurnDeg?: number;
  /** Mirror the frame left to right (after the turn): a selfie camera's or a webcam preview's frame (index.ts ORIENTATIONS). */
  mirrored?: boolean;
  /** Ink-to-paper fraction kept by the contrast stretch (see PAPER_CLIP). */
  clip?: number;
  /** Unsharp-mask sigma applied before the stretch; 0: none; default: deblur.ts sharpeningFor (by the measured sharpness and edge width). */
  sharpenSigma?: number;
  /**
   * A 3 x 3 median before the unsharp mask and the stretch: a dark photograph's sensor noise, which the
   * stretch would multiply into speckle (the reader's second reading of a dark page, second-read.ts).
   */
  denoise?: boolean;
  /** Local contrast normalisation before the stretch (veil.ts: a glare's veil; a second reading's preparation, second-read.ts). */
  localContrast?: boolean;
  /** Decoder pixel limit (sharp's limitInputPixels); default sharp's own. */
  limitInputPixels?: number;
  /** Height (px) a landscape card crop is scaled to; default CARD_HEIGHT_PX. */
  cardHeightPx?: number;
  /**
   * Measure the page's strokes (medianInkRun on the plain stretch) and, when they are thin
   * (THIN_STROKE_PX or less), thicken them by a pixel (thicken): a blurred page's second reading
   * (second-read.ts). Costs a stretch and a pass over the page; nothing when not asked.
   */
  thickenThin?: boolean;
  /**
   * Notch a fine periodic grating (moiré) out of the scaled crop before anything else reads it
   * (grating.ts removeGrating): a second preparation for a page whose first reading found too few labels
   * (index.ts recognizeImage). How strongly one stood out comes back as PreparedImage.grating (grating.ts Degrated.peak).
   */
  degrate?: boolean;
  /**
   * Survey the scaled crop for a grating (grating.ts gratingPeak, ~30 ms a page) and report it as
   * PreparedImage.grating: the first preparation, so that only a page with one is prepared again (degrate).
   */
  surveyGrating?: boolean;
}

/** Pages whose median ink run (medianInkRun) is at most this many px at CARD_HEIGHT_PX (in proportion on a larger page) have thin strokes. */
export const THIN_STROKE_PX = 2;
/** Dark (ink) level of the stretched page for medianInkRun. */
const INK_LEVEL = 128;
/** Runs longer than this are not strokes (the photo, bars, filled boxes) and are not counted. */
const LONGEST_STROKE_RUN = 15;

/**
 * The median length (px) of the horizontal runs of ink (under INK_LEVEL) of a stretched page, runs of
 * 1 to LONGEST_STROKE_RUN px: the width of the type's vertical strokes; 0 when there is no ink. Measured on final4's pages as prepared for a second reading
 * (the plain stretch, no sharpening): every DejaVu Sans Light page but one low-light photograph measures
 * 2 or less, and so do some pages of regular type drawn small (phone screenshots, PDF page images,
 * clean Serif Condensed); photographs of regular type measure 3 and more.
 */
export function medianInkRun(page: Uint8Array, w: number, h: number): number {
  const hist = new Uint32Array(LONGEST_STROKE_RUN + 1);
  let n = 0;
  for (let y = 0; y < h; y++) {
    let run = 0;
    const row = y * w;
    for (let x = 0; x <= w; x++) {
      if (x < w && page[row + x] < INK_LEVEL) run++;
      else {
        if (run > 0 && run <= LONGEST_STROKE_RUN) { hist[run]++; n++; }
        run = 0;
      }
    }
  }
  let acc = 0;
  for (let r = 1; r <= LONGEST_STROKE_RUN; r++) if ((acc += hist[r]) * 2 >= n && n > 0) return r;
  return 0;
}

/**
 * Strokes thickened by one pixel: each pixel takes the darkest of itself and its right, lower and
 * lower-right neighbours (a 2 x 2 minimum filter: ink grows a pixel to the left and up). Thin type broken by blur, noise or
 * JPEG joins up again; a counter (the hole of an O or A) of regular type at this size is 4 px and more.
 */
export function thicken(page: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(page.length);
  for (let y = 0; y < h; y++) {
    const row = y * w, next = y + 1 < h ? row + w : row;
    for (let x = 0; x < w; x++) {
      const x1 = x + 1 < w ? x + 1 : x;
      out[row + x] = Math.min(page[row + x], page[row + x1], page[next + x], page[next + x1]);
    }
  }
  return out;
}

/**
 * The card of `bytes` found in its frame (frame.ts, FrameCache: the card is found once per orientation
 * and kept) and scaled to the prepared size, gray (band 0), raw: what every preparation reads first.
 * Landscape crops (one card, or sides next to each other) are scaled by height to `cardHeightPx`
 * (CARD_HEIGHT_PX), portrait ones by width to CARD_WIDTH_PX; never past MAX_PREPARED_PIXELS (a long thin
 * strip is not a card; its text just gets small). Upscaling uses a cubic kernel, downscaling lanczos3.
 */
async function scaledCrop(bytes: Uint8Array, options: PrepareOptions): Promise<{ decoded: { data: Buffer; info: sharp.OutputInfo }; factor: number; srcW: number; srcH: number; turned: number; rectified: PreparedImage['perspective'] }> {
  const { rgb, turned, rectified } = await frames.card(bytes, options.extraTurnDeg ?? 0, options.limitInputPixels, options.mirrored ?? false);
  const srcW = rgb.width, srcH = rgb.height;
  const factor = Math.min(srcW >= srcH ? (options.cardHeightPx ?? CARD_HEIGHT_PX) / srcH : CARD_WIDTH_PX / srcW, Math.sqrt(MAX_PREPARED_PIXELS / (srcW * srcH)));
  const outW = Math.round(srcW * factor);
  const gray = fromRaw(rgb).extractChannel(0).resize({ width: outW, kernel: factor > 1 ? 'cubic' : 'lanczos3' });
  const decoded = await gray.raw().toBuffer({ resolveWithObject: true });
  return { decoded, factor, srcW, srcH, turned, rectified };
}

/**
 * How strongly a fine grating (moiré) stands out over the scaled card crop of `bytes` (grating.ts
 * gratingPeak over the same pixels as prepareImage's `surveyGrating`, which it replaces on the reader's
 * first preparation): asked only for a page whose first reading found too few labels (index.ts
 * recognizeImage), so that the survey (~0.1 CPU s a page) is not paid on the pages that never read it.
 * The card comes from the frame cache (frame.ts FrameCache) when the same bytes were just prepared, so
 * the cost is the scaling (~0.05 s) and the survey. Only `extraTurnDeg`, `mirrored`, `cardHeightPx` and
 * `limitInputPixels` of `options` matter.
 */
export async function surveyCardGrating(bytes: Uint8Array, options: PrepareOptions = {}): Promise<number> {
  const { decoded } = await scaledCrop(bytes, options);
  const { data, info } = decoded;
  return gratingPeak(new Uint8Array(data.buffer, data.byteOffset, data.length), info.width, info.height);
}

/** The scaled crop with the grating notched out where asked, measured, and its light evened: every preparation's first stage. */
interface LitCrop { data: Buffer; info: sharp.OutputInfo; factor: number; turned: number; rectified: PreparedImage['perspective']; grating?: number; quality: QualityMetrics; light: PreparedImage['light']; overlay?: number }

/** This thread's lit crops (crop-cache.ts): the second reading of a page starts from the first's. */
export const litCrops = new CropCache<LitCrop>();

/**
 * The scaled crop (scaledCrop) of `bytes` with a grating notched out (`degrate`) or surveyed
 * (`surveyGrating`), its quality measured (quality.ts, on the pixels before the light is evened) and
 * uneven light divided out (light.ts flattenLight). Depends only on the bytes and the options that
 * prepareImage's key holds.
 */
async function litCrop(bytes: Uint8Array, options: PrepareOptions): Promise<LitCrop> {
  const { decoded, factor, srcW, srcH, turned, rectified } = await scaledCrop(bytes, options);
  const { info } = decoded;
  const degrated = options.degrate ? removeGrating(new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length), info.width, info.height) : undefined;
  const data = degrated ? Buffer.from(degrated.data.buffer, degrated.data.byteOffset, degrated.data.length) : decoded.data;
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
  const grating = degrated ? degrated.peak : options.surveyGrating ? gratingPeak(pixels, info.width, info.height) : undefined;
  const quality = await measureQuality(pixels, info.width, info.height, Math.min(srcW, srcH));
  // Uneven light (a shadow across the card) is divided out first (light.ts), so the stretch's single
  // paper level holds over the whole card; evenly lit cards are left as they are.
  const light = flattenLight(pixels, info.width, info.height);
  // Translucent text over the whole picture (a sharing watermark) divided out (overlay-text.ts).
  const overlay = liftOverlay(pixels, info.width, info.height);
  return { data, info, factor, turned, rectified, quality, light, ...(grating !== undefined ? { grating } : {}), ...(overlay ? { overlay: overlay.ratio } : {}) };
}

/**
 * File bytes (JPEG/PNG) -> grayscale card image for the recogniser, plus quality metrics.
 * Errors: sharp's decode errors propagate (the reader maps them to PROCESSING_FAILED).
 */
export async function prepareImage(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage> {
  const key = [options.extraTurnDeg ?? 0, options.mirrored ?? false, options.cardHeightPx ?? CARD_HEIGHT_PX, options.degrate ?? false, options.surveyGrating ?? false, options.limitInputPixels ?? ''].join('|');
  const { data, info, factor, turned, rectified, grating, quality, light, overlay } = await litCrops.get(bytes, key, () => litCrop(bytes, options));
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
  let base = options.denoise ? await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).median(3).extractChannel(0).raw().toBuffer() : data;
  if (options.localContrast) {
    base = Buffer.from(base);
    normaliseLocalContrast(base, info.width, info.height);
  }
  let img = sharp(base, { raw: { width: info.width, height: info.height, channels: 1 } });
  const sharpening = sharpeningFor(quality, options.sharpenSigma, Math.max(1, factor));
  if (sharpening) img = img.sharpen(sharpening);
  img = img.linear(...stretch(base, options.clip ?? PAPER_CLIP, info.width)).toColourspace('b-w');
  // Thin strokes are measured on the plain stretch of the scaled crop (no median, local contrast or
  // sharpening, which change the strokes' width themselves).
  const plain = options.thickenThin ? await sharp(pixels, { raw: { width: info.width, height: info.height, channels: 1 } }).linear(...stretch(pixels, options.clip ?? PAPER_CLIP, info.width)).extractChannel(0).raw().toBuffer() : undefined;
  const thin = plain !== undefined && medianInkRun(new Uint8Array(plain.buffer, plain.byteOffset, plain.length), info.width, info.height) <= THIN_STROKE_PX * Math.max(1, Math.min(info.width, info.height) / CARD_HEIGHT_PX);
  let png: Buffer;
  if (thin) {
    const out = await img.raw().toBuffer();
    const page = thicken(new Uint8Array(out.buffer, out.byteOffset, out.length), info.width, info.height);
    png = await sharp(page, { raw: { width: info.width, height: info.height, channels: 1 } }).png({ compressionLevel: 0 }).toBuffer();
  } else png = await img.png({ compressionLevel: 0 }).toBuffer();
  const splitX = info.width / info.height > 2.3 ? emptiestColumn(data, info.width, info.height) : undefined;
  return { png, width: info.width, height: info.height, quality, rotationDeg: turned, splitX, perspective: rectified, light, ...(thin ? { thickened: true } : {}), ...(grating !== undefined ? { grating } : {}), ...(overlay !== undefined ? { overlay } : {}) };
}
