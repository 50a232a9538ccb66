/**
 * final18's own effects (test/fixtures/cnh/final18.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the nineteenth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { barrel, bled, final18Draws, specks } from '../fixtures/cnh/final18.js';
import { rng } from '../fixtures/cnh/people.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';
import { barCard, rawPixels } from './fixture-card.js';

const card = (): Promise<Buffer> => barCard('#d8d8cc');

/** A white 320 x 200 frame with a black grid line every 40 px (PNG, RGB). */
async function grid(): Promise<Buffer> {
  const lines = [...Array.from({ length: 7 }, (_, k) => `<rect x="${40 + 40 * k}" y="0" width="2" height="200" fill="#000"/>`),
    ...Array.from({ length: 4 }, (_, k) => `<rect x="0" y="${40 + 40 * k}" width="320" height="2" fill="#000"/>`)].join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#fff"/>${lines}</svg>`))
    .removeAlpha().png().toBuffer();
}

describe('final18 effects', () => {
  it('bled ink swells the type (more ink next to the bars), leaves the alpha and the outside as they were', async () => {
    const before = await rawPixels(await card());
    // Ink mass: how far below the card's ground (216) each opaque pixel's red is, summed.
    const ink = (d: Buffer, ch: number): number => { let k = 0; for (let i = 0; i < d.length; i += ch) if (d[i + 3] >= 128) k += Math.max(0, 216 - d[i]); return k; };
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const after = await rawPixels(await bled(await card(), rng(seed)));
      let alphaChanged = 0, outside = 0;
      for (let i = 0; i < after.data.length; i += after.ch) {
        if (after.data[i + 3] !== before.data[i + 3]) alphaChanged++;
        if (before.data[i + 3] < 128 && !after.data.subarray(i, i + 4).equals(before.data.subarray(i, i + 4))) outside++;
      }
      expect(alphaChanged).toBe(0);
      expect(outside).toBe(0);
      // Twelve bars 16 px thick: a swell of a pixel on their long edges over part of the card adds a few per cent of ink.
      expect(ink(after.data, after.ch)).toBeGreaterThan(1.04 * ink(before.data, before.ch));
    }
  });

  it('barrel distortion bows a straight line near the frame\'s edge and keeps the kind and size', async () => {
    const png = await grid();
    for (const seed of [1, 2, 3]) {
      const out = await barrel({ bytes: png, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, info } = await sharp(out.bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([320, 200]);
      // The grid line at x = 40 is pulled toward the centre more at the frame's top and bottom than across its middle.
      const lineAt = (y: number): number => { let best = 0, at = 0; for (let x = 0; x < 120; x++) { const v = 255 - data[y * 320 + x]; if (v > best) { best = v; at = x; } } return at; };
      expect(lineAt(5) - lineAt(100)).toBeGreaterThanOrEqual(2);
      expect(lineAt(195) - lineAt(100)).toBeGreaterThanOrEqual(2);
    }
    const jpeg = await sharp(png).jpeg({ quality: 95 }).toBuffer();
    expect((await barrel({ bytes: jpeg, mime: 'image/jpeg' }, rng(9))).mime).toBe('image/jpeg');
  });

  it('impulse noise puts bright, dark and coloured specks on a flat frame (a fraction of a percent of it)', async () => {
    const flat = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080' } }).png().toBuffer();
    for (const seed of [1, 2, 3]) {
      const out = await specks({ bytes: flat, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
      let bright = 0, darkN = 0, coloured = 0, hit = 0;
      for (let i = 0; i < data.length; i += 3) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
        if (r === 128 && g === 128 && b === 128) continue;
        hit++;
        if (r > 200 && g > 200 && b > 200) bright++;
        else if (r < 40 && g < 40 && b < 40) darkN++;
        else coloured++;
      }
      expect(bright).toBeGreaterThan(20);
      expect(darkN).toBeGreaterThan(20);
      expect(coloured).toBeGreaterThan(20);
      expect(hit).toBeLessThan(0.012 * 400 * 300);
    }
  });

  it('a text-layer CNH-e writes the comma under S and T, the breve and the dotted capital İ (Ș, Ț, Ă, Ğ, İ, Ş) and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'ȘTEFĂNESCU ȚURCANU DOĞAN ŞAHİN CÂMPEANU', size: 32 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('ȘTEFĂNESCU ȚURCANU DOĞAN ŞAHİN CÂMPEANU');
    }
  });

  it('bleeds cards a camera or a scanner sees (and clean ones), bends and specks camera frames only', () => {
    let bleed = 0, bent = 0, speck = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image']) {
        const d = final18Draws(c, '2022', rng(i));
        expect(d.bled || d.barrel || d.specks).toBe(false);
      }
      const shot = final18Draws('screenshot', 'old', rng(i));
      expect(shot.bled || shot.barrel || shot.specks).toBe(false);
      const s = final18Draws('scanner', 'old', rng(i));
      expect(s.barrel || s.specks).toBe(false);
      if (s.bled) bleed++;
      const p = final18Draws('photo', 'old', rng(1000 + i));
      if (p.barrel) bent++;
      if (p.specks) speck++;
    }
    expect(bleed).toBeGreaterThan(80);
    expect(bent).toBeGreaterThan(80);
    expect(speck).toBeGreaterThan(80);
  });
});
