/**
 * Image preprocessing for the recogniser (sharp): EXIF orientation, card detection and crop over a
 * darker background, perspective (a card photographed at an angle is warped upright, perspective.ts),
 * rotation (principal axis of the card, then text-line projection profile),
 * quarter-turn detection, uneven light divided out (light.ts: a shadow across the frame before the
 * card is looked for, then what is left on the card before the stretch), red print handling (green channel: red and black ink both turn dark, the
 * pale green card stays light), contrast stretch and scaling to a standard text size.
 */
import sharp from 'sharp';
import { findCardQuad, homography, needsPerspective, rectifiedSize, warpPerspective, type Quad } from './perspective.js';
import { measureQuality, type QualityMetrics } from './quality.js';
import { normaliseLocalContrast } from './veil.js';
import { findShadowStep, liftShadowStep } from './shadow-step.js';
import { UNEVEN_FRAME, dividePlane, flattenLight, framePlane, otsu } from './light.js';

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
}

/** Height (px) the card crop is scaled to: values ~30 px tall, where the LSTM model reads best. */
export const CARD_HEIGHT_PX = 820;
/** Width (px) portrait crops (card sides stacked, e.g. a CNH-e page) are scaled to. */
export const CARD_WIDTH_PX = 1280;
/** Largest prepared image handed to the recogniser, pixels (a card at CARD_HEIGHT_PX is ~1.1 MP a side). */
export const MAX_PREPARED_PIXELS = 6_000_000;
/** Analysis copy's longest side (px) for card finding and skew estimation. */
const ANALYSIS_PX = 700;

interface Gray { data: Uint8Array; w: number; h: number }

/**
 * Decoded pixels carried between the steps: the green channel only (8 bit; everything downstream reads
 * green, where red and black ink are both dark), as raw pixels, never an encoded image (PNG round trips
 * and three bands cost more than the steps themselves). sharp's rotate by an angle with a background
 * colour hands back three equal bands; the first is kept.
 */
interface Raw { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 }

const fromRaw = (r: Raw): sharp.Sharp => sharp(r.data, { raw: { width: r.width, height: r.height, channels: r.channels } });

async function toRaw(img: sharp.Sharp): Promise<Raw> {
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as Raw['channels'] };
}

async function grayOf(img: sharp.Sharp): Promise<Gray> {
  const { data, info } = await img.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), w: info.width, h: info.height };
}

/** Principal-axis angle (degrees, image coordinates) of the pixels above `t`, and their share. */
function brightAxis(g: Gray, t: number): { angleDeg: number; share: number } {
  let n = 0, sx = 0, sy = 0;
  for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) if (g.data[y * g.w + x] > t) { n++; sx += x; sy += y; }
  const mx = sx / n, my = sy / n;
  let m20 = 0, m02 = 0, m11 = 0;
  for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) if (g.data[y * g.w + x] > t) {
    const dx = x - mx, dy = y - my;
    m20 += dx * dx; m02 += dy * dy; m11 += dx * dy;
  }
  let a = (0.5 * Math.atan2(2 * m11, m20 - m02) * 180) / Math.PI;
  if (a > 45) a -= 90;
  if (a < -45) a += 90;
  return { angleDeg: a, share: n / (g.w * g.h) };
}

/**
 * Bounding box of the card: the span of rows where more than 35% of pixels are above `t`, then, within
 * those rows only, the span of columns where more than 35% are (a card in a tall phone screenshot
 * covers too few of the whole image's rows for its columns to pass over the full height).
 */
