/**
 * A dotted zero read as another digit (src/ocr/glyph-zero.ts): final15 #47 (old photo, Liberation Mono)
 * read rg 409450251 as "499450251" at 0.952, the zero's ring worn off on its left side round the dot.
 * Numbers drawn in the monospaced faces with such a worn zero are given their zero back under the low
 * line; the other digits of every face, and pages whose zeros show no dot, are left as read.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { drawn } from './drawn-word.js';
import { INK_LETTER_CAP } from '../../src/ocr/glyph-accent.js';
import { wordGlyphs, type Gray } from '../../src/ocr/glyph-i.js';
import { dottedZero, mendDottedZeros } from '../../src/ocr/glyph-zero.js';
import type { OcrWord } from '../../src/ocr/words.js';

const MONO = ['Liberation Mono', 'DejaVu Sans Mono'];
const PLAIN = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Serif', 'DejaVu Sans Condensed'];

async function blurred(g: Gray, sigma: number): Promise<Gray> {
  if (!sigma) return g;
  const { data, info } = await sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } }).blur(sigma).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** `text` drawn, with the left wall of glyph `worn` (its middle third of rows, left quarter) worn to a faint gray (`faint`). */
async function wornWord(text: string, font: string, size: number, worn: number, sigma: number, faint = 150): Promise<{ g: Gray; box: Omit<OcrWord, 'text' | 'conf'> }> {
  const d = await drawn(text, font, size);
  const b = wordGlyphs(d.g, d.box)[worn];
  const h = b.y1 - b.y0 + 1, w = b.x1 - b.x0 + 1;
  for (let y = b.y0 + Math.round(h / 3); y <= b.y0 + Math.round((2 * h) / 3); y++) {
    for (let x = b.x0 - 1; x <= b.x0 + Math.round(w / 4); x++) d.g.data[y * d.g.width + x] = Math.max(faint, d.g.data[y * d.g.width + x]);
  }
  return { g: await blurred(d.g, sigma), box: d.box };
}

describe('a dotted zero read as another digit', () => {
  it('sees the dot of the monospaced faces\' zeros, and none in any face\'s other digits', async () => {
    for (const font of [...MONO, ...PLAIN]) for (const size of [22, 26, 30]) {
      const d = await drawn('0123456789', font, size);
      const glyphs = wordGlyphs(d.g, d.box);
      expect(glyphs.length, `${font} ${size}`).toBe(10);
      glyphs.forEach((b, i) => {
        if (i === 0 && MONO.includes(font)) expect(dottedZero(d.g, b), `${font} ${size} zero`).toBe(true);
        else expect(dottedZero(d.g, b), `${font} ${size} ${i}`).toBe(false);
      });
    }
  });

  it('writes 0 for a worn dotted zero read 9, 8 or B, under the low line', async () => {
    let mended = 0, n = 0;
    for (const font of MONO) for (const size of [24, 28, 32]) for (const sigma of [0, 0.6]) for (const read of ['499450251', '489450251', '4B9450251']) {
      const d = await wornWord('409450251', font, size, 1, sigma);
      const [w] = mendDottedZeros(d.g, [{ text: read, conf: 0.95, ...d.box }, { text: '409450251', conf: 0.95, ...d.box }]);
      n++;
      expect(['409450251', read], `${font} ${size} ${sigma} ${read}`).toContain(w.text);
      if (w.text === '409450251') { mended++; expect(w.conf).toBeLessThanOrEqual(INK_LETTER_CAP); } else expect(w.conf).toBe(0.95);
    }
    expect(mended).toBeGreaterThanOrEqual(0.8 * n);
  });

  it('leaves 6, 8 and 9 read right as read, and every digit on a page whose zeros show no dot', async () => {
    for (const font of [...MONO, ...PLAIN]) for (const size of [22, 28]) for (const sigma of [0, 0.8]) {
      const d = await drawn('9086 2004', font, size);
      const g = await blurred(d.g, sigma);
      const words: OcrWord[] = [{ text: '90862004', conf: 0.9, ...d.box }];
      // Read with the zeros right (nothing to do) and with each zero misread as a 9 (only a dotted face's ink says 0).
      expect(mendDottedZeros(g, words)[0].text, `${font} ${size} ${sigma}`).toBe('90862004');
    }
    for (const font of PLAIN) {
      const d = await drawn('409450251', font, 28);
      const ws: OcrWord[] = [{ text: '499450251', conf: 0.95, ...d.box }, { text: '409450251', conf: 0.95, ...d.box }];
      expect(mendDottedZeros(d.g, ws)[0], font).toEqual(ws[0]);
    }
  });
});
