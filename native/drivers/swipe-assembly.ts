/**
 * Image assembly for swipe sensors, our own design (clean room: written from the recordings and
 * textbook methods, not from another driver's code).
 *
 * 1. `stitchFrames`: a finger swiped over a small area sensor arrives as overlapping frames. The
 *    displacement between consecutive frames is found by exhaustive block matching, minimising the
 *    mean absolute difference over the overlap (the classic motion-estimation criterion: J. R. Jain,
 *    A. K. Jain, "Displacement measurement and its application in interframe image coding", IEEE
 *    Trans. Commun. 29(12), 1981), restricted to one swipe direction (the sign most pairs agree on)
 *    and to overlaps of at least `minOverlapRows`. Frames are then placed at their cumulative
 *    offsets, each canvas row taken from the frame whose centre is nearest to it (a centre-weighted
 *    seam as in R. Szeliski, "Image Alignment and Stitching: A Tutorial", 2006, §6.1), which
 *    keeps ridges sharp where a blend would blur small misalignments.
 *
 * 2. `assembleTwoRowSwipe`: a two-row swipe sensor reports, per scan line, a full primary row and a
 *    short window of a second row a fixed distance D downstream (seen in the VFS5011 and VFS301
 *    recordings: the window correlates negatively with the primary row of an earlier line, at a
 *    lag that varies with the swipe speed). The lag m_i (in scan lines) at which the window of line
 *    i best matches (Pearson correlation) an earlier primary row is the time the finger took to
 *    travel D, so the finger advanced D / m_i pixels during line i. Lags are median-filtered (window
 *    `medianWindow`), positions integrated, and output rows resampled at unit spacing by linear
 *    interpolation between the two scan lines around each position (the time-to-space mapping of
 *    swipe sensors, e.g. D. Maltoni et al., "Handbook of Fingerprint Recognition", 2nd ed., §2.4).
 *
 * Both functions are pure: grey images in (8-bit, row-major), a grey image out.
 */

/** Displacement of a frame relative to the previous one, in pixels. */
export interface FrameShift {
  dx: number;
  dy: number;
  /** Mean absolute difference over the overlap at that shift (grey levels). */
  cost: number;
}

export interface StitchOptions {
  /** Largest sideways drift searched between two frames (pixels). */
  maxDx: number;
  /** Smallest overlap accepted between two frames (rows). */
  minOverlapRows: number;
  /** Grey level of canvas pixels no frame covers. */
  background: number;
}

/** Mean absolute difference between `a` and `b` shifted by (dx, dy): b(x, y) ~ a(x + dx, y + dy). */
function overlapCost(a: Uint8Array, b: Uint8Array, w: number, h: number, dx: number, dy: number): number {
  const y0 = Math.max(0, -dy);
  const y1 = Math.min(h, h - dy);
  const x0 = Math.max(0, -dx);
  const x1 = Math.min(w, w - dx);
  let sum = 0;
  for (let y = y0; y < y1; y++) {
    const ra = (y + dy) * w + dx;
    const rb = y * w;
    for (let x = x0; x < x1; x++) sum += Math.abs(a[ra + x]! - b[rb + x]!);
  }
  return sum / ((y1 - y0) * (x1 - x0));
}

function bestShift(a: Uint8Array, b: Uint8Array, w: number, h: number, opts: StitchOptions, sign: -1 | 0 | 1): FrameShift {
  let best: FrameShift = { dx: 0, dy: 0, cost: Infinity };
  const maxDy = h - opts.minOverlapRows;
  for (let dy = sign > 0 ? 0 : -maxDy; dy <= (sign < 0 ? 0 : maxDy); dy++) {
    for (let dx = -opts.maxDx; dx <= opts.maxDx; dx++) {
      const cost = overlapCost(a, b, w, h, dx, dy);
      if (cost < best.cost) best = { dx, dy, cost };
    }
  }
  return best;
}

/**
 * Shifts between consecutive frames (`shifts[k]` places frame k+1 relative to frame k): content at
 * (x, y) in frame k+1 is at (x + dx, y + dy) in frame k. Every shift has the swipe's direction
 * (dy all >= 0 or all <= 0). Frames are `w * h` grey pixels.
 */
export function estimateFrameShifts(frames: readonly Uint8Array[], w: number, h: number, opts: StitchOptions): FrameShift[] {
  const free = frames.slice(1).map((f, k) => bestShift(frames[k]!, f, w, h, opts, 0));
  const down = free.reduce((n, s) => n + (s.dy > 0 ? 1 : s.dy < 0 ? -1 : 0), 0);
  const sign: -1 | 1 = down >= 0 ? 1 : -1;
  return free.map((s, k) => (Math.sign(s.dy) === -sign ? bestShift(frames[k]!, frames[k + 1]!, w, h, opts, sign) : s));
}

