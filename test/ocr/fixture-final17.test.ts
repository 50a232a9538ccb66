/**
 * final17's own effects (test/fixtures/cnh/final17.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the eighteenth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final17Draws, forwarded, interlaced, taped } from '../fixtures/cnh/final17.js';
import { rng } from '../fixtures/cnh/people.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';
import { barCard, rawPixels } from './fixture-card.js';

const card = (): Promise<Buffer> => barCard('#c8c8be');
const raw = rawPixels;

describe('final17 effects', () => {
  it('clear tape hazes a band (type lighter, ground lighter or darker), leaves the rest and the alpha as they were', async () => {
    const before = await raw(await card());
    for (const seed of [1, 2, 3, 4, 5]) {
      const after = await raw(await taped(await card(), rng(seed)));
      let typeLifted = 0, changed = 0, alphaChanged = 0, outside = 0;
      for (let i = 0; i < after.data.length; i += after.ch) {
        if (after.data[i + 3] !== before.data[i + 3]) alphaChanged++;
        if (before.data[i + 3] < 128 && !after.data.subarray(i, i + 4).equals(before.data.subarray(i, i + 4))) outside++;
        if (after.data[i] !== before.data[i] || after.data[i + 2] !== before.data[i + 2]) changed++;
        if (before.data[i] < 40 && after.data[i] > before.data[i] + 8) typeLifted++;
      }
      expect(typeLifted).toBeGreaterThan(200);
      expect(alphaChanged).toBe(0);
      expect(outside).toBe(0);
      // A strip, not the whole card.
      expect(changed).toBeLessThan(0.75 * after.w * after.h);
      expect(changed).toBeGreaterThan(0.08 * after.w * after.h);
    }
  });

  it('an interlaced frame shifts every odd row sideways against the even rows and keeps its kind and size', async () => {
    // Vertical black stripes 8 px wide every 32 px: a sideways shift shows on every odd row.
    const stripes = Array.from({ length: 10 }, (_, k) => `<rect x="${12 + 32 * k}" y="0" width="8" height="120" fill="#000"/>`).join('');
    const png = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120"><rect width="320" height="120" fill="#fff"/>${stripes}</svg>`)).png().toBuffer();
    for (const seed of [1, 2, 3]) {
      const out = await interlaced({ bytes: png, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, info } = await sharp(out.bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([320, 120]);
      const edge = (y: number): number => { for (let x = 0; x < info.width; x++) if (data[y * info.width + x] < 128) return x; return -1; };
      let evenAt12 = 0, oddMoved = 0;
      for (let y = 0; y < info.height; y++) {
        if (y % 2 === 0 && edge(y) === 12) evenAt12++;
        if (y % 2 === 1 && edge(y) !== 12) oddMoved++;
      }
      expect(evenAt12).toBe(60);
      expect(oddMoved).toBe(60);
    }
    const jpeg = await sharp(png).jpeg({ quality: 95 }).toBuffer();
    expect((await interlaced({ bytes: jpeg, mime: 'image/jpeg' }, rng(9))).mime).toBe('image/jpeg');
  });

  it('a forwarded frame is a JPEG no longer than the apps\' cap on its long side', async () => {
    const big = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#a0a0a0' } }).png().toBuffer();
    for (const rounds of [2, 3]) {
      const out = await forwarded(big, rounds, rng(rounds));
      expect(out.mime).toBe('image/jpeg');
      const meta = await sharp(out.bytes).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.width).toBeLessThanOrEqual(1600);
      expect(meta.width).toBeGreaterThan(600);
    }
  });

  it('a text-layer CNH-e writes the dot above, the macron, the ogonek and the comma under (Ė, Ū, Ą, Ņ, Ķ) and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'BIRUTĖ ARŪNAS ĄŽUOLAS BĒRZIŅŠ ĶĪSIS', size: 32 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('BIRUTĖ ARŪNAS ĄŽUOLAS BĒRZIŅŠ ĶĪSIS');
    }
  });

  it('draws tape on cards a camera or a scanner sees (and clean ones), interlacing on camera frames, forwarding on forwarded frames only', () => {
    let tape = 0, inter = 0, fwd = 0;
    const rounds = new Set<number>();
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image']) {
        const d = final17Draws(c, '2022', rng(i));
        expect(d.taped || d.interlaced || d.forwarded > 0).toBe(false);
      }
      const shot = final17Draws('screenshot', 'old', rng(i));
      expect(shot.taped || shot.interlaced).toBe(false);
      const s = final17Draws('scanner', 'old', rng(i));
      expect(s.interlaced || s.forwarded > 0).toBe(false);
      if (s.taped) tape++;
      const p = final17Draws('photo', 'old', rng(1000 + i));
      if (p.interlaced) inter++;
      if (p.forwarded > 0) { fwd++; rounds.add(p.forwarded); }
    }
    expect(tape).toBeGreaterThan(80);
    expect(inter).toBeGreaterThan(80);
    expect(fwd).toBeGreaterThan(80);
    expect([...rounds].sort()).toEqual([2, 3]);
  });
});
