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
 *    offsets. Where frames overlap, `overlap: 'centre'` takes each canvas row from the frame whose
 *    centre is nearest to it (a centre-weighted seam as in R. Szeliski, "Image Alignment and
 *    Stitching: A Tutorial", 2006, §6.1, which keeps ridges sharp where a blend would blur small
 *    misalignments); `overlap: 'latest'` paints each frame over the earlier ones. Optionally
 *    `edgeRows` rows are cut from the top and bottom of every frame once the offsets are known, and
 *    the canvas has a fixed `canvasWidthPx` with the first frame centred in it.
 * 2. `assembleSwipeLines`: a line-scan swipe sensor (VFS5011; VFS301 uses 3.) streams rows much faster than
 *    the finger moves, so consecutive rows repeat the same skin at a varying, unknown speed. The
 *    speed per row comes from brightness constancy (B. K. P. Horn, B. G. Schunck, "Determining
 *    optical flow", Artificial Intelligence 17, 1981: I_t = -v I_y): v = |I_t| / |I_y|, with the mean
 *    absolute row-to-row difference as |I_t| (less the sensor's noise floor: its `noiseQuantile`
 *    quantile over the swipe, the rows where the finger rests) and, since one row has no vertical
 *    gradient, the mean absolute horizontal gradient as |I_y| (ridges run in all directions, so the
 *    two are alike on average). Each row's estimate is raised to `speedExponent` (default 1) and
 *    scaled by `speedGain` (the constants relating this estimate to pixels, fitted per sensor family:
 *    native/README.md), averaged over `smoothingLines` rows on each side, integrated into positions,
 *    and output rows are resampled at unit spacing by linear interpolation between the two rows around each position (the time-to-space mapping of
 *    swipe sensors, e.g. D. Maltoni et al., "Handbook of Fingerprint Recognition", 2nd ed., §2.4).
 *    (The sensors also send a 64-pixel window of a second row; matching it against earlier rows to
 *    time the finger was tried and dropped: with near-parallel ridges a sideways offset and a delay
 *    are interchangeable, so the correlation has no single peak.)
 *
 * 3. `selectChangedLines`: the simplest time-to-space mapping for a line-scan sensor: keep the first
 *    scan line, then every line that differs from the last kept one by at least `minChange` (mean
 *    absolute difference, grey levels), so a row is added each time the finger has moved far enough
 *    to change the picture and lines repeating the same skin (or no finger) are dropped. No
 *    interpolation: every output row is a scan line as the sensor sent it. Used for vfs301, where
 *    `minChange` was fitted black-box to the recording's capture.png (native/README.md).
 *
 * All functions are pure: grey images in (8-bit, row-major), a grey image out.
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
  /** Which frame shows where frames overlap (see the file comment); default 'centre'. */
  overlap?: 'centre' | 'latest';
  /** Rows cut from the top and the bottom of every frame after matching (default 0). */
  edgeRows?: number;
  /** Canvas width with the first frame centred (columns outside it are cut); default: the frames' extent. */
  canvasWidthPx?: number;
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

/**
 * Places frames at their cumulative offsets (see the file comment). Returns the canvas, top row first.
 * Throws RangeError for no frames or `edgeRows` leaving no row.
 */
export function stitchFrames(frames: readonly Uint8Array[], w: number, h: number, opts: StitchOptions): { widthPx: number; heightPx: number; pixels: Uint8Array; shifts: FrameShift[] } {
  if (frames.length === 0) throw new RangeError('stitchFrames: no frames');
  const edge = opts.edgeRows ?? 0;
  const rows = h - 2 * edge;
  if (rows < 1) throw new RangeError(`stitchFrames: edgeRows ${edge} leaves no row of ${h}`);
  const shifts = estimateFrameShifts(frames, w, h, opts);
  const pos = [{ x: 0, y: 0 }];
  for (const s of shifts) {
    const p = pos[pos.length - 1]!;
    pos.push({ x: p.x + s.dx, y: p.y + s.dy });
  }
  const minX = Math.min(...pos.map((p) => p.x));
  const minY = Math.min(...pos.map((p) => p.y));
  const width = opts.canvasWidthPx ?? w + Math.max(...pos.map((p) => p.x)) - minX;
  const left = opts.canvasWidthPx === undefined ? -minX : Math.round((width - w) / 2) - pos[0]!.x;
  const height = rows + Math.max(...pos.map((p) => p.y)) - minY;
  const pixels = new Uint8Array(width * height).fill(opts.background);
  const owner = new Float64Array(height).fill(Infinity); // distance of the painted row to its frame's centre
  const latest = opts.overlap === 'latest';
  frames.forEach((f, k) => {
    const ox = pos[k]!.x + left;
    const oy = pos[k]!.y - minY;
    for (let y = 0; y < rows; y++) {
      const cy = oy + y;
      if (!latest) {
        const dist = Math.abs(y - (rows - 1) / 2);
        if (dist >= owner[cy]!) continue;
        owner[cy] = dist;
        pixels.fill(opts.background, cy * width, (cy + 1) * width);
      }
      const x0 = Math.max(0, -ox);
      const x1 = Math.min(w, width - ox);
      if (x1 > x0) pixels.set(f.subarray((y + edge) * w + x0, (y + edge) * w + x1), cy * width + ox + x0);
    }
  });
  return { widthPx: width, heightPx: height, pixels, shifts };
}

export interface SwipeLineOptions {
  /** Pixels per row. */
  widthPx: number;
  /** Quantile (0..1) of the row-to-row differences taken as the noise floor (rows at rest). */
  noiseQuantile: number;
  /** Rows averaged on each side when smoothing the speed. */
  smoothingLines: number;
  /** Output pixels per unit of the raw speed estimate (sets the vertical scale). */
  speedGain: number;
  /**
   * Exponent applied to each row's |I_t| / |I_y| before the gain (default 1: brightness constancy as
   * is); below 1 it compresses the range of speeds (fitted black-box for vfs5011, native/README.md).
   */
  speedExponent?: number;
}

/**
 * Per row, the finger's advance since the previous row in output pixels (see the file comment).
 * `rows` hold `widthPx` grey pixels each.
 */
export function swipeSpeeds(rows: readonly Uint8Array[], opts: SwipeLineOptions): number[] {
  const w = opts.widthPx;
  const change = [0];
  const gradient: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    let g = 0;
    for (let x = 1; x < w - 1; x++) g += Math.abs(r[x + 1]! - r[x - 1]!) / 2;
    gradient.push(g / (w - 2));
    if (i === 0) continue;
    const prev = rows[i - 1]!;
    let d = 0;
    for (let x = 0; x < w; x++) d += Math.abs(r[x]! - prev[x]!);
    change.push(d / w);
  }
  const sorted = change.slice(1).sort((a, b) => a - b);
  const noise = sorted.length ? sorted[Math.floor(opts.noiseQuantile * (sorted.length - 1))]! : 0;
  const p = opts.speedExponent ?? 1;
  const raw = change.map((d, i) => (i === 0 ? 0 : Math.pow(Math.max(0, d - noise) / Math.max(1, gradient[i]!), p) * opts.speedGain));
  const k = opts.smoothingLines;
  const prefix = [0];
  for (const v of raw) prefix.push(prefix[prefix.length - 1]! + v);
  return raw.map((_, i) => {
    const lo = Math.max(0, i - k);
    const hi = Math.min(raw.length, i + k + 1);
    return (prefix[hi]! - prefix[lo]!) / (hi - lo);
  });
}