/** Places frames at their cumulative offsets (see the file comment). Returns the canvas, top row first. */
export function stitchFrames(frames: readonly Uint8Array[], w: number, h: number, opts: StitchOptions): { widthPx: number; heightPx: number; pixels: Uint8Array; shifts: FrameShift[] } {
  if (frames.length === 0) throw new RangeError('stitchFrames: no frames');
  const shifts = estimateFrameShifts(frames, w, h, opts);
  const pos = [{ x: 0, y: 0 }];
  for (const s of shifts) {
    const p = pos[pos.length - 1]!;
    pos.push({ x: p.x + s.dx, y: p.y + s.dy });
  }
  const minX = Math.min(...pos.map((p) => p.x));
  const minY = Math.min(...pos.map((p) => p.y));
  const width = w + Math.max(...pos.map((p) => p.x)) - minX;
  const height = h + Math.max(...pos.map((p) => p.y)) - minY;
  const pixels = new Uint8Array(width * height).fill(opts.background);
  const owner = new Float64Array(height).fill(Infinity); // distance of the painted row to its frame's centre
  frames.forEach((f, k) => {
    const ox = pos[k]!.x - minX;
    const oy = pos[k]!.y - minY;
    for (let y = 0; y < h; y++) {
      const dist = Math.abs(y - (h - 1) / 2);
      if (dist >= owner[oy + y]!) continue;
      owner[oy + y] = dist;
      pixels.fill(opts.background, (oy + y) * width, (oy + y + 1) * width);
      pixels.set(f.subarray(y * w, (y + 1) * w), (oy + y) * width + ox);
    }
  });
  return { widthPx: width, heightPx: height, pixels, shifts };
}

export interface TwoRowOptions {
  /** Pixels in a primary row. */
  widthPx: number;
  /** Primary-row pixel under the first pixel of the second-row window. */
  windowOffsetPx: number;
  /** The second row's polarity is opposite to the primary row's (true on both recorded sensors). */
  windowInverted: boolean;
  /** Largest lag searched (scan lines). */
  maxLag: number;
  /** Distance between the rows, in output pixels (sets the vertical scale). */
  rowDistancePx: number;
  /** Median filter width over the lags (scan lines, odd). */
  medianWindow: number;
  /** Lags whose best correlation is below this are not trusted and filled from their neighbours. */
  minCorrelation: number;
}

function pearson(a: Uint8Array, b: Uint8Array, bOffset: number): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[bOffset + i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]! - ma;
    const y = b[bOffset + i]! - mb;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  return saa === 0 || sbb === 0 ? 0 : sab / Math.sqrt(saa * sbb);
}

/** Per scan line, the lag (scan lines) to the earlier primary row its window matches; NaN where unknown. */
export function estimateLags(primary: readonly Uint8Array[], windows: readonly Uint8Array[], opts: TwoRowOptions): number[] {
  const sign = opts.windowInverted ? -1 : 1;
  return windows.map((win, i) => {
    let best = opts.minCorrelation;
    let lag = Number.NaN;
    for (let m = 1; m <= Math.min(opts.maxLag, i); m++) {
      const c = sign * pearson(win, primary[i - m]!, opts.windowOffsetPx);
      if (c > best) {
        best = c;
        lag = m;
      }
    }
    return lag;
  });
}

function medianFilter(values: number[], window: number): number[] {
  const half = Math.floor(window / 2);
  return values.map((_, i) => {
    const part = values.slice(Math.max(0, i - half), i + half + 1).filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
    return part.length ? part[Math.floor(part.length / 2)]! : Number.NaN;
  });
}

/**
 * Assembles a two-row swipe (see the file comment). `primary[i]` is scan line i's full row,
 * `windows[i]` its second-row window. Returns rows in scan order (the first scanned line on top).
 * Throws RangeError when no lag can be estimated (no finger texture).
 */
export function assembleTwoRowSwipe(primary: readonly Uint8Array[], windows: readonly Uint8Array[], opts: TwoRowOptions): { widthPx: number; heightPx: number; pixels: Uint8Array; lags: number[] } {
  let lags = medianFilter(estimateLags(primary, windows, opts), opts.medianWindow);
  const known = lags.filter((v) => !Number.isNaN(v));
  if (known.length === 0) throw new RangeError('assembleTwoRowSwipe: no line matched its second row');
  // Lines before the first estimate take it; gaps take the previous estimate.
  let last = known[0]!;
  lags = lags.map((v) => (Number.isNaN(v) ? last : (last = v)));
  const pos = [0];
  for (let i = 1; i < primary.length; i++) pos.push(pos[i - 1]! + opts.rowDistancePx / lags[i]!);
  const heightPx = Math.floor(pos[pos.length - 1]!) + 1;
  const w = opts.widthPx;
  const pixels = new Uint8Array(heightPx * w);
  let i = 0;
  for (let y = 0; y < heightPx; y++) {
    while (i + 1 < pos.length - 1 && pos[i + 1]! < y) i++;
    const span = pos[i + 1]! - pos[i]!;
    const t = span > 0 ? Math.min(1, Math.max(0, (y - pos[i]!) / span)) : 0;
    const a = primary[i]!;
    const b = primary[Math.min(i + 1, primary.length - 1)]!;
    for (let x = 0; x < w; x++) pixels[y * w + x] = Math.round(a[x]! * (1 - t) + b[x]! * t);
  }
  return { widthPx: w, heightPx, pixels, lags };
}

/** Linear contrast stretch: the `low` and `high` quantiles (0..1) of `values` map to 0 and 255. */
export function stretchContrast(values: ArrayLike<number>, low = 0.01, high = 0.99): Uint8Array {
  const sorted = Float64Array.from(values as ArrayLike<number>).sort();
  const lo = sorted[Math.floor(low * (sorted.length - 1))]!;
  const hi = sorted[Math.floor(high * (sorted.length - 1))]!;
  const out = new Uint8Array(values.length);
  const scale = hi > lo ? 255 / (hi - lo) : 0;
  for (let i = 0; i < values.length; i++) out[i] = Math.max(0, Math.min(255, Math.round((values[i]! - lo) * scale)));
  return out;
}
