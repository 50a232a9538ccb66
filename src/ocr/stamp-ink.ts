/**
 * Blue and violet ink read as paper. A CNH is printed in black and red on a pale green/yellow ground;
 * a notary's certification stamp ("carimbo de autenticação") and a pen signature over a certified copy
 * are blue or violet. The page is read from the green channel (frame.ts), where black and red type are
 * dark, but so is blue and violet ink, whose stamp text and borders then join or break the card's lines.
 *
 * Each channel is put on the image's own scale (its black level, a low percentile, to 0; its paper
 * level, the 90th percentile, to 1), so a warm or cool cast, a yellowed laminate or a screen's tint moves
 * both ends. A pixel is an ink candidate where its blue stands above its green both in its own levels
 * (INK_RAW: on the scale, a neutral grey looks bluish beside the green paper) and on the scale (INK_D),
 * its red is not well above its blue (red type, a brown stain) and its green is not paper. Ink of
 * coverage a and colour (ig, ib) over paper has green 1 - a(1 - ig) and blue minus green d = a(ib - ig),
 * so q = d / (1 - green) is the ink's own (ib - ig) / (1 - ig), whatever a: over black type q is lower,
 * on black type with a tint near 0. The ink's q is the median q of the image's candidates (blueInk);
 * where a pixel's q is near it, green is lifted by d / q, which takes the ink back to the paper, while
 * ink over type (a lower q) keeps its dark and type stays type. A candidate next to type is left alone:
 * a lens's colour fringes along black strokes are bluish too. Frames with no ink (most: blueInk finds
 * too few 2 x 2 blocks of it) are their green channel, and grey frames (greyscale cameras,
 * photocopies: blue never above green) always are.
 */

/**
 * Blue above green in the pixel's own levels (0-255) at or below which it is no ink, whatever the scale
 * says: on the scale a neutral grey (a photo, black type's lifted black) looks bluish, the card's green
 * paper being its reference; a blue or violet ink is bluer than green in itself.
 */
export const INK_RAW = 8;
/** Blue above green (levels' scale) below which a pixel is no ink: JPEG's chroma noise, the paper's own tint. */
export const INK_D = 0.04;
/** Green above this (levels' scale) is paper or the faintest ink: left as it is. */
export const INK_G = 0.9;
/** q (blue gained over green lost) below which a pixel is black or red type, whatever its tint. */
export const INK_Q = 0.15;
/** The ink's q at most (a q near 1 is a pale blue, lifted by about its own blue minus green). */
const INK_Q_MAX = 0.9;
/** Lifting starts at this share of the ink's q and is whole at LIFT_FULL: ink over type has a lower q and keeps its dark. */
export const LIFT_FROM = 0.5;
export const LIFT_FULL = 0.8;
/** Red above blue (on the levels' scale) past which a pixel is red or brown, never stamp ink. */
export const RED_OVER_BLUE = 0.25;
/** Black and paper levels: these percentiles of each channel. */
const BLACK_PCT = 0.005;
const PAPER_PCT = 0.9;
/** Pixels looked at for the levels: about this many, evenly spread. */
const LEVEL_SAMPLES = 200_000;

/** Band indices of red, green and blue in interleaved pixels. */
export type BandOrder = [number, number, number];

/** The `lo` and `hi` percentiles of band `c` of interleaved pixels (`ch` bands), from about LEVEL_SAMPLES pixels. */
function levels(data: Uint8Array, ch: number, c: number, lo: number, hi: number): [number, number] {
  const n = Math.floor(data.length / ch);
  const step = Math.max(1, Math.floor(n / LEVEL_SAMPLES));
  const hist = new Uint32Array(256);
  let m = 0;
  for (let i = 0; i < n; i += step) { hist[data[i * ch + c]]++; m++; }
  const at = (p: number): number => {
    let acc = 0, v = 0;
    while (v < 255 && (acc += hist[v]) < p * m) v++;
    return v;
  };
  return [at(lo), at(hi)];
}

export interface InkLevels {
  /** Black and paper levels of red, green and blue. */
  black: [number, number, number];
  paper: [number, number, number];
}

