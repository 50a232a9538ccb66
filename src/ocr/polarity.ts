/**
 * The polarity of a frame's type: dark type on a light ground (a printed card, a scan, an app in its light
 * theme) or light type on a dark ground (an app's dark theme, a negative scan, a photograph of a phone in
 * dark mode). Everything after the decode (the card finder, the light, the stretch, the recogniser) expects
 * dark type, so a frame whose type is light is turned negative first (frame.ts findCard).
 *
 * Source: the minority-tone rule of text binarisation (type covers a minority of the ground it is printed
 * on: ~5-35 % of a line's box, so within a patch of text the minority tone is the type's), with the
 * stroke-width statistic that tells type from a region's edge (a stroke's runs are short, a ground's long;
 * cf. Epshtein, Ofek and Wexler, "Detecting text in natural scenes with stroke width transform", CVPR 2010,
 * which runs both polarities for the same reason). Each tile of the frame that holds such a patch votes for
 * its minority tone; the frame is light-on-dark when the light votes clearly outnumber the dark.
 */
import type { Gray } from './frame.js';
import { otsu } from './light.js';

/** A tile's spread (max - min of its sampled levels) under which it holds no type. */
export const TYPE_CONTRAST = 64;
/** A tile's minority tone covers at least this share of its samples (less: a speck, a noise pixel)... */
const MIN_MINORITY = 0.03;
/** ...and at most this share (more: two grounds side by side, a region's edge, a photograph). */
const MAX_MINORITY = 0.4;
/** The minority's mean run along a row is at most this share of the tile (longer: a blob or a ground, not a stroke). */
const MAX_RUN_SHARE = 0.2;
/** The majority's mean run is at least this many times the minority's (the ground between strokes is wider than they are). */
const GROUND_OVER_STROKE = 1.5;
/** A tile whose minority's samples lie more than this share in runs touching its left or right side does not vote. */
const EDGE_SHARE = 0.5;
/** Tiles across the frame's longer side. */
const TILES_ACROSS = 48;
/** Light votes needed to call a frame light-on-dark (fewer: too little type to tell; the frame is left as it is)... */
export const MIN_LIGHT_VOTES = 24;
/** ...and how many times the dark votes they must be. */
export const LIGHT_OVER_DARK = 3;

/** The votes of a frame's tiles: `light` tiles whose type is lighter than its ground, `dark` the usual. */
export interface PolarityVotes { light: number; dark: number; tile: number }

/**
 * The votes of the type-holding tiles of band `band` of raw pixels `data` (w x h, `channels` bands
 * interleaved, 8 bit). Tiles are about 1/48 of the longer side (at least 16 px); each is sampled on about 12
 * of its rows, every pixel of them: its min and max (a spread under TYPE_CONTRAST: no vote), the samples
 * under their midpoint the dark tone, the rest the light one; it votes for the minority tone when that
 * covers 3-40 % of the samples, its runs along the rows are short (mean at most 1/5 of the tile) and the
 * majority's runs are at least 1.5 times as long. Cost: one read of ~1/4 to 1/12 of the frame's rows
 * (~2 ms for 1920 x 1080 here). Throws nothing; an empty frame has no votes.
 */