function brightBox(g: Gray, t: number): { left: number; top: number; width: number; height: number } {
  const span = (a: Float64Array, len: number): [number, number] => {
    let lo = 0, hi = a.length - 1;
    while (lo < hi && a[lo] < 0.35 * len) lo++;
    while (hi > lo && a[hi] < 0.35 * len) hi--;
    return [lo, hi];
  };
  const rows = new Float64Array(g.h);
  for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) if (g.data[y * g.w + x] > t) rows[y]++;
  const [y0, y1] = span(rows, g.w);
  const cols = new Float64Array(g.w);
  for (let y = y0; y <= y1; y++) for (let x = 0; x < g.w; x++) if (g.data[y * g.w + x] > t) cols[x]++;
  const [x0, x1] = span(cols, y1 - y0 + 1);
  return { left: x0, top: y0, width: Math.max(1, x1 - x0 + 1), height: Math.max(1, y1 - y0 + 1) };
}

/**
 * Sum of squared row counts of dark pixels projected at `deg` (higher: text lines aligned). `bins` is
 * scratch space (zeroed on return) indexed by the projected row plus `offset`, which must cover
 * every point's |row| (the image's width plus height does).
 */
function profileScore(pts: Int32Array, deg: number, bins: Int32Array, offset: number, transpose = false): number {
  const r = (deg * Math.PI) / 180, c = Math.cos(r), s = Math.sin(r);
  let lo = bins.length, hi = -1;
  for (let i = 0; i < pts.length; i += 2) {
    const x = transpose ? pts[i + 1] : pts[i], y = transpose ? pts[i] : pts[i + 1];
    const b = Math.round(-x * s + y * c) + offset;
    bins[b]++;
    if (b < lo) lo = b;
    if (b > hi) hi = b;
  }
  let e = 0;
  for (let b = lo; b <= hi; b++) {
    e += bins[b] * bins[b];
    bins[b] = 0;
  }
  return e;
}

/**
 * Skew (degrees, clockwise positive) of text lines by projection profiles over [-range, range];
 * `quarter` is true when text runs vertically (the page is turned a quarter).
 */
function estimateSkew(g: Gray, range: number): { deg: number; quarter: boolean } {
  const t = otsu(g.data);
  const pts: number[] = [];
  // Ink only: dark pixels between a row's first and last light (card) pixel, so dark background
  // corners left by a rotated photo do not vote.
  for (let y = 0; y < g.h; y++) {
    let lo = 0, hi = g.w - 1;
    while (lo < g.w && g.data[y * g.w + lo] <= t) lo++;
    while (hi > lo && g.data[y * g.w + hi] <= t) hi--;
    for (let x = lo + 2; x < hi - 2; x++) if (g.data[y * g.w + x] < t - 10) pts.push(x, y);
  }
  if (pts.length < 50) return { deg: 0, quarter: false };
  const p = Int32Array.from(pts);
  const offset = g.w + g.h, bins = new Int32Array(2 * offset + 1);
  let best = 0, bestScore = -1;
  for (let d = -range; d <= range + 1e-9; d += 0.25) {
    const sc = profileScore(p, d, bins, offset);
    if (sc > bestScore) { bestScore = sc; best = d; }
  }
  const vertical = profileScore(p, 0, bins, offset, true);
  return { deg: best, quarter: vertical > bestScore * 1.25 };
}

/**
 * Contrast stretch [a, b] for sharp.linear: the darkest 1% (ink) to 0 and 75% of the way to the most
 * frequent level (the card's paper) to 255, so the pale security print (guilloche) turns white while ink
 * stays dark (0.95: keeps thin blurred label strokes; the guilloche, at ~0.88 of the range, stays pale).
 */
function stretch(data: Uint8Array, clip: number): [number, number] {
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) hist[data[i]]++;
  let mode = 0;
  for (let i = 1; i < 256; i++) if (hist[i] > hist[mode]) mode = i;
  let acc = 0, lo = 0;
  while (lo < 255 && (acc += hist[lo]) < 0.01 * data.length) lo++;
  if (mode - lo < 30) return [1, 0];
  const a = 255 / (clip * (mode - lo));
  return [a, -a * lo];
}

/** Inputs whose measured sharpness (quality.ts) is below this get an unsharp mask (sigma 1 px). */
const SHARPEN_BELOW = 50;
/**
 * Below this sharpness the mask is wider (sigma 2 px): on the tuning part's two images under it (both
 * blurred, 19-20), 11 -> 12 and 14 -> 15 fields read; the five blurred ones between 34 and 57 read the
 * same with sigma 1, 1.5 or 2.
 */
