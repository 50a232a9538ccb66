/**
 * Translucent text laid over the whole picture, divided back out of the grey page (issue #17,
 * thirty-fourth round). A holder told never to send a bare picture of a document writes a phrase over
 * it before sending it ("SOMENTE PARA CADASTRO", "CÓPIA", with the day's date), in a phone's editor or
 * a watermark app: bold letters repeated along slanted rows over the card and the desk alike, grey,
 * black, red or blue at a fifth to a third of full strength. In the page the reader reads (frame.ts's
 * green channel) the letters darken whatever lies under them by one factor: an overlay of colour c at
 * strength a turns a level v into (1 - a) v + a c, and over the card's paper P into the overlay's own
 * level W = (1 - a) P + a c, one ratio W / P for every letter of it. The recogniser takes the letters'
 * thick, slanted strokes for type: their rows cross the card's lines, words break and values are lost
 * (final32: 75.4 % of the fields of its 26 watermarked documents against 95.3 % of the rest).
 *
 * The overlay is found by the one thing type never has: flat ink at one level. Over an overlay's stroke
 * (5-40 px wide on an 820 px card) the page is flat; type's ink is never flat at a mid level (its strokes
 * are dark inside, their edges a ramp down to the paper). So:
 * 1. each pixel's ratio r to the paper's level (light.ts lightField's grid, bilinear between blocks);
 * 2. flat pixels: r in [LEAST_RATIO, MOST_RATIO], every pixel of its 3 x 3 neighbourhood within FLAT_TOL
 *    of the paper's level of it;
 * 3. the histogram of their r in hundredths: the overlay is its highest local peak whose mass (the peak's
 *    bin and its two neighbours) is at least OVERLAY_SHARE of the page and OVERLAY_CONTRAST times the
 *    mean mass of the bins 4-6 hundredths either side (an overlay's level is one; a page's gray print,
 *    its photograph and its shadows spread over many), with EDGE_SHARE of its pixels near a letter's
 *    edge (a shading's broad bands are flat at one level too, but far from any step);
 * 4. the flat pixels within RATIO_BAND of the peak, grown by GROW px (the strokes' soft edges), are
 *    divided by the peak's ratio and held at most at the paper's level: the overlay's letters go back to
 *    paper, and type under them gets back its own darkness (exactly for a black overlay, c = 0).
 * What is not lifted: type crossing a letter beyond GROW px from its flat part keeps the overlay's
 * darkening (it is type either way); a white overlay, which lightens (its letters are brighter than the
 * paper, no darker level to find); an overlay too blurred or too noisy to leave flat ink (a blurred
 * frame's 6 px strokes, a dark frame's speckle): those pages are read as before.
 * Measured on final32 (seen), every page as prepared: 18 of its 26 watermarked documents' pages lifted
 * (blue, black, red and grey; not the white ones, #2, #15, #37, #55 and #68, nor the dark frames #34 and
 * #35, nor #48's grey at 0.87), none of its 46 other images, none of final31's 72; the fields of its watermarked
 * documents 75.4 -> 91.5 % with the crop and plain -AO changes of the same round.
 *
 * Frames with blue ink (stamp-ink.ts) lift a blue overlay's inner pixels only (its edges keep the JPEG's
 * half-resolution colour too weak to pass), leaving letters of two levels: frame.ts keeps such a frame's
 * plain green when blueOverlay finds an overlay in it, and the overlay is divided out here. Pure,
 * in place; O(pixels).
 */
import { gridRow, lightField } from './light.js';

/** Neighbourhood radius (px) over which an overlay's pixel is flat. */
const FLAT_RADIUS = 1;
/** Most spread (share of the paper's level) of a flat neighbourhood. */
export const FLAT_TOL = 0.06;
/**
 * Ratios to the paper an overlay's level may take: a stronger one is ink; a fainter one is the paper's own
 * print and noise, or a CNH-e screenshot's grey panels (0.87-0.88 on final31 #16, #38, #60 and final32 #82).
 */
