/**
 * final23's own effects (test/fixtures/cnh/final23.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the twenty-fourth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fadedBySun, final23Draws, halftoned, smeared } from '../fixtures/cnh/final23.js';
import { rng } from '../fixtures/cnh/people.js';
import { rawPixels, ruledCard } from './fixture-card.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

/** A 640 x 400 card of one flat colour (RGBA PNG). */
async function flatCard(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 400, channels: 4, background: colour } }).png().toBuffer();
}

describe('final23 effects', () => {
  it('a halftone screen turns a flat mid-grey into dots of ink and paper that keep its mean, and keeps solid black and white', async () => {
    for (const seed of [1, 2, 3]) {
      const { data, w, h } = await rawPixels(await halftoned(await flatCard('#808080'), rng(seed)));
      expect([w, h]).toEqual([640, 400]);
      let sum = 0, dark = 0, light = 0;
      for (let p = 0; p < w * h; p++) {
        const v = data[p * 4];
        sum += v;
        if (v < 0x40) dark++;
        if (v > 0xc0) light++;
      }
      // Dots, not a flat grey: many pixels near ink and many near paper; the mean within a screen's rounding.
      expect(dark).toBeGreaterThan(0.15 * w * h);
      expect(light).toBeGreaterThan(0.15 * w * h);
      expect(Math.abs(sum / (w * h) - 128)).toBeLessThan(30);
    }
    for (const [colour, lo, hi] of [['#000000', 0, 0x20], ['#ffffff', 0xf0, 0xff]] as const) {
      const { data, w, h } = await rawPixels(await halftoned(await flatCard(colour), rng(4)));
      for (let p = 0; p < w * h; p += 97) for (let q = 0; q < 3; q++) {
        expect(data[p * 4 + q]).toBeGreaterThanOrEqual(lo);
        expect(data[p * 4 + q]).toBeLessThanOrEqual(hi);
      }
    }
  });

  it('the sun fades ink more on one side than the other, red faster than blue, and keeps the card\'s size and alpha', async () => {
    for (const seed of [1, 2, 3]) {
      const card = await ruledCard('#e0e0e0');
      const before = await rawPixels(card);
      const { data, w, h, ch } = await rawPixels(await fadedBySun(card, rng(seed)));
      expect([w, h, ch]).toEqual([640, 400, 4]);
      // The ink (black lines) in each of 4 x 4 tiles: its mean red lift, and red against blue.
      const lifts: number[] = [];
      let redOverBlue = 0, inks = 0, opaque = 0;
      for (let ty = 0; ty < 4; ty++) for (let tx = 0; tx < 4; tx++) {
        let sum = 0, n = 0;
        for (let y = ty * 100; y < (ty + 1) * 100; y++) for (let x = tx * 160; x < (tx + 1) * 160; x++) {
          const i = (y * w + x) * 4;
          if (before.data[i] !== 0) continue;
          sum += data[i]; n++; inks++;
          if (data[i] > data[i + 2]) redOverBlue++;
          if (data[i + 3] === 255) opaque++;
        }
        lifts.push(sum / n);
      }
      expect(Math.max(...lifts) - Math.min(...lifts)).toBeGreaterThan(25);
      expect(redOverBlue).toBeGreaterThan(0.9 * inks);
      expect(opaque).toBe(inks);
    }
  });

  it('a phone\'s noise reduction erases a 1 px line and keeps a 6 px bar, and keeps the kind and size', async () => {
    const w = 200, h = 100, raw = Buffer.alloc(w * h * 3, 255);
    for (let x = 0; x < w; x++) {
      for (const y of [20]) raw.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
      for (let y = 60; y < 66; y++) raw.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
    const png = await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
    for (const seed of [1, 2, 3, 4]) {
      const out = await smeared({ bytes: png, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, w: ow, h: oh, ch } = await rawPixels(out.bytes);
      expect([ow, oh]).toEqual([w, h]);
      expect(data[(20 * w + 100) * ch]).toBeGreaterThan(200);
      expect(data[(63 * w + 100) * ch]).toBeLessThan(60);
    }
    const jpeg = await sharp(png).jpeg({ quality: 95 }).toBuffer();
    expect((await smeared({ bytes: jpeg, mime: 'image/jpeg' }, rng(5))).mime).toBe('image/jpeg');
  });

  it('a text-layer CNH-e writes L·L, Ç, Ï, Ü, TX and Ẽ, Ĩ, Ũ, Ỹ and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'MARCEL·LÍ LLUÏSA CALÇADA GÜELL ETXEBERRIA', size: 30 }, { x: 100, y: 200, text: 'ARAPOTỸ KUÑATAĨ TAJẼ PIRŨ', size: 30 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('MARCEL·LÍ LLUÏSA CALÇADA GÜELL ETXEBERRIA');
      expect(text).toContain('ARAPOTỸ KUÑATAĨ TAJẼ PIRŨ');
    }
  });

  it('halftones and fades worn physical cards only, and smears the phone\'s own shots only', () => {
    let halftones = 0, fades = 0, smears = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image', 'screenshot', 'clean']) {
        const d = final23Draws(c, '2022', rng(i));
        expect(d.halftoned || d.sunFaded || d.smeared).toBe(false);
      }
      for (const c of ['scanner', 'jpeg-low', 'blur']) expect(final23Draws(c, 'old', rng(i)).smeared).toBe(false);
      const shot = final23Draws('photo', 'old', rng(i));
      if (shot.halftoned) halftones++;
      if (shot.sunFaded) fades++;
      if (shot.smeared) smears++;
    }
    expect(halftones).toBeGreaterThan(80);
    expect(fades).toBeGreaterThan(80);
    expect(smears).toBeGreaterThan(110);
  });
});