const SHARPEN_MORE_BELOW = 25;
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

/**
 * Crops uniform light margins (top-left pixel's level > 160), leaving at least 100 x 60 px. The margins
 * are found by sharp's trim (threshold 30) on a copy at most ANALYSIS_PX on its longer side (trimming a
 * full page costs ~0.1-0.3 s of CPU) and cut from the full image one copy pixel wider on each side.
 */
async function trimLight(img: Raw, analysis?: Analysis): Promise<Raw> {
  if (img.data[0] <= 160) return img;
  try {
    const k = Math.min(1, ANALYSIS_PX / Math.max(img.width, img.height));
    // The analysis copy (toAnalysis) is that same resize: reused when the caller has it.
    const small: Raw = k >= 1 ? img : analysis ? { data: Buffer.from(analysis.g.data.buffer, analysis.g.data.byteOffset, analysis.g.data.length), width: analysis.g.w, height: analysis.g.h, channels: 1 } : await toRaw(fromRaw(img).resize({ width: Math.max(1, Math.round(img.width * k)) }));
    const { info } = await fromRaw(small).trim({ threshold: 30 }).raw().toBuffer({ resolveWithObject: true });
    const sx = img.width / small.width, sy = img.height / small.height;
    const left = Math.max(0, Math.floor((-(info.trimOffsetLeft ?? 0) - 1) * sx)), top = Math.max(0, Math.floor((-(info.trimOffsetTop ?? 0) - 1) * sy));
    const width = Math.min(img.width - left, Math.ceil((info.width + 2) * sx)), height = Math.min(img.height - top, Math.ceil((info.height + 2) * sy));
    if (width <= 100 || height <= 60) return img;
    if (width === img.width && height === img.height) return img;
    return await toRaw(fromRaw(img).extract({ left, top, width, height }));
  } catch {
    return img;
  }
}

/** Analysis copy of a frame: green channel at most ANALYSIS_PX on its longer side; `scale` = copy px per frame px. */
interface Analysis { g: Gray; scale: number }

async function toAnalysis(rgb: Raw): Promise<Analysis> {
  const scale = Math.min(1, ANALYSIS_PX / Math.max(rgb.width, rgb.height));
  const g = await grayOf(fromRaw(rgb).resize({ width: Math.max(1, Math.round(rgb.width * scale)) }));
  return { g, scale: g.w / rgb.width };
}

/** The card inside `quad` (full-resolution corners TL, TR, BR, BL) warped to an upright rectangle. */
function rectify(rgb: Raw, quad: Quad): Raw {
  const { w, h } = rectifiedSize(quad);
  const rect: Quad = [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }];
  const out = warpPerspective(new Uint8Array(rgb.data.buffer, rgb.data.byteOffset, rgb.data.length), rgb.width, rgb.height, rgb.channels, homography(rect, quad), w, h, [0, 0, 0, 0]);
  return { data: Buffer.from(out.buffer, out.byteOffset, out.length), width: w, height: h, channels: rgb.channels };
}

/**
 * The frame with its light plane divided out (light.ts framePlane, fitted on an analysis copy) when
 * the plane's spread is over UNEVEN_FRAME; otherwise the frame unchanged, with its analysis copy (the
 * next steps reuse it instead of making it again).
 */
async function evenFrame(rgb: Raw): Promise<{ rgb: Raw; analysis?: Analysis }> {
  let analysis = await toAnalysis(rgb);
  // A hard-edged shadow (a straight step across the whole frame) is lifted first (shadow-step.ts).
  const step = findShadowStep(analysis.g.data, analysis.g.w, analysis.g.h);
  if (step) {
    const lifted = Buffer.from(rgb.data);
    liftShadowStep(lifted, rgb.width, rgb.height, rgb.channels, step, analysis.scale);
    rgb = { ...rgb, data: lifted };
    analysis = await toAnalysis(rgb);
  }
  const { g } = analysis;
  const plane = framePlane(g.data, g.w, g.h);
  if (plane.spread <= UNEVEN_FRAME) return { rgb, analysis };
  const data = Buffer.from(rgb.data);
  dividePlane(data, rgb.width, rgb.height, rgb.channels, plane, g.w / rgb.width);
  return { rgb: { ...rgb, data } };
}

