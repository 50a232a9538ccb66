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
