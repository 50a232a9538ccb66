/**
 * Translucent text over the whole picture divided back out of the grey page (overlay-text.ts; thirty-fourth
 * round, final32's sharing watermarks).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { blueOverlay, findOverlay, liftOverlay } from '../../src/ocr/overlay-text.js';

const W = 900, H = 560;
/** A card-like page: pale paper, lines of black type; `mark`: a watermark's rows over it (fill, strength). */
async function page(mark?: { fill: string; opacity: number }, blur = 0): Promise<Uint8Array> {
  const lines = Array.from({ length: 9 }, (_, k) => `<text x="60" y="${70 + 55 * k}" font-family="DejaVu Sans" font-size="26" fill="#161616">MARIA DA CONCEIÇÃO 12/03/1987 ${k}</text>`).join('');
  const rows = mark ? Array.from({ length: 8 }, (_, k) => `<text x="${-200 + (k % 2) * 150}" y="${k * 150}" font-family="DejaVu Sans" font-weight="bold" font-size="60">SOMENTE PARA CADASTRO  SOMENTE PARA CADASTRO</text>`).join('') : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#e6ebd2"/>${lines}` +
    (mark ? `<g transform="rotate(-25 450 280)" fill="${mark.fill}" fill-opacity="${mark.opacity}">${rows}</g>` : '') + '</svg>';
  let img = sharp(Buffer.from(svg)).extractChannel(1);
  if (blur) img = img.blur(blur);
  return new Uint8Array(await img.raw().toBuffer());
}

/** Mean level of `data` where `mask` (the same page drawn with and without the mark differ by 12 or more) holds, the type left out. */
function meanWhere(data: Uint8Array, plain: Uint8Array, marked: Uint8Array): number {
  let s = 0, n = 0;
  for (let i = 0; i < data.length; i++) if (plain[i] > 200 && plain[i] - marked[i] >= 12) { s += data[i]; n++; }
  return s / n;
}

describe('liftOverlay', () => {
  it('finds a black watermark at its level and takes its letters back to paper, type kept', async () => {
    const plain = await page(), marked = await page({ fill: '#1c1c1c', opacity: 0.25 });
    const lifted = Uint8Array.from(marked);
    const o = liftOverlay(lifted, W, H);
    expect(o).not.toBeNull();
    expect(o!.ratio).toBeGreaterThan(0.72);
    expect(o!.ratio).toBeLessThan(0.8);
    // The watermark's letters over paper: about 0.77 of the paper before, back at the paper after.
    expect(meanWhere(marked, plain, marked)).toBeLessThan(0.85 * 235);
    expect(meanWhere(lifted, plain, marked)).toBeGreaterThan(0.95 * 235);
    // Type stays type: its darkest pixels are as dark as before.
    let dark = 0, darkAfter = 0;
    for (let i = 0; i < plain.length; i++) if (plain[i] < 60) { dark++; if (lifted[i] < 110) darkAfter++; }
    expect(darkAfter / dark).toBeGreaterThan(0.97);
  });

  it('finds blue, red and grey watermarks too (their level in the green channel)', async () => {
    for (const fill of ['#1e40af', '#c62828', '#808080']) {
      const marked = await page({ fill, opacity: 0.3 });
      expect(liftOverlay(Uint8Array.from(marked), W, H), fill).not.toBeNull();
    }
  });

  it('leaves a page without one untouched, blurred or not', async () => {
    for (const blur of [0, 1.5]) {
      const plain = await page(undefined, blur), copy = Uint8Array.from(plain);
      expect(liftOverlay(copy, W, H)).toBeNull();
      expect(Buffer.from(copy).equals(Buffer.from(plain))).toBe(true);
    }
  });

  it('reports the overlay it finds and the flat pixels it found it by', async () => {
    const marked = await page({ fill: '#1c1c1c', opacity: 0.25 });
    const { overlay, flat } = findOverlay(marked, W, H);
    expect(overlay!.share).toBeGreaterThan(0.01);
    expect(flat.some((v) => v === 1)).toBe(true);
  });

  it('tells a blue watermark from a notary stamp\'s strokes in a frame\'s green (frame.ts keeps the green of the first)', async () => {
    expect(blueOverlay(await page({ fill: '#1e40af', opacity: 0.22 }), W, H)).toBe(true);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#e6ebd2"/>` +
      '<g fill="none" stroke="#1e40af" stroke-width="3"><circle cx="600" cy="300" r="120"/><circle cx="600" cy="300" r="95"/></g>' +
      '<text x="520" y="310" font-family="DejaVu Sans" font-size="28" fill="#1e40af">CARTÓRIO</text></svg>';
    const stamp = new Uint8Array(await sharp(Buffer.from(svg)).extractChannel(1).raw().toBuffer());
    expect(blueOverlay(stamp, W, H)).toBe(false);
  });

  it('leaves broad bands of shading alone, though flat at one level (final28 #54: a screen\'s light across the card)', async () => {
    const bands = Array.from({ length: 8 }, (_, k) => `<rect x="-100" y="${k * 70 + 10}" width="1100" height="34" fill="#8a8f7a"/>`).join('');
    const lines = Array.from({ length: 9 }, (_, k) => `<text x="60" y="${70 + 55 * k}" font-family="DejaVu Sans" font-size="26" fill="#161616">NEIDIANE VALÕES ZAIDAN ${k}</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#e6ebd2"/><g transform="rotate(-8 450 280)">${bands}</g></svg>`;
    const shaded = await sharp(Buffer.from(svg)).blur(9).png().toBuffer();
    const text = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${lines}</svg>`);
    const g = new Uint8Array(await sharp(shaded).composite([{ input: text }]).extractChannel(1).raw().toBuffer());
    const { overlay } = findOverlay(g, W, H);
    expect(overlay!.edges).toBeLessThan(0.15);
    expect(liftOverlay(Uint8Array.from(g), W, H)).toBeNull();
  });
});