export interface PrepareOptions {
  /** Extra clockwise turn first, degrees (the reader retries at 180 when labels are missing). */
  extraTurnDeg?: number;
  /** Ink-to-paper fraction kept by the contrast stretch (see PAPER_CLIP). */
  clip?: number;
  /** Unsharp-mask sigma applied before the stretch; 0: none; default 1 for blurred inputs (SHARPEN_BELOW), 2 for very blurred ones (SHARPEN_MORE_BELOW). */
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
 * File bytes (JPEG/PNG) -> grayscale card image for the recogniser, plus quality metrics.
 * Errors: sharp's decode errors propagate (the reader maps them to PROCESSING_FAILED).
 */
export async function prepareImage(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage> {
  const extraTurnDeg = options.extraTurnDeg ?? 0;
  let rgb = await toRaw(sharp(bytes, options.limitInputPixels ? { limitInputPixels: options.limitInputPixels } : {}).rotate().rotate(extraTurnDeg).removeAlpha().toColourspace('srgb').extractChannel('green'));
  // A shadow across the whole frame is divided out before anything looks for the card (light.ts).
  const even = await evenFrame(rgb);
  const framed = even.rgb;
  // Uniform light margins (paper around a scan or a PDF page's card images) go first; dark ones are
  // left for the card finder, which also straightens by the card's edges.
  rgb = await trimLight(framed, even.analysis);
  let turned = extraTurnDeg;
  // The frame's analysis copy serves again when nothing was trimmed.
  let { g, scale } = rgb === framed && even.analysis ? even.analysis : await toAnalysis(rgb);
  const t = otsu(g.data);
  const axis = brightAxis(g, t);
  // Card over a darker background: straighten along the card's long axis, crop to the card.
  // A card photographed at an angle (its outline clearly not a rectangle) is warped upright instead.
  const quad = axis.share > 0.1 && axis.share < 0.85 ? findCardQuad(g, t, axis.angleDeg) : null;
  let rectified: Quad | undefined;
  if (quad && needsPerspective(quad)) {
    const sx = rgb.width / g.w, sy = rgb.height / g.h;
    const full = quad.map((p) => ({ x: p.x * sx, y: p.y * sy })) as Quad;
    rgb = rectify(rgb, full);
    rectified = full;
    const top = { x: full[1].x - full[0].x + full[2].x - full[3].x, y: full[1].y - full[0].y + full[2].y - full[3].y };
    turned -= (Math.atan2(top.y, top.x) * 180) / Math.PI;
    ({ g, scale } = await toAnalysis(rgb));
  } else if (axis.share > 0.1 && axis.share < 0.85) {
    if (Math.abs(axis.angleDeg) > 0.3) {
      rgb = await toRaw(fromRaw(rgb).rotate(-axis.angleDeg, { background: { r: 0, g: 0, b: 0 } }).extractChannel(0));
      turned -= axis.angleDeg;
      ({ g, scale } = await toAnalysis(rgb));
    }
    const box = brightBox(g, t);
    const left = Math.max(0, Math.floor(box.left / scale)), top = Math.max(0, Math.floor(box.top / scale));
    const width = Math.min(rgb.width - left, Math.ceil(box.width / scale)), height = Math.min(rgb.height - top, Math.ceil(box.height / scale));
    if (width > 50 && height > 50) {
      rgb = await toRaw(fromRaw(rgb).extract({ left, top, width, height }));
      ({ g, scale } = await toAnalysis(rgb));
    }
  }
  // Residual skew and quarter turns from the text lines themselves.
  const skew = estimateSkew(g, axis.share > 0.1 && axis.share < 0.85 ? 3 : 12);
  // Cards are landscape; a portrait crop whose text runs vertically is turned a quarter.
  if (skew.quarter && g.h > g.w) {
    rgb = await toRaw(fromRaw(rgb).rotate(90));
    turned += 90;
    ({ g, scale } = await toAnalysis(rgb));
    const again = estimateSkew(g, 12);
    skew.deg = again.deg;
  }
  if (Math.abs(skew.deg) >= 0.5) {
    rgb = await toRaw(fromRaw(rgb).rotate(-skew.deg, { background: { r: 255, g: 255, b: 255 } }).extractChannel(0));
    turned -= skew.deg;
    rgb = await trimLight(rgb);
  }
  const srcW = rgb.width, srcH = rgb.height;
  // Landscape crops are one card (or sides next to each other): scale by height; portrait by width.
  // Never more than MAX_PREPARED_PIXELS (a long thin strip is not a card; its text just gets small).
  const factor = Math.min(srcW >= srcH ? (options.cardHeightPx ?? CARD_HEIGHT_PX) / srcH : CARD_WIDTH_PX / srcW, Math.sqrt(MAX_PREPARED_PIXELS / (srcW * srcH)));
  const outW = Math.round(srcW * factor);
  const gray = fromRaw(rgb).extractChannel(0).resize({ width: outW, kernel: factor > 1 ? 'cubic' : 'lanczos3' });
  const { data, info } = await gray.raw().toBuffer({ resolveWithObject: true });
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
  const quality = await measureQuality(pixels, info.width, info.height, Math.min(srcW, srcH));
  // Uneven light (a shadow across the card) is divided out first (light.ts), so the stretch's single
  // paper level holds over the whole card; evenly lit cards are left as they are.
  const light = flattenLight(pixels, info.width, info.height);
  let base = options.denoise ? await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).median(3).extractChannel(0).raw().toBuffer() : data;
  if (options.localContrast) {
    base = Buffer.from(base);
    normaliseLocalContrast(base, info.width, info.height);
  }
  let img = sharp(base, { raw: { width: info.width, height: info.height, channels: 1 } });
  const sigma = options.sharpenSigma ?? (quality.sharpness < SHARPEN_MORE_BELOW ? 2 : quality.sharpness < SHARPEN_BELOW ? 1 : 0);
  if (sigma > 0) img = img.sharpen({ sigma });
  img = img.linear(...stretch(base, options.clip ?? PAPER_CLIP)).toColourspace('b-w');
  // Thin strokes are measured on the plain stretch of the scaled crop (no median, local contrast or
  // sharpening, which change the strokes' width themselves).
  const plain = options.thickenThin ? await sharp(pixels, { raw: { width: info.width, height: info.height, channels: 1 } }).linear(...stretch(pixels, options.clip ?? PAPER_CLIP)).extractChannel(0).raw().toBuffer() : undefined;
  const thin = plain !== undefined && medianInkRun(new Uint8Array(plain.buffer, plain.byteOffset, plain.length), info.width, info.height) <= THIN_STROKE_PX * Math.max(1, Math.min(info.width, info.height) / CARD_HEIGHT_PX);
  let png: Buffer;
  if (thin) {
    const out = await img.raw().toBuffer();
    const page = thicken(new Uint8Array(out.buffer, out.byteOffset, out.length), info.width, info.height);
    png = await sharp(page, { raw: { width: info.width, height: info.height, channels: 1 } }).png({ compressionLevel: 0 }).toBuffer();
  } else png = await img.png({ compressionLevel: 0 }).toBuffer();
  const splitX = info.width / info.height > 2.3 ? emptiestColumn(data, info.width, info.height) : undefined;
  return { png, width: info.width, height: info.height, quality, rotationDeg: turned, splitX, perspective: rectified, light, ...(thin ? { thickened: true } : {}) };
}