export function polarityVotes(data: Uint8Array, w: number, h: number, channels = 1, band = 0): PolarityVotes {
  const tile = Math.max(16, Math.round(Math.max(w, h) / TILES_ACROSS));
  const step = Math.max(1, Math.floor(tile / 12));
  let light = 0, dark = 0;
  for (let ty = 0; ty + tile <= h; ty += tile) {
    for (let tx = 0; tx + tile <= w; tx += tile) {
      let lo = 255, hi = 0;
      for (let y = ty; y < ty + tile; y += step) {
        let i = (y * w + tx) * channels + band;
        for (let x = 0; x < tile; x++, i += channels) {
          const v = data[i];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      }
      if (hi - lo < TYPE_CONTRAST) continue;
      const mid = (lo + hi) / 2;
      // Samples and runs of each tone, and the samples of runs that touch the tile's left or right edge.
      let nDark = 0, nLight = 0, rDark = 0, rLight = 0, eDark = 0, eLight = 0;
      for (let y = ty; y < ty + tile; y += step) {
        let i = (y * w + tx) * channels + band, prev = -1, len = 0, fromEdge = true;
        for (let x = 0; x <= tile; x++, i += channels) {
          const d = x < tile ? (data[i] < mid ? 1 : 0) : -1;
          if (d === prev) { len++; continue; }
          if (prev === 1) { nDark += len; rDark++; if (fromEdge || d === -1) eDark += len; }
          else if (prev === 0) { nLight += len; rLight++; if (fromEdge || d === -1) eLight += len; }
          fromEdge = prev === -1;
          prev = d;
          len = 1;
        }
      }
      const n = nDark + nLight, darkMinor = nDark <= nLight;
      const nMin = darkMinor ? nDark : nLight, nMaj = darkMinor ? nLight : nDark;
      const runsMin = darkMinor ? rDark : rLight, runsMaj = darkMinor ? rLight : rDark;
      if (nMin < MIN_MINORITY * n || nMin > MAX_MINORITY * n || runsMin === 0 || runsMaj === 0) continue;
      // A minority held mostly by runs at the tile's sides is a region's edge (a card's side on a dark desk), not type.
      if ((darkMinor ? eDark : eLight) > EDGE_SHARE * nMin) continue;
      const runMin = nMin / runsMin, runMaj = nMaj / runsMaj;
      if (runMin > MAX_RUN_SHARE * tile || runMaj < GROUND_OVER_STROKE * runMin) continue;
      if (darkMinor) dark++; else light++;
    }
  }
  return { light, dark, tile };
}

/** Whether votes call the frame's type light on a dark ground (MIN_LIGHT_VOTES, LIGHT_OVER_DARK). */
export const lightOnDark = (v: PolarityVotes): boolean => v.light >= MIN_LIGHT_VOTES && v.light >= LIGHT_OVER_DARK * v.dark;

/** Rec. 601 luma weights of bands green, red, blue (frame.ts's band order). */
export const GRB_WEIGHTS = [0.587, 0.299, 0.114] as const;
/** Rec. 601 luma weights of bands red, green, blue (a colour copy's order). */
export const RGB_WEIGHTS = [0.299, 0.587, 0.114] as const;

/**
 * Raw pixels (`channels` bands interleaved, 8 bit) turned negative in place, hue kept: with one band each
 * level v becomes 255 - v; with three, each pixel's three bands are shifted by the same 255 - 2 Y (Y their
 * mean weighted by `bandWeights`: GRB_WEIGHTS for frame.ts's band order green, red, blue, RGB_WEIGHTS for a colour copy's), clamped, so that
 * its luma is inverted and a red or blue ink stays red or blue. Other counts of bands: each band inverted.
 */
export function invertLuma(data: Uint8Array, channels: number, bandWeights: readonly [number, number, number] = GRB_WEIGHTS): void {
  if (channels !== 3) {
    for (let i = 0; i < data.length; i++) data[i] = 255 - data[i];
    return;
  }
  for (let i = 0; i + 2 < data.length; i += 3) {
    const y = bandWeights[0] * data[i] + bandWeights[1] * data[i + 1] + bandWeights[2] * data[i + 2];
    const d = 255 - 2 * y;
    for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, Math.round(data[i + c] + d)));
  }
}

/** A dark run along a row longer than this share of the page's width is a solid block, not type (withoutSolids). */
export const SOLID_RUN_SHARE = 1 / 25;

/**
 * A copy of gray page `g` with every run along a row of pixels under its Otsu threshold that is longer
 * than SOLID_RUN_SHARE of its width set to white: what a negative frame's skew search reads (frame.ts),
 * where the light squares the theme left as they were (the photo, the QR code's ground) turned into
 * solid dark blocks whose projections a turn of a few degrees lines up with each other (final26 #16:
 * turned 3 degrees, the limit of the search, by its photo and QR square). Type's strokes, at most a
 * letter wide, are kept. Throws nothing.
 */
export function withoutSolids(g: Gray): Gray {
  const t = otsu(g.data), longest = Math.max(4, Math.round(SOLID_RUN_SHARE * g.w));
  const data = Uint8Array.from(g.data);
  for (let y = 0; y < g.h; y++) {
    const row = y * g.w;
    let start = -1;
    for (let x = 0; x <= g.w; x++) {
      const dark = x < g.w && data[row + x] <= t;
      if (dark && start < 0) start = x;
      else if (!dark && start >= 0) {
        if (x - start > longest) data.fill(255, row + start, row + x);
        start = -1;
      }
    }
  }
  return { data, w: g.w, h: g.h };
}
