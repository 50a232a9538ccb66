/**
 * The tilde over an N read plain (src/ocr/glyph-tilde-n.ts): Spanish names drawn in the card's fonts with
 * a Ñ, read with a plain N, are mended to Ñ under the low line; the same names drawn with a plain N, and
 * an N under another mark's word, are left as read.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Gray } from '../../src/ocr/glyph-i.js';
import { mendTildeN, TILDE_N_CAP, tildesOverN } from '../../src/ocr/glyph-tilde-n.js';
import type { OcrWord } from '../../src/ocr/words.js';

/** `text` drawn black on white in `font` at `size` px, as a gray page and the word's box (its ink's extent). */
async function drawn(text: string, font: string, size: number): Promise<{ g: Gray; box: Omit<OcrWord, 'text' | 'conf'> }> {
  const w = Math.ceil(size * text.length * 0.9) + 40, h = Math.ceil(size * 2.2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="${Math.round(size * 1.6)}" font-family="${font}" font-size="${size}" fill="#111">${text}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const g: Gray = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  let x0 = g.width, y0 = g.height, x1 = 0, y1 = 0;
  for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) if (g.data[y * g.width + x] < 128) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  return { g, box: { x0, y0, x1, y1 } };
}

const FONTS = ['DejaVu Sans', 'Liberation Sans', 'DejaVu Serif', 'Liberation Serif'];

describe('the tilde over an N read plain', () => {
  it('finds it in four fonts at value size and mends the word to Ñ under the low line', async () => {
    let mended = 0, cases = 0;
    for (const font of FONTS) {
      for (const size of [26, 30, 34]) {
        for (const [printed, read] of [['MUÑOZ', 'MUNOZ'], ['ACUÑA', 'ACUNA']]) {
          const d = await drawn(printed, font, size);
          const out = mendTildeN(d.g, [{ text: read, conf: 0.93, ...d.box }])[0];
          expect([printed, read], `${font} ${size}`).toContain(out.text);
          cases++;
          if (out.text === printed) {
            mended++;
            expect(out.conf).toBeLessThanOrEqual(TILDE_N_CAP);
          }
        }
      }
    }
    expect(mended).toBeGreaterThanOrEqual(0.75 * cases);
  });

  it('leaves an N with nothing over it, and words with no N, as read', async () => {
    for (const font of FONTS) {
      for (const text of ['MUNOZ', 'ANTONIO', 'NUNES']) {
        const d = await drawn(text, font, 30);
        expect(tildesOverN(d.g, { text, conf: 0.93, ...d.box }), `${font} ${text}`).toEqual([]);
        expect(mendTildeN(d.g, [{ text, conf: 0.93, ...d.box }])[0]).toEqual({ text, conf: 0.93, ...d.box });
      }
    }
  });

  it('does not take an acute over the next vowel for a tilde over the N (NÚNEZ read with its Ú)', async () => {
    for (const font of FONTS) {
      const d = await drawn('NÚNEZ', font, 30);
      expect(mendTildeN(d.g, [{ text: 'NÚNEZ', conf: 0.9, ...d.box }])[0].text, font).toBe('NÚNEZ');
    }
  });
});
