import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { BLURRED_EDGE_WIDTH, DEBLUR_SHARPEN, edgeWidth, sharpeningFor } from '../../src/ocr/deblur.js';
import { measureQuality } from '../../src/ocr/quality.js';

/** A page of value-size type (ink `ink` on paper `paper`), blurred by a Gaussian of `sigma` px (0: none), measured as preprocess.ts does. */
async function page(sigma: number, ink = 20, paper = 235) {
  const w = 900, h = 300;
  const hex = (v: number) => `#${v.toString(16).padStart(2, '0').repeat(3)}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="${hex(paper)}"/>`
    + `<text x="30" y="80" font-family="DejaVu Sans" font-size="30" fill="${hex(ink)}">ISIDORO DOS HAJJAR JABOUR</text>`
    + `<text x="30" y="160" font-family="DejaVu Serif" font-size="30" fill="${hex(ink)}">13/06/1996, ITAQUI, RS</text>`
    + `<text x="30" y="230" font-family="DejaVu Sans" font-size="14" fill="${hex(ink)}">4a DATA EMISSAO   9 CAT. HAB.   FILIACAO</text></svg>`;
  let img = sharp(Buffer.from(svg)).greyscale();
  if (sigma > 0) img = img.blur(sigma);
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  return measureQuality(new Uint8Array(data.buffer, data.byteOffset, data.length), info.width, info.height, 820);
}

describe('deblur: the sharpening follows the measured edge width', () => {
  it('the edge width grows with the blur', async () => {
    const widths = [];
    for (const s of [0, 1, 2, 3]) widths.push(edgeWidth(await page(s)));
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeGreaterThan(widths[i - 1]);
    expect(widths[0]).toBeLessThan(BLURRED_EDGE_WIDTH);
    expect(widths[3]).toBeGreaterThanOrEqual(BLURRED_EDGE_WIDTH);
  });

  it('a blurred page gets the stronger mask; a sharp one none', async () => {
    expect(sharpeningFor(await page(3))).toEqual({ ...DEBLUR_SHARPEN });
    expect(sharpeningFor(await page(0))).toBeNull();
  });

  it('a dark page whose low contrast lowers its sharpness is not taken for a blurred one', async () => {
    const dark = await page(0.6, 40, 100);
    expect(dark.sharpness).toBeLessThan(50);
    expect(edgeWidth(dark)).toBeLessThan(BLURRED_EDGE_WIDTH);
    expect(sharpeningFor(dark)).toEqual({ sigma: dark.sharpness < 25 ? 2 : 1 });
  });

  it('a sharpening asked for wins, 0 for none', () => {
    const blurred = { sharpness: 15, contrast: 160 };
    expect(sharpeningFor(blurred)).toEqual({ ...DEBLUR_SHARPEN });
    expect(sharpeningFor(blurred, 2)).toEqual({ sigma: 2 });
    expect(sharpeningFor(blurred, 0)).toBeNull();
    expect(sharpeningFor({ sharpness: 0, contrast: 0 })).toEqual({ ...DEBLUR_SHARPEN });
  });
});

describe('deblur: a larger page is judged at the standard scale', () => {
  it('edges wide for an upscale alone are not a blur', () => {
    const upscaled = { sharpness: 40, contrast: 250 }; // width 2.5 px on a page enlarged 1.5 x: 1.67 px in the input
    expect(sharpeningFor(upscaled)).toEqual({ ...DEBLUR_SHARPEN });
    expect(sharpeningFor(upscaled, undefined, 1.5)).toEqual({ sigma: 1 });
  });
});
