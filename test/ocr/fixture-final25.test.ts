/**
 * final25's own effects (test/fixtures/cnh/final25.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the twenty-sixth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bayered, final25Draws, misaligned, stuttered } from '../fixtures/cnh/final25.js';
import { rng } from '../fixtures/cnh/people.js';
import { rawPixels, ruledCard } from './fixture-card.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

/** A 640 x 400 card (RGBA PNG) of a pale ground with black vertical bars 4 px wide at x = 100, 300 and 500. */
async function postCard(): Promise<Buffer> {
  const bars = [100, 300, 500].map((x) => `<rect x="${x}" y="0" width="4" height="400" fill="#000"/>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" fill="#e8eef0"/>${bars}</svg>`))
    .ensureAlpha().png().toBuffer();
}

describe('final25 effects', () => {
  it('an inkjet out of line staggers a vertical stroke by pass, pales some rows, and keeps the card\'s size and alpha', async () => {
    const card = await postCard();
    const before = await rawPixels(card);
    for (const seed of [1, 2, 3, 4]) {
      const { data, w, h, ch } = await rawPixels(await misaligned(card, rng(seed)));
      expect([w, h, ch]).toEqual([640, 400, 4]);
      let alphaChanged = 0;
      for (let p = 0; p < w * h; p++) if (data[p * 4 + 3] !== before.data[p * 4 + 3]) alphaChanged++;
      expect(alphaChanged).toBe(0);
      // The ink-weighted centre of the first bar, row by row: two positions at least 1 px apart.
      const centres = new Set<number>();
      const darkest: number[] = [];
      for (let y = 0; y < h; y++) {
        let m = 0, s = 0, low = 255;
        for (let x = 90; x < 115; x++) { const ink = 255 - data[(y * w + x) * ch]; m += ink * x; s += ink; low = Math.min(low, data[(y * w + x) * ch]); }
        centres.add(Math.round(m / s));
        darkest.push(low);
      }
      expect(Math.max(...centres) - Math.min(...centres)).toBeGreaterThanOrEqual(1);
      // A dry nozzle: some rows' darkest pixel well above black, most rows' near it.
      expect(darkest.filter((v) => v > 60).length).toBeGreaterThan(h / 20);
      expect(darkest.filter((v) => v < 40).length).toBeGreaterThan(h / 3);
    }
  });

  it('a Bayer sensor without an anti-aliasing filter puts false colour on grey type, keeps the frame\'s size and kind', async () => {
    const png = await sharp(await ruledCard('#ffffff')).removeAlpha().png().toBuffer();
    for (const seed of [1, 2, 3]) {
      const out = await bayered({ bytes: png, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, w, h, ch } = await rawPixels(out.bytes);
      expect([w, h]).toEqual([640, 400]);
      let coloured = 0;
      for (let p = 0; p < w * h; p++) if (Math.max(Math.abs(data[p * ch] - data[p * ch + 1]), Math.abs(data[p * ch + 2] - data[p * ch + 1])) > 20) coloured++;
      expect(coloured).toBeGreaterThan(0.01 * w * h);
    }
    const jpeg = await sharp(png).jpeg({ quality: 95 }).toBuffer();
    expect((await bayered({ bytes: jpeg, mime: 'image/jpeg' }, rng(4))).mime).toBe('image/jpeg');
  });

  it('a stuttering feed skips and repeats rows, so evenly ruled lines come out unevenly spaced; the frame keeps its size', async () => {
    const png = await sharp(await ruledCard('#ffffff')).removeAlpha().png().toBuffer();
    for (const seed of [1, 2, 3, 4]) {
      const out = await stuttered({ bytes: png, mime: 'image/png' }, rng(seed));
      const { data, w, h, ch } = await rawPixels(out.bytes);
      expect([w, h]).toEqual([640, 400]);
      // Starts of dark runs down the middle column: 8 px apart on the ruled card.
      const starts: number[] = [];
      for (let y = 1; y < h; y++) if (data[(y * w + 320) * ch] < 128 && data[((y - 1) * w + 320) * ch] >= 128) starts.push(y);
      const gaps = new Set(starts.slice(1).map((y, k) => y - starts[k]));
      expect(gaps.size).toBeGreaterThan(1);
      expect(starts.length).toBeGreaterThan(30);
    }
  });

  it('a text-layer CNH-e writes the open Ɛ and Ɔ, Ľ, Ĺ, Ď, Ť and the Igbo dots, and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'KWABƐNA KƆFI BOATƐNG ƆPƆKU', size: 30 }, { x: 100, y: 200, text: 'ĽUBOMÍR ĎURIŠ VĹČEK ŠŤASTNÝ ỌBỊỌRA ỌṄỤ', size: 30 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('KWABƐNA KƆFI BOATƐNG ƆPƆKU');
      expect(text).toContain('ĽUBOMÍR ĎURIŠ VĹČEK ŠŤASTNÝ ỌBỊỌRA ỌṄỤ');
    }
  });

  it('prints out of line on worn physical cards only, sends camera frames through the Bayer sensor, and stutters scans only', () => {
    let inkjets = 0, sensors = 0, stutters = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image', 'screenshot', 'clean']) {
        const d = final25Draws(c, '2022', rng(i));
        expect(d.misaligned || d.bayered || d.stuttered).toBe(false);
      }
      const photo = final25Draws('photo', 'old', rng(i));
      expect(photo.stuttered).toBe(false);
      if (photo.misaligned) inkjets++;
      if (photo.bayered) sensors++;
      const scan = final25Draws('scanner', '2022', rng(i));
      expect(scan.bayered).toBe(false);
      if (scan.stuttered) stutters++;
    }
    expect(inkjets).toBeGreaterThan(80);
    expect(sensors).toBeGreaterThan(95);
    expect(stutters).toBeGreaterThan(220);
  });
});