/** The frame's black and paper levels per channel (module comment). */
export function inkLevels(data: Uint8Array, ch: number, order: BandOrder = [0, 1, 2]): InkLevels {
  const [r, g, b] = order.map((c) => levels(data, ch, c, BLACK_PCT, PAPER_PCT));
  return { black: [r[0], g[0], b[0]], paper: [r[1], g[1], b[1]] };
}

/** Levels too close together to put a channel on a scale (a blank or near-black frame). */
const flat = (lv: InkLevels): boolean => lv.paper.some((p, i) => p - lv.black[i] < 24);

/**
 * A pixel's blue minus green on the levels' scale (`d`) and that over what green lost (`q`, module
 * comment), or null where it is no candidate: red well above blue (red type, a warm stain: red and
 * brown are never stamp ink), blue not above green by INK_D, green nearly paper.
 */
function inkOf(r: number, g: number, b: number, lv: InkLevels): { d: number; gs: number; q: number } | null {
  const [r0, g0, b0] = lv.black, [r1, g1, b1] = lv.paper;
  const bs = (b - b0) / (b1 - b0), gs = (g - g0) / (g1 - g0);
  const d = bs - gs;
  if (b - g <= INK_RAW || d <= INK_D || gs > INK_G || (r - r0) / (r1 - r0) - bs > RED_OVER_BLUE) return null;
  return { d, gs, q: d / Math.max(0.05, 1 - gs) };
}

/** Green (levels' scale) under which a block counts towards a frame's ink (clearly inked, not paper with noise). */
export const GATE_G = 0.75;
/** Fewest candidate pixels (of about LEVEL_SAMPLES) for a frame to carry blue ink. */
export const BLUE_INK_SHARE = 0.001;

/**
 * The ink's q (blue gained over green lost, module comment) when a frame (interleaved pixels, `ch`
 * bands, `width` px a row) carries blue or violet ink: the median q of about LEVEL_SAMPLES 2 x 2 blocks
 * evenly spread (their mean: a scanner's or a sensor's colour noise, pixel by pixel, averages out; ink
 * strokes do not) whose q is over INK_Q, clearly inked (GATE_G) and not within `fringe` px of type (a
 * lens's colour fringes), when at least BLUE_INK_SHARE of them are; otherwise null.
 */
export function blueInk(data: Uint8Array, ch: number, width: number, fringe: number, order: BandOrder = [0, 1, 2], lv: InkLevels = inkLevels(data, ch, order)): number | null {
  if (flat(lv)) return null;
  const n = Math.floor(data.length / ch), h = Math.floor(n / width);
  if (width < 2 || h < 2) return null;
  const step = Math.max(1, Math.floor(n / LEVEL_SAMPLES));
  const [ir, ig, ib] = order;
  const row = width * ch;
  const qs: number[] = [];
  let m = 0;
  for (let i = 0; i < n; i += step) {
    const x = i % width, y = (i - x) / width;
    if (x + 1 >= width || y + 1 >= h) continue;
    m++;
    const j = i * ch, j2 = j + row;
    // Most blocks are paper or type, blue not above green: one integer test.
    const g4 = data[j + ig] + data[j + ch + ig] + data[j2 + ig] + data[j2 + ch + ig];
    const b4 = data[j + ib] + data[j + ch + ib] + data[j2 + ib] + data[j2 + ch + ib];
    if (b4 - g4 <= 4 * INK_RAW) continue;
    const r4 = data[j + ir] + data[j + ch + ir] + data[j2 + ir] + data[j2 + ch + ir];
    const k = inkOf(r4 / 4, g4 / 4, b4 / 4, lv);
    if (k && k.q > INK_Q && k.gs < GATE_G && !nearType(data, ch, width, h, x, y, fringe, order, lv)) qs.push(k.q);
  }
  if (m === 0 || qs.length < BLUE_INK_SHARE * m) return null;
  qs.sort((a, b) => a - b);
  return Math.min(INK_Q_MAX, qs[qs.length >> 1]);
}