export const LEAST_RATIO = 0.6;
export const MOST_RATIO = 0.86;
/** Flat pixels within this of the overlay's ratio are its letters. */
const RATIO_BAND = 0.04;
/** Least share of the page the overlay's peak holds (final32's watermarks: 1.3-7.2 % where found). */
export const OVERLAY_SHARE = 0.008;
/** Least ratio of the peak's mass to its sides' (final32's watermarks: 3.5-855 where found; its pages without one: a small mass, or a contrast under 3). */
export const OVERLAY_CONTRAST = 3;
/** Px by which the overlay's flat pixels are grown before dividing (a stroke's soft edge). */
const GROW = 2;

/**
 * Px within which an overlay's flat pixel finds the paper beside its letter (a pixel at least half-way
 * from the overlay's level up to the paper's): a letter's edge is a step, 1-3 px wide.
 */
const EDGE_REACH = 3;
/**
 * Least share of the overlay's flat pixels (one in four looked at: every other row and column) within
 * EDGE_REACH px of such a step. Letters 6-40 px wide measure 0.28-0.97 (final32's watermarks); a shading's
 * broad bands, flat at one level too, measure 0 (final28 #54: bands of a screen's light across the card at
 * 0.69, 12 % of the page, whose lifting cut the value lines into pieces: 7 values lost).
 */
export const EDGE_SHARE = 0.15;

/** An overlay found on a page: its level as a ratio to the paper, its peak's share of the page, its contrast to the peak's sides, and its EDGE_SHARE measure. */
export interface Overlay { ratio: number; share: number; contrast: number; edges: number }

/** Paper level per pixel (light.ts lightField's grid, bilinear between block centres). */
function paperPlane(data: Uint8Array, w: number, h: number): Float32Array {
  const f = lightField(data, w, h);
  const p = new Float32Array(w * h);
  for (let y = 0; y < h; y++) gridRow(f, y, p.subarray(y * w, (y + 1) * w));
  return p;
}

/**
 * The flat pixels of an 8-bit grey page (w x h) at a mid ratio to the paper `p` (module steps 1-2), as a
 * mask, and the overlay their ratios' histogram shows (step 3), or null when no peak stands out.
 */
export function findOverlay(data: Uint8Array, w: number, h: number, p: Float32Array = paperPlane(data, w, h)): { overlay: Overlay | null; flat: Uint8Array } {
  const hist = new Float64Array(102);
  const flat = new Uint8Array(w * h);
  const R = FLAT_RADIUS;
  for (let y = R; y < h - R; y++) for (let x = R; x < w - R; x++) {
    const i = y * w + x, r = data[i] / Math.max(1, p[i]);
    if (r < LEAST_RATIO - RATIO_BAND || r > MOST_RATIO + RATIO_BAND) continue;
    let lo = 255, hi = 0;
    for (let dy = -R; dy <= R; dy++) for (let dx = -R; dx <= R; dx++) { const v = data[i + dy * w + dx]; if (v < lo) lo = v; if (v > hi) hi = v; }
    if (hi - lo > FLAT_TOL * p[i]) continue;
    flat[i] = 1;
    hist[Math.round(r * 100)]++;
  }
  let best: Overlay | null = null;
  const n = Math.max(1, w * h);
  for (let k = Math.round(LEAST_RATIO * 100); k <= Math.round(MOST_RATIO * 100); k++) {
    if (hist[k] < hist[k - 1] || hist[k] < hist[k + 1]) continue;
    const share = (hist[k - 1] + hist[k] + hist[k + 1]) / n;
    const sides = (hist[k - 6] + hist[k - 5] + hist[k - 4] + hist[k + 4] + hist[k + 5] + hist[k + 6]) / 2 / n;
    if (!best || share > best.share) best = { ratio: k / 100, share, contrast: share / Math.max(1e-6, sides), edges: 0 };
  }
  if (best) best.edges = edgeShare(data, w, h, p, flat, best.ratio);
  return { overlay: best, flat };
}

