/**
 * final21's own effects (test/fixtures/cnh/final21.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the twenty-second round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { crumpled, final21Draws, flared, glinted } from '../fixtures/cnh/final21.js';
import { rng } from '../fixtures/cnh/people.js';
import { rawPixels, ruledCard } from './fixture-card.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

/** A flat grey 400 x 300 frame (PNG, RGB). */
const flat = (): Promise<Buffer> => sharp({ create: { width: 400, height: 300, channels: 3, background: '#646464' } }).png().toBuffer();

describe('final21 effects', () => {
  it('crumpling lights some of the card, shades some of it, moves some print, and keeps its size and alpha', async () => {
    for (const seed of [1, 2, 3]) {
      const card = await ruledCard('#c8c8c8');
      const before = await rawPixels(card);
      const after = await rawPixels(await crumpled(card, rng(seed)));
      expect([after.w, after.h, after.ch]).toEqual([640, 400, 4]);
      let lighter = 0, darker = 0, opaque = 0, movedInk = 0;
      for (let p = 0; p < after.w * after.h; p++) {
        if (after.data[p * 4 + 3] === 255) opaque++;
        const [a, b] = [before.data[p * 4], after.data[p * 4]];
        if (a === 0xc8 && b > a + 3) lighter++;
        if (a === 0xc8 && b < a - 3) darker++;
        // Ink where there was paper (or paper where there was ink): the print moved across a ridge.
        if ((a === 0 && b > 0x60) || (a === 0xc8 && b < 0x40)) movedInk++;
      }
      expect(opaque).toBe(after.w * after.h);
      expect(lighter).toBeGreaterThan(500);
      expect(darker).toBeGreaterThan(500);
      expect(movedInk).toBeGreaterThan(20);
    }
  });

  it('laminate glints only lift pixels toward white, within one patch, and leave most of the card as it was', async () => {
    for (const seed of [1, 2, 3]) {
      const card = await ruledCard('#c8c8c8');
      const before = await rawPixels(card);
      const after = await rawPixels(await glinted(card, rng(seed)));
      let lifted = 0;
      for (let p = 0; p < after.w * after.h; p++) {
        expect(after.data[p * 4]).toBeGreaterThanOrEqual(before.data[p * 4]);
        if (after.data[p * 4] > before.data[p * 4] + 10) lifted++;
      }
      expect(lifted).toBeGreaterThan(100);
      expect(lifted).toBeLessThan(0.35 * after.w * after.h);
    }
  });

  it('a lens flare lifts a flat frame toward white unevenly, never darkens it, and keeps the kind and the size', async () => {
    for (const seed of [1, 2, 3]) {
      const out = await flared({ bytes: await flat(), mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, w, h, ch } = await rawPixels(out.bytes);
      expect([w, h]).toEqual([400, 300]);
      let lo = 255, hi = 0;
      for (let p = 0; p < w * h; p++) {
        lo = Math.min(lo, data[p * ch + 1]);
        hi = Math.max(hi, data[p * ch + 1]);
      }
      expect(lo).toBeGreaterThanOrEqual(0x64);
      expect(hi - lo).toBeGreaterThan(15);
    }
    const jpeg = await sharp(await flat()).jpeg({ quality: 95 }).toBuffer();
    expect((await flared({ bytes: jpeg, mime: 'image/jpeg' }, rng(5))).mime).toBe('image/jpeg');
  });

  it('a text-layer CNH-e writes Ə, İ, Ğ, Ş, Ġ, Ċ, Ż, Ħ, Ë and Ç and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'MƏMMƏDOV İSMAYILOV BAĞIROV ŞÜKÜROV', size: 30 }, { x: 100, y: 200, text: 'FARRUĠIA BONNIĊI ŻAMMIT BUĦAĠIAR ARBËR ÇELA', size: 30 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('MƏMMƏDOV İSMAYILOV BAĞIROV ŞÜKÜROV');
      expect(text).toContain('FARRUĠIA BONNIĊI ŻAMMIT BUĦAĠIAR ARBËR ÇELA');
    }
  });

  it('crumples and glints seen cards and flares camera frames only', () => {
    let crumples = 0, glints = 0, flares = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image', 'screenshot']) {
        const d = final21Draws(c, '2022', rng(i));
        expect(d.crumpled || d.glints || d.flare).toBe(false);
      }
      const scan = final21Draws('scanner', 'old', rng(i));
      expect(scan.flare).toBe(false);
      if (scan.crumpled) crumples++;
      if (scan.glints) glints++;
      if (final21Draws('blur', 'old', rng(1000 + i)).flare) flares++;
    }
    expect(crumples).toBeGreaterThan(80);
    expect(glints).toBeGreaterThan(80);
    expect(flares).toBeGreaterThan(100);
  });
});