/** Whether a pixel within `r` px of (x, y) is type: green under TYPE_G and no ink candidate (a lens's fringe lies along type). */
function nearType(data: Uint8Array, ch: number, width: number, h: number, x: number, y: number, r: number, order: BandOrder, lv: InkLevels): boolean {
  const [ir, ig, ib] = order;
  const below = lv.black[1] + TYPE_G * (lv.paper[1] - lv.black[1]);
  for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++) {
    for (let xx = Math.max(0, x - r); xx <= Math.min(width - 1, x + r); xx++) {
      const j = (yy * width + xx) * ch;
      if (data[j + ig] < below && !inkOf(data[j + ir], data[j + ig], data[j + ib], lv)) return true;
    }
  }
  return false;
}

/** Whether a frame carries blue or violet ink (blueInk). */
export const hasBlueInk = (data: Uint8Array, ch: number, width: number, fringe: number, order: BandOrder = [0, 1, 2]): boolean => blueInk(data, ch, width, fringe, order) !== null;

/**
 * Most of the page's pixels that may be lifted before the "ink" is taken for a blue surface (a checked
 * cloth or a desk mat left in the card's crop: final5 #56, 0.27) and the page is left its green channel:
 * a notary's stamp and a pen cover a few per cent of a card (final10's stamped cards: 0.003-0.026).
 */
export const MAX_LIFTED_SHARE = 0.1;

/** Green (levels' scale) under which a pixel that is no ink candidate is type (black or red). */
export const TYPE_G = 0.35;

/**
 * The grey page of interleaved pixels (`ch` bands, `width` px a row, red, green and blue at `order`):
 * green, with blue and violet ink over paper lifted to paper (module comment). A candidate within
 * `fringe` px of type (a dark pixel that is no candidate) is left as it is: a lens's colour fringe along
 * black type is bluish too, and lifting it would thin the type. Also returns the share of pixels lifted
 * and the ink's q.
 */
export function greenWithoutBlueInk(data: Uint8Array, ch: number, width: number, fringe = 2, order: BandOrder = [0, 1, 2], lv: InkLevels = inkLevels(data, ch, order)): { gray: Buffer; share: number; q: number | null } {
  const n = Math.floor(data.length / ch);
  const out = Buffer.allocUnsafe(n);
  const [ir, ig, ib] = order;
  const q = blueInk(data, ch, width, fringe, order, lv);
  if (q === null) {
    for (let i = 0; i < n; i++) out[i] = data[i * ch + ig];
    return { gray: out, share: 0, q };
  }
  const h = Math.floor(n / width);
  const g0 = lv.black[1], gspan = lv.paper[1] - lv.black[1];
  const typeBelow = g0 + TYPE_G * gspan;
  const from = Math.max(INK_Q, LIFT_FROM * q), full = Math.max(from + 0.05, LIFT_FULL * q);
  // 0: left as it is; 1: type; 2..: a candidate, its weight (w * 250 + 2).
  const kind = new Uint8Array(n);
  const lift = new Float32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += ch) {
    const g = data[j + ig];
    out[i] = g;
    const k = inkOf(data[j + ir], g, data[j + ib], lv);
    if (!k) { if (g < typeBelow) kind[i] = 1; continue; }
    if (k.q <= from) continue;
    const w = k.q >= full ? 1 : (k.q - from) / (full - from);
    // Green lifted by what the ink took: blue minus green over the ink's q.
    lift[i] = (w * k.d * gspan) / q;
    kind[i] = 2;
  }
  let moved = 0;
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - fringe), y1 = Math.min(h - 1, y + fringe);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (kind[i] !== 2) continue;
      const x0 = Math.max(0, x - fringe), x1 = Math.min(width - 1, x + fringe);
      let nearType = false;
      for (let yy = y0; yy <= y1 && !nearType; yy++) for (let xx = x0, o = yy * width; xx <= x1; xx++) if (kind[o + xx] === 1) { nearType = true; break; }
      if (nearType) continue;
      moved++;
      const v = out[i] + lift[i];
      out[i] = v >= 255 ? 255 : Math.round(v);
    }
  }
  const share = moved / Math.max(1, n);
  if (share > MAX_LIFTED_SHARE) {
    for (let i = 0; i < n; i++) out[i] = data[i * ch + ig];
    return { gray: out, share: 0, q: null };
  }
  return { gray: out, share, q };
}
