/**
 * final22's own effects (test/fixtures/cnh/final22.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the twenty-third round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { dithered, final22Draws, residue, smudged } from '../fixtures/cnh/final22.js';
import { rng } from '../fixtures/cnh/people.js';
import { rawPixels, ruledCard } from './fixture-card.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

/** A smooth horizontal ramp, 0 to 255 across 512 px, 64 px high (PNG, RGB). */
async function ramp(): Promise<Buffer> {
  const data = Buffer.alloc(512 * 64 * 3);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 512; x++) data.fill(Math.round((x * 255) / 511), (y * 512 + x) * 3, (y * 512 + x) * 3 + 3);
  return sharp(data, { raw: { width: 512, height: 64, channels: 3 } }).png().toBuffer();
}

describe('final22 effects', () => {
  it('a smudge drags ink onto the paper and lightens some ink, in patches, and keeps the card\'s size and alpha', async () => {
    for (const seed of [1, 2, 3]) {
      const card = await ruledCard('#c8c8c8');
      const before = await rawPixels(card);
      const after = await rawPixels(await smudged(card, rng(seed)));
      expect([after.w, after.h, after.ch]).toEqual([640, 400, 4]);
      let inkOnPaper = 0, paleInk = 0, changed = 0, opaque = 0;
      for (let p = 0; p < after.w * after.h; p++) {
        if (after.data[p * 4 + 3] === 255) opaque++;
        const [a, b] = [before.data[p * 4], after.data[p * 4]];
        if (a !== b) changed++;
        if (a === 0xc8 && b < 0xb4) inkOnPaper++;
        if (a === 0 && b > 0x30) paleInk++;
      }
      expect(opaque).toBe(after.w * after.h);
      expect(inkOnPaper).toBeGreaterThan(100);
      expect(paleInk).toBeGreaterThan(100);
      expect(changed).toBeLessThan(0.6 * after.w * after.h);
    }
  });

  it('a sticker\'s residue covers some ink with paper, tints its patch, and leaves the rest of the card as it was', async () => {
    for (const seed of [1, 2, 3]) {
      const card = await ruledCard('#c8c8c8');
      const before = await rawPixels(card);
      const after = await rawPixels(await residue(card, rng(seed)));
      let covered = 0, tinted = 0, changed = 0;
      for (let p = 0; p < after.w * after.h; p++) {
        const i = p * 4;
        if (before.data[i] !== after.data[i] || before.data[i + 2] !== after.data[i + 2]) changed++;
        if (before.data[i] === 0 && after.data[i] > 0x80) covered++;
        // The film's tint takes more blue than red off the grey paper.
        if (before.data[i] === 0xc8 && after.data[i + 2] < after.data[i] - 4) tinted++;
      }
      expect(covered).toBeGreaterThan(20);
      expect(tinted).toBeGreaterThan(200);
      expect(changed).toBeLessThan(0.25 * after.w * after.h);
    }
  });

  it('an ordered dither leaves at most 4 levels per channel, keeps a ramp\'s mean brightness, and keeps the kind and size', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const src = await ramp();
      const out = await dithered({ bytes: src, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, w, h, ch } = await rawPixels(out.bytes);
      expect([w, h]).toEqual([512, 64]);
      const levels = new Set<number>();
      for (let p = 0; p < w * h; p++) levels.add(data[p * ch]);
      expect(levels.size).toBeGreaterThanOrEqual(2);
      expect(levels.size).toBeLessThanOrEqual(4);
      // Across each 64 px stretch of the ramp, the dithered mean follows the original (an ordered dither
      // keeps the local mean; a plain threshold would not).
      for (let x0 = 64; x0 < 448; x0 += 64) {
        let sum = 0;
        for (let y = 0; y < h; y++) for (let x = x0; x < x0 + 64; x++) sum += data[(y * w + x) * ch];
        const mean = sum / (64 * h), want = ((x0 + 31.5) * 255) / 511;
        expect(Math.abs(mean - want)).toBeLessThan(20);
      }
    }
    const jpeg = await sharp(await ramp()).jpeg({ quality: 95 }).toBuffer();
    expect((await dithered({ bytes: jpeg, mime: 'image/jpeg' }, rng(7))).mime).toBe('image/jpeg');
  });

  it('a text-layer CNH-e writes Ŵ, Ŷ, Õ, Ä, Ü, Ẹ, Ọ, Ṣ and the tones and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'GLYNDŴR LLŶR SIÂN TÕNISSON RÄTSEP JÜRI', size: 30 }, { x: 100, y: 200, text: 'ỌLÁDÈLÉ ADÉṢỌLÁ FỌLÁKẸ ÒGÚNDÍPẸ', size: 30 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('GLYNDŴR LLŶR SIÂN TÕNISSON RÄTSEP JÜRI');
      expect(text).toContain('ỌLÁDÈLÉ ADÉṢỌLÁ FỌLÁKẸ ÒGÚNDÍPẸ');
    }
  });

  it('smudges and leaves residue on worn physical cards only, and dithers scans, low JPEGs and handheld camera frames only', () => {
    let smudges = 0, residues = 0, dithers = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image', 'screenshot', 'clean']) {
        const d = final22Draws(c, '2022', rng(i));
        expect(d.smudged || d.residue || d.dithered).toBe(false);
      }
      expect(final22Draws('glare', 'old', rng(i)).dithered).toBe(false);
      const scan = final22Draws('scanner', 'old', rng(i));
      if (scan.smudged) smudges++;
      if (scan.residue) residues++;
      if (scan.dithered) dithers++;
    }
    expect(smudges).toBeGreaterThan(80);
    expect(residues).toBeGreaterThan(60);
    expect(dithers).toBeGreaterThan(110);
  });
});
