/**
 * Cuts of a prepared page for the second looks (second-looks.ts, value-doubts.ts): a region padded with
 * white, grown around a box, enlarged; words read in a cut placed back on the page; the page's gray.
 */
import sharp from 'sharp';
import type { Gray } from './glyph-i.js';
import type { PreparedImage } from './preprocess.js';
import type { OcrWord } from './words.js';

/** White padding (px) around every region cut out for a second look. */
export const CUT_PAD = 12;

/** Region `r` of `png`, padded with CUT_PAD px of white, as PNG. */
export const paddedCut = (png: Buffer, r: { left: number; top: number; width: number; height: number }): Promise<Buffer> =>
  sharp(png).extract(r).extend({ top: CUT_PAD, bottom: CUT_PAD, left: CUT_PAD, right: CUT_PAD, background: '#ffffff' }).png().toBuffer();

/** Letters (accented capitals too) or digits: a word read in a cut that is worth keeping. */
export const HAS_TEXT = /[A-Za-z0-9À-ÿ]/;

/** A word read in a cut (padded by CUT_PAD, enlarged `scale` times) placed on the page, the cut's corner at (`left`, `top`) px. */
export const placed = (w: OcrWord, left: number, top: number, scale = 1): OcrWord =>
  ({ ...w, x0: w.x0 / scale - CUT_PAD + left, x1: w.x1 / scale - CUT_PAD + left, y0: w.y0 / scale - CUT_PAD + top, y1: w.y1 / scale - CUT_PAD + top });

/** A box grown by 30% of its height on every side, clamped to the prepared page (px). */
export function grownBox(b: { x0: number; y0: number; x1: number; y1: number }, prep: PreparedImage): { left: number; top: number; width: number; height: number } {
  const m = Math.round(0.3 * (b.y1 - b.y0));
  const left = Math.max(0, Math.floor(b.x0 - m)), top = Math.max(0, Math.floor(b.y0 - m));
  return { left, top, width: Math.min(prep.width - left, Math.ceil(b.x1 - b.x0 + 2 * m)), height: Math.min(prep.height - top, Math.ceil(b.y1 - b.y0 + 2 * m)) };
}

/** A cut `scale` times as large (cubic), or the cut itself at 1. */
export const enlarged = async (cut: Buffer, scale: number): Promise<Buffer> => {
  if (scale === 1) return cut;
  const { width = 1 } = await sharp(cut).metadata();
  return sharp(cut).resize({ width: Math.round(width * scale), kernel: 'cubic' }).png().toBuffer();
};

/** The first channel of an image as 8-bit grayscale (glyph-i.ts Gray). */
export async function grayPage(img: sharp.Sharp): Promise<Gray> {
  const { data, info } = await img.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The prepared page's first channel as a gray image. */
export const grayOf = (prep: PreparedImage): Promise<Gray> => grayPage(sharp(prep.png));

/** Share of a region's rows a column's ink must cover to be a rule, not type (withoutRules). */
export const RULE_SHARE = 0.9;
/** ... and how many times the page's value type that is at least: type never runs that tall. */
export const RULE_OVER_TYPE = 1.6;

/**
 * A padded cut (paddedCut) of a region `height` px tall with its vertical rules whitened: the columns whose
 * ink (under mid-grey) covers RULE_SHARE of the region's rows and RULE_OVER_TYPE x `typeH` px or more (0:
 * type height unknown, the share alone), and a column either side. The card's edge or a frame's line
 * beside a lone code letter is read as a letter with it: a screenshot's "D" under OBSERVAÇÕES beside the
 * card's left edge read "lo" at 0.48 (final31 #83). The cut itself when no column is one.
 */
export async function withoutRules(cut: Buffer, height: number, typeH: number): Promise<Buffer> {
  const { data, info } = await sharp(cut).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const need = Math.max(RULE_SHARE * height, RULE_OVER_TYPE * typeH);
  const rules: number[] = [];
  for (let x = 0; x < info.width; x++) {
    let ink = 0;
    for (let y = 0; y < info.height; y++) if (data[y * info.width + x] < 128) ink++;
    if (ink >= need) rules.push(x);
  }
  if (!rules.length) return cut;
  // With a column either side: a rule's anti-aliased edges.
  for (const r of rules) for (let x = Math.max(0, r - 1); x <= Math.min(info.width - 1, r + 1); x++) for (let y = 0; y < info.height; y++) data[y * info.width + x] = 255;
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
}

/**
 * A cut's first run of ink alone: from its left edge to the last column of ink before `gap` px without
 * ink (a column holds ink with two pixels under mid-grey or more: a speck is no ink), padded with CUT_PAD
 * px of white on the right. A code's region is long (remarks may run to several codes), and ink far to
 * the right of its letter (a stain, a glare's speckle, a smudge) makes the recogniser read the line as
 * nothing: a remark "D" on a dark frame's back side read as nothing with a speckled patch 500 px right of
 * it, and as "D" at 0.93 alone (final31 #78). Null when the ink has no such gap, or there is none.
 */
export async function leadingInk(png: Buffer, gap: number): Promise<Buffer | null> {
  const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  let first = -1, last = -1;
  for (let x = 0; x < info.width; x++) {
    let ink = 0;
    for (let y = 0; y < info.height && ink < 2; y++) if (data[y * info.width + x] < 128) ink++;
    if (ink < 2) continue;
    if (first < 0) first = x;
    else if (x - last > gap) return sharp(png).extract({ left: 0, top: 0, width: last + 1, height: info.height })
      .extend({ right: CUT_PAD, background: '#ffffff' }).png().toBuffer();
    last = x;
  }
  return null;
}
