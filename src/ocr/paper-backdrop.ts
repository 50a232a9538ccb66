/**
 * A card photographed lying on printed paper (an application form, a page, a photocopy): the paper is
 * as light as the card in the green channel the card finder reads (frame.ts), so no card-over-darker
 * background is seen, and the paper's own print (its labels, rules, protocol numbers) lies around the
 * card, where the page flow would read it as the card's. What tells them apart is colour: office paper
 * is neutral (blue within a few percent of green, whatever the light's level), a CNH's security paper is
 * tinted (pale green or green-yellow: blue 8-12 % under green). `paperMask` finds such a frame and the
 * card's region in it; frame.ts then darkens everything outside the region, so that the card lies over
 * a dark background as in every other photo (its edges straighten and crop it, and no word of the paper
 * is left to read). Frames without a large neutral surface on three sides (a dark desk, a scan's white
 * lid, a greyscale camera), or whose neutral surface is a rendered screen (flat: FLAT_PAPER), are left
 * alone: `paperMask` returns null.
 * Source of the idea: colour-based document segmentation (chroma against a neutral background), as in
 * receipt and ID-card scanners that tell the document from a white table.
 */

import type { Gray, Raw } from './frame.js';

/** Blue's shortfall under green (1 - B/G) below which a pixel is neutral paper. */
export const NEUTRAL_TINT = 0.05;
/** Tints from NEUTRAL_TINT up to this are a tinted card; above it: wood, cloth, skin (not a card). */
export const CARD_TINT_MAX = 0.2;
/** Green level under which a pixel's tint is not measured (too dark: noise). */
const MIN_GREEN = 50;
/** Smallest share of the frame that must be neutral paper, and that must be card, for a mask. */
export const MIN_PAPER_SHARE = 0.25;
export const MIN_CARD_SHARE = 0.15;
/** Share of a frame side's pixels that must be paper for the paper to count as surrounding that side. */
const SIDE_PAPER = 0.2;
/** Share of paper pixels equal to their right neighbour (all bands) above which the paper is a rendered screen. */
export const FLAT_PAPER = 0.92;
/** Smallest share of the frame's width (height) left between the card and a side for the surface to show there. */
const MIN_MARGIN = 0.04;
/** Opening radius (copy px) that removes thin tinted lines along the paper's own edges. */
const OPEN_PX = 3;
/** Smallest card piece kept (share of the frame): a card's side, not a speck of tinted print. */
const MIN_PIECE = 0.04;

/**
 * The card's region in an RGB frame `rgb` (`channels` 3 or 4, width `w`, height `h`, interleaved, any
 * scale; the caller passes an analysis copy a few hundred px wide), as a mask (1 card, 0 not, w x h),
 * or null when the frame is not a tinted card over neutral paper (module comment). The mask is the
 * tinted pixels, closed over type (2 px), with holes that touch no frame side filled (the card's grey
 * photograph, its dark print) and pieces under MIN_PIECE dropped.
 */
export function paperMask(rgb: Uint8Array, w: number, h: number, channels: number): Uint8Array | null {
  const n = w * h;
  const cls = new Uint8Array(n); // 0 other, 1 paper, 2 card
  let paper = 0, card = 0;
  for (let i = 0, j = 0; i < n; i++, j += channels) {
    const g = rgb[j + 1], b = rgb[j + 2];
    if (g < MIN_GREEN) continue;
    const tint = 1 - b / g;
    if (tint < NEUTRAL_TINT) { cls[i] = 1; paper++; } else if (tint < CARD_TINT_MAX) { cls[i] = 2; card++; }
  }
  if (paper < MIN_PAPER_SHARE * n || card < MIN_CARD_SHARE * n) return null;
  // The paper must lie along at least three of the frame's sides (a surface the card lies on).
  const sideShare = (idx: (k: number) => number, len: number): number => {
    let c = 0;
    for (let k = 0; k < len; k++) if (cls[idx(k)] === 1) c++;
    return c / len;
  };
  const sides = [sideShare((k) => k, w), sideShare((k) => (h - 1) * w + k, w), sideShare((k) => k * w, h), sideShare((k) => k * w + w - 1, h)];
  if (sides.filter((s) => s >= SIDE_PAPER).length < 3) return null;
  // Photographed paper carries the sensor's noise and the print's grain; a screen's rendered
  // background (an app's page around a card image) is flat: most of its pixels equal their neighbour.
  let flat = 0;
  for (let i = 0, j = 0; i < n - 1; i++, j += channels) {
    if (cls[i] === 1 && (i + 1) % w !== 0 && rgb[j] === rgb[j + channels] && rgb[j + 1] === rgb[j + channels + 1] && rgb[j + 2] === rgb[j + channels + 2]) flat++;
  }
  if (flat > FLAT_PAPER * paper) return null;
  let mask: Uint8Array = new Uint8Array(n);
  for (let i = 0; i < n; i++) mask[i] = cls[i] === 2 ? 1 : 0;
  mask = erode(dilate(mask, w, h, 2), w, h, 2);
  fillHoles(mask, w, h);
  // Opened by OPEN_PX: a blurred edge between a dark desk and the paper (tinted in between) is no card.
  mask = dilate(erode(mask, w, h, OPEN_PX), w, h, OPEN_PX);
  const kept = keepPieces(mask, w, h, MIN_PIECE * n);
  let area = 0, x0 = w, x1 = -1, y0 = h, y1 = -1;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (!kept[y * w + x]) continue;
    area++;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (area < MIN_CARD_SHARE * n || area > (1 - MIN_PAPER_SHARE) * n) return null;
  // The surface shows between the card and the frame's edge on three sides at least (a card lying on
  // it, seen whole); a screen's bars beside a card drawn edge to edge do not.
  const margins = [x0 / w, (w - 1 - x1) / w, y0 / h, (h - 1 - y1) / h];
  if (margins.filter((m) => m >= MIN_MARGIN).length < 3) return null;
  return kept;
}

