/**
 * final16's own effects (test/fixtures/cnh/final16.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the seventeenth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final16Draws, highlighted, paletted, penMarked } from '../fixtures/cnh/final16.js';
import { rng } from '../fixtures/cnh/people.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';
import { barCard, rawPixels } from './fixture-card.js';

const card = (): Promise<Buffer> => barCard('#e6e6dc');
const raw = rawPixels;

describe('final16 effects', () => {
  it('a highlighter tints the ground of a band, keeps type dark and the alpha as it was', async () => {
    const before = await raw(await card());
    for (const seed of [1, 2, 3, 4]) {
      const after = await raw(await highlighted(await card(), rng(seed)));
      let tinted = 0, darkened = 0, alphaChanged = 0, lightened = 0;
      for (let i = 0; i < after.data.length; i += after.ch) {
        if (after.data[i + 3] !== before.data[i + 3]) alphaChanged++;
        // Multiplying never lightens a pixel.
        for (let c = 0; c < 3; c++) if (after.data[i + c] > before.data[i + c]) lightened++;
        if (before.data[i] > 200 && before.data[i] + before.data[i + 1] + before.data[i + 2] - after.data[i] - after.data[i + 1] - after.data[i + 2] > 20) tinted++;
        if (before.data[i] < 40 && after.data[i] > 40) darkened++;
      }
      expect(tinted).toBeGreaterThan(1000);
      expect(darkened).toBe(0);
      expect(alphaChanged).toBe(0);
      expect(lightened).toBe(0);
    }
  });

  it('a pen mark lays dark ink over the ground along a thin stroke, nowhere outside the card', async () => {
    const before = await raw(await card());
    for (const mark of ['signature', 'ring', 'underline'] as const) {
      const after = await raw(await penMarked(await card(), mark, rng(mark.length)));
      let inked = 0, changed = 0, outside = 0;
      for (let i = 0; i < after.data.length; i += after.ch) {
        if (before.data[i + 3] < 128 && !after.data.subarray(i, i + 4).equals(before.data.subarray(i, i + 4))) outside++;
        if (after.data[i] !== before.data[i]) changed++;
        if (before.data[i] > 200 && after.data[i] < 160) inked++;
      }
      expect(inked).toBeGreaterThan(100);
      expect(outside).toBe(0);
      // A stroke, not a fill: well under a tenth of the card.
      expect(changed).toBeLessThan((after.w * after.h) / 10);
    }
  });

  it('a palette image has at most 64 colours and is a PNG', async () => {
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } })
      .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><defs><linearGradient id="g"><stop offset="0" stop-color="#203040"/><stop offset="1" stop-color="#f0e0c0"/></linearGradient></defs><rect width="300" height="200" fill="url(#g)"/></svg>') }])
      .jpeg({ quality: 90 }).toBuffer();
    const out = await paletted(photo, rng(5));
    expect(out.mime).toBe('image/png');
    const { data, info } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += info.channels) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    expect(colours.size).toBeLessThanOrEqual(64);
    expect(colours.size).toBeGreaterThan(4);
  });

  it('a text-layer CNH-e writes letters WinAnsi cannot (Ř, Ő) in an embedded font, and its text layer reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'JIŘÍ DVOŘÁK SZŐKE GYŐRI', size: 32 }, { x: 100, y: 250, text: 'MÜLLER NICOLÒ REPÚBLICA FEDERATIVA DO BRASIL', size: 32, bold: true }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('JIŘÍ DVOŘÁK SZŐKE GYŐRI');
      expect(text).toContain('MÜLLER NICOLÒ');
    }
  });

  it('draws highlighter and pen on cards a camera or a scanner sees (and clean ones), palettes on forwarded frames only', () => {
    let hi = 0, pen = 0, pal = 0;
    const kinds = new Set<string>();
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image']) {
        const d = final16Draws(c, '2022', rng(i));
        expect(d.highlighted || d.pen !== undefined || d.paletted).toBe(false);
      }
      expect(final16Draws('screenshot', 'old', rng(i)).highlighted).toBe(false);
      const s = final16Draws('scanner', 'old', rng(i));
      expect(s.paletted).toBe(false);
      if (s.highlighted) hi++;
      if (s.pen) { pen++; kinds.add(s.pen); }
      if (final16Draws('photo', 'old', rng(1000 + i)).paletted) pal++;
    }
    expect(hi).toBeGreaterThan(80);
    expect(pen).toBeGreaterThan(80);
    expect(kinds.size).toBe(3);
    expect(pal).toBeGreaterThan(80);
  });
});