/**
 * Assembles a line-scan swipe (see the file comment): rows in scan order in, an image with the
 * first scanned row on top out, its height set by the estimated finger travel. Throws RangeError
 * for fewer than 2 rows.
 */
export function assembleSwipeLines(rows: readonly Uint8Array[], opts: SwipeLineOptions): { widthPx: number; heightPx: number; pixels: Uint8Array; speeds: number[] } {
  if (rows.length < 2) throw new RangeError('assembleSwipeLines: fewer than 2 rows');
  const speeds = swipeSpeeds(rows, opts);
  const pos = [0];
  for (let i = 1; i < rows.length; i++) pos.push(pos[i - 1]! + speeds[i]!);
  const heightPx = Math.floor(pos[pos.length - 1]!) + 1;
  const w = opts.widthPx;
  const pixels = new Uint8Array(heightPx * w);
  let i = 0;
  for (let y = 0; y < heightPx; y++) {
    while (i + 1 < pos.length - 1 && pos[i + 1]! < y) i++;
    const span = pos[i + 1]! - pos[i]!;
    const t = span > 0 ? Math.min(1, Math.max(0, (y - pos[i]!) / span)) : 0;
    const a = rows[i]!;
    const b = rows[Math.min(i + 1, rows.length - 1)]!;
    for (let x = 0; x < w; x++) pixels[y * w + x] = Math.round(a[x]! * (1 - t) + b[x]! * t);
  }
  return { widthPx: w, heightPx, pixels, speeds };
}

export interface LineSelectionOptions {
  /** Pixels per row. */
  widthPx: number;
  /** Smallest mean absolute difference (grey levels) to the last kept line for a line to be kept. */
  minChange: number;
}

/**
 * Keeps the first row, then each row differing from the last kept row by at least `minChange` (see
 * the file comment). Rows in scan order in, the kept rows in the same order out, with their indices.
 * Throws RangeError for no rows.
 */
export function selectChangedLines(rows: readonly Uint8Array[], opts: LineSelectionOptions): { widthPx: number; heightPx: number; pixels: Uint8Array; kept: number[] } {
  if (rows.length === 0) throw new RangeError('selectChangedLines: no rows');
  const w = opts.widthPx;
  const kept = [0];
  let last = rows[0]!;
  for (let i = 1; i < rows.length; i++) {
    const r = rows[i]!;
    let d = 0;
    for (let x = 0; x < w; x++) d += Math.abs(r[x]! - last[x]!);
    if (d >= opts.minChange * w) {
      kept.push(i);
      last = r;
    }
  }
  const pixels = new Uint8Array(kept.length * w);
  kept.forEach((k, y) => pixels.set(rows[k]!.subarray(0, w), y * w));
  return { widthPx: w, heightPx: kept.length, pixels, kept };
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