/**
 * Share of the flat pixels at `ratio` (one in four) within EDGE_REACH px of a pixel at least half-way from
 * that ratio up to the paper's level: how many of them lie along a letter's edge.
 */
function edgeShare(data: Uint8Array, w: number, h: number, p: Float32Array, flat: Uint8Array, ratio: number): number {
  const step = ratio + 0.5 * (1 - ratio), D = EDGE_REACH;
  let n = 0, near = 0;
  for (let y = D; y < h - D; y += 2) for (let x = D; x < w - D; x += 2) {
    const i = y * w + x;
    if (!flat[i] || Math.abs(data[i] / Math.max(1, p[i]) - ratio) > RATIO_BAND) continue;
    n++;
    let found = false;
    for (let dy = -D; dy <= D && !found; dy++) for (let dx = -D; dx <= D; dx++) {
      const j = i + dy * w + dx;
      if (data[j] >= step * p[j]) { found = true; break; }
    }
    if (found) near++;
  }
  return n ? near / n : 0;
}

/** Whether an overlay found on a page stands out enough to be divided out (OVERLAY_SHARE, OVERLAY_CONTRAST, EDGE_SHARE). */
export const standsOut = (o: Overlay | null): o is Overlay => o !== null && o.share >= OVERLAY_SHARE && o.contrast >= OVERLAY_CONTRAST && o.edges >= EDGE_SHARE;

/**
 * Least contrast (OVERLAY_CONTRAST's) of an overlay in the green of a frame already found to carry blue
 * ink (frame.ts): the ink is there, and the question is only whether it lies flat at one level over the
 * picture (an overlay) or in strokes (a notary's stamp, a pen: final10's stamped frames show no peak of
 * any size, 0-0.0004 % of the page). Measured at the frame's own resolution, before the card is scaled
 * and a perspective frame warped upright, where an overlay's peak is lower (final32 #4: 2.96 there,
 * 3.68 on its prepared page).
 */
export const BLUE_OVERLAY_CONTRAST = 2.5;

/** Whether the green `data` (w x h) of a frame with blue ink carries an overlay (frame.ts: its plain green kept): OVERLAY_SHARE, BLUE_OVERLAY_CONTRAST and EDGE_SHARE. */
export function blueOverlay(data: Uint8Array, w: number, h: number): boolean {
  const o = findOverlay(data, w, h).overlay;
  return o !== null && o.share >= OVERLAY_SHARE && o.contrast >= BLUE_OVERLAY_CONTRAST && o.edges >= EDGE_SHARE;
}

/**
 * Divides the overlay of an 8-bit grey page (w x h px) out, in place (module steps 1-4), when one stands
 * out; returns it, or null (the page untouched).
 */
export function liftOverlay(data: Uint8Array, w: number, h: number): Overlay | null {
  if (w < 8 || h < 8) return null;
  const p = paperPlane(data, w, h);
  const { overlay, flat } = findOverlay(data, w, h, p);
  if (!standsOut(overlay)) return null;
  const mine = new Uint8Array(w * h);
  for (let i = 0; i < mine.length; i++) if (flat[i] && Math.abs(data[i] / Math.max(1, p[i]) - overlay.ratio) <= RATIO_BAND) mine[i] = 1;
  const grown = dilate(dilate(mine, w, h, true), w, h, false);
  for (let i = 0; i < data.length; i++) {
    if (!grown[i]) continue;
    const v = Math.min(p[i], data[i] / overlay.ratio);
    data[i] = v > 255 ? 255 : Math.round(v);
  }
  return overlay;
}

/** A mask grown by GROW px along rows (`horizontal`) or columns. */
function dilate(m: Uint8Array, w: number, h: number, horizontal: boolean): Uint8Array {
  const out = new Uint8Array(m.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    for (let d = -GROW; d <= GROW; d++) {
      const xx = horizontal ? x + d : x, yy = horizontal ? y : y + d;
      if (xx >= 0 && xx < w && yy >= 0 && yy < h && m[yy * w + xx]) { out[y * w + x] = 1; break; }
    }
  }
  return out;
}