/** A colour copy of a frame: RGB interleaved, `w` x `h` (frame.ts makes it from the pixels it decoded). */
export interface Colour { data: Uint8Array; w: number; h: number }

/** Copy width (px) of the frame's colour for paperMask. */
export const PAPER_PX = 480;
/** Level the paper around a card is darkened to (a desk's). */
export const PAPER_DARK = 40;

/**
 * `rgb` (the frame, any bands, light evened) with everything outside the card set to PAPER_DARK when its
 * colour copy `colour` (the same frame at PAPER_PX wide: frame.ts decodeFrame) shows a tinted card on
 * neutral paper (paperMask); otherwise null. The mask is grown by one copy pixel so the card's own edge
 * stays whole. `mask`: paperMask's card region (255 card, 0 not; copy px) for the card's outline
 * (frame.ts takes its corners with perspective.ts findCardQuad). Errors: none (a copy whose shape is
 * not the frame's, beyond 2 % in aspect, gives null).
 */
export function darkenPaper(rgb: Raw, colour: Colour): { rgb: Raw; mask: Gray } | null {
  const { w, h } = colour;
  if (Math.abs(h / w - rgb.height / rgb.width) > 0.02) return null;
  const found = paperMask(colour.data, w, h, 3);
  if (!found) return null;
  const grown = dilate(found, w, h, 1);
  const out = Buffer.from(rgb.data);
  const sx = w / rgb.width, sy = h / rgb.height, ch = rgb.channels;
  for (let y = 0; y < rgb.height; y++) {
    const row = Math.min(h - 1, Math.floor(y * sy)) * w;
    for (let x = 0; x < rgb.width; x++) {
      if (grown[row + Math.min(w - 1, Math.floor(x * sx))]) continue;
      const i = (y * rgb.width + x) * ch;
      for (let c = 0; c < ch; c++) out[i + c] = PAPER_DARK;
    }
  }
  return { rgb: { ...rgb, data: out }, mask: { data: found.map((v) => v * 255), w, h } };
}

/** `m` (0/1, w x h) grown by `r` px (square neighbourhood, separable). */
export function dilate(m: Uint8Array, w: number, h: number, r: number): Uint8Array {
  return morph(m, w, h, r, 1);
}

/** `m` (0/1, w x h) shrunk by `r` px (square neighbourhood, separable; outside the frame counts as set). */
export function erode(m: Uint8Array, w: number, h: number, r: number): Uint8Array {
  return morph(m, w, h, r, 0);
}

function morph(m: Uint8Array, w: number, h: number, r: number, hit: 0 | 1): Uint8Array {
  const tmp = new Uint8Array(m.length), out = new Uint8Array(m.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let v = 1 - hit;
    for (let k = Math.max(0, x - r); k <= Math.min(w - 1, x + r); k++) if (m[y * w + k] === hit) { v = hit; break; }
    tmp[y * w + x] = v;
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let v = 1 - hit;
    for (let k = Math.max(0, y - r); k <= Math.min(h - 1, y + r); k++) if (tmp[k * w + x] === hit) { v = hit; break; }
    out[y * w + x] = v;
  }
  return out;
}

/** Sets (in place) every unset region of `m` that touches no side of the frame. */
function fillHoles(m: Uint8Array, w: number, h: number): void {
  const outside = new Uint8Array(m.length);
  const stack: number[] = [];
  const push = (i: number): void => { if (!m[i] && !outside[i]) { outside[i] = 1; stack.push(i); } };
  for (let x = 0; x < w; x++) { push(x); push((h - 1) * w + x); }
  for (let y = 0; y < h; y++) { push(y * w); push(y * w + w - 1); }
  while (stack.length) {
    const i = stack.pop()!, x = i % w, y = (i - x) / w;
    if (x > 0) push(i - 1);
    if (x < w - 1) push(i + 1);
    if (y > 0) push(i - w);
    if (y < h - 1) push(i + w);
  }
  for (let i = 0; i < m.length; i++) if (!m[i] && !outside[i]) m[i] = 1;
}

/** The 4-connected pieces of `m` of at least `minArea` px (a new mask). */
function keepPieces(m: Uint8Array, w: number, h: number, minArea: number): Uint8Array {
  const label = new Int32Array(m.length).fill(-1), out = new Uint8Array(m.length);
  const stack: number[] = [];
  for (let s = 0; s < m.length; s++) {
    if (!m[s] || label[s] >= 0) continue;
    const piece: number[] = [];
    label[s] = s;
    stack.push(s);
    while (stack.length) {
      const i = stack.pop()!, x = i % w, y = (i - x) / w;
      piece.push(i);
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
        if (j >= 0 && m[j] && label[j] < 0) { label[j] = s; stack.push(j); }
      }
    }
    if (piece.length >= minArea) for (const i of piece) out[i] = 1;
  }
  return out;
}
