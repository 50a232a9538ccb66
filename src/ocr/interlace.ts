/**
 * A frame grabbed from an interlaced video source (a capture card, an old webcam, a still taken from a
 * video): its odd rows are the later field, exposed a sixtieth or fiftieth of a second after the even
 * ones, so a hand or a card that moved between the two puts every odd row a few pixels sideways of its
 * neighbours (and a little brighter or darker, the exposure having changed). Every vertical stroke of
 * the type turns into a comb of alternating rows, which the recogniser reads as two faint glyphs side
 * by side. Measured on the decoded frame (before any resize, turn or warp mixes its rows) and undone
 * there: the odd field is shifted back by the whole number of pixels that makes it agree best with the
 * even field interpolated between its rows, and its brightness matched to them.
 *
 * Source of the idea: motion-compensated deinterlacing (field matching, e.g. the "telecide"/"fieldmatch"
 * family of video filters) reduced to the one global motion of a handheld still: a single sideways shift.
 */

/** Largest sideways shift (px) looked for between the two fields. */
export const MAX_FIELD_SHIFT = 4;
/**
 * The best shift's disagreement must be under this share of the unshifted one for the frame to count as
 * interlaced: a progressive frame's rows agree best unshifted (neighbouring rows are the same scene a
 * pixel apart), and a sloped edge (italic type, a skewed card) moves by well under a pixel a row.
 * Measured (nineteenth round, every image and PDF page raster of tuning, final15, final16 and final17):
 * no progressive frame measures a comb under 0.8 (none is touched); final17's interlaced frames measure 0.21-0.39 but one dark
 * frame at 0.65 (#78, low light: the sensor noise is a large part of its disagreement at any shift),
 * whose fields joined read two values fewer (its RG line lost) where the comb left them readable: a comb
 * that weak is left as it is.
 */
export const COMB_RATIO = 0.5;
/** Pixels whose interpolated even field differs from its own neighbours by less than this (levels) are flat and not counted. */
const EDGE_LEVEL = 12;
/** Fewer edge samples than this: nothing to tell a comb by (a blank or very small frame). */
const MIN_SAMPLES = 2000;

/** How far a frame's odd field lies sideways of its even field, and how much brighter. */
export interface FieldOffset {
  /** Sideways shift (px) of the odd rows: odd(x) shows what even rows show at x - shift. */
  shift: number;
  /** Mean of the odd rows over the even field interpolated at them (1: equal). */
  gain: number;
  /** Disagreement at the best shift over that unshifted (lower: a clearer comb). */
  ratio: number;
}

/**
 * The odd field's sideways offset in band `band` of `data` (w x h, `ch` interleaved bands, 8 bit), or
 * null when the frame shows no comb (ratio not under COMB_RATIO, the best shift 0, too few edges).
 * Sums |odd(x + s) - (even above(x) + even below(x)) / 2| over pixels where the two even rows meet an edge
 * (horizontal gradient over EDGE_LEVEL), every other odd row, for s in -MAX_FIELD_SHIFT..MAX_FIELD_SHIFT.
 */
export function fieldOffset(data: Uint8Array, w: number, h: number, ch: number, band = 0): FieldOffset | null {
  if (h < 8 || w < 4 * MAX_FIELD_SHIFT + 8) return null;
  const span = 2 * MAX_FIELD_SHIFT + 1;
  const err = new Float64Array(span);
  let n = 0, oddSum = 0, evenSum = 0;
  const at = (x: number, y: number): number => data[(y * w + x) * ch + band];
  // Every other odd row: the comb is the same on all of them, and half the rows are enough to see it.
  for (let y = 1; y + 1 < h; y += 4) {
    const up = (y - 1) * w, mid = y * w, down = (y + 1) * w;
    for (let x = MAX_FIELD_SHIFT + 1; x < w - MAX_FIELD_SHIFT - 1; x++) {
      const grad = Math.abs(data[(up + x + 1) * ch + band] + data[(down + x + 1) * ch + band] - data[(up + x - 1) * ch + band] - data[(down + x - 1) * ch + band]) / 2;
      if (grad < EDGE_LEVEL) continue;
      const e = (data[(up + x) * ch + band] + data[(down + x) * ch + band]) / 2;
      n++;
      for (let s = -MAX_FIELD_SHIFT, i = 0; s <= MAX_FIELD_SHIFT; s++, i++) err[i] += Math.abs(data[(mid + x + s) * ch + band] - e);
    }
  }
  if (n < MIN_SAMPLES) return null;
  let best = MAX_FIELD_SHIFT;
  for (let i = 0; i < span; i++) if (err[i] < err[best]) best = i;
  const shift = best - MAX_FIELD_SHIFT;
  const ratio = err[best] / Math.max(1, err[MAX_FIELD_SHIFT]);
  if (shift === 0 || ratio >= COMB_RATIO) return null;
  for (let y = 1; y + 1 < h; y += 4) {
    for (let x = MAX_FIELD_SHIFT; x < w - MAX_FIELD_SHIFT; x++) {
      oddSum += at(x + shift, y);
      evenSum += (at(x, y - 1) + at(x, y + 1)) / 2;
    }
  }
  return { shift, gain: evenSum > 0 ? oddSum / evenSum : 1, ratio };
}

/**
 * The odd rows of `data` (w x h, `ch` interleaved bands) moved back by `offset.shift` px (edge pixels
 * repeated) and divided by `offset.gain`, in place: the two fields of one frame made one picture again.
 */
export function joinFields(data: Uint8Array, w: number, h: number, ch: number, offset: FieldOffset): void {
  const row = new Uint8Array(w * ch);
  const k = 1 / offset.gain;
  for (let y = 1; y < h; y += 2) {
    const base = y * w * ch;
    row.set(data.subarray(base, base + w * ch));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(w - 1, Math.max(0, x + offset.shift));
      for (let c = 0; c < ch; c++) data[base + x * ch + c] = Math.min(255, Math.round(row[sx * ch + c] * k));
    }
  }
}

/**
 * Detects (fieldOffset, on band `band`) and undoes (joinFields) an interlaced frame's comb in place;
 * returns the offset undone, or null when the frame was left as it was.
 */
export function deinterlace(data: Uint8Array, w: number, h: number, ch: number, band = 0): FieldOffset | null {
  const offset = fieldOffset(data, w, h, ch, band);
  if (offset) joinFields(data, w, h, ch, offset);
  return offset;
}
