/**
 * A label printed close over a value is print, not marks (glyph-foreign.ts withoutPrintAbove): final30 #45's
 * father CONDURÚ read "CONDURU" at 0.92 under FILIAÇÃO, whose "ÇÃO" stood 6 px over the C and O as stray ink,
 * so the Ú's acute was not judged. A label and a value drawn in the cards' faces.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { INK_LETTER_CAP } from '../../src/ocr/glyph-accent.js';
import { mendForeignMarks } from '../../src/ocr/glyph-foreign.js';
import type { Gray } from '../../src/ocr/glyph-i.js';
import type { OcrWord } from '../../src/ocr/words.js';

/** The ink box (px, inclusive) of the pixels under 128 within columns and rows [x0, x1) x [y0, y1). */
function inkBox(g: Gray, x0: number, y0: number, x1: number, y1: number): Omit<OcrWord, 'text' | 'conf'> {
  let a = x1, b = y1, c = x0, d = y0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (g.data[y * g.width + x] < 128) { a = Math.min(a, x); b = Math.min(b, y); c = Math.max(c, x); d = Math.max(d, y); }
  return { x0: a, y0: b, x1: c, y1: d };
}

/** FILIAÇÃO at 16 px with its baseline `gap` px over the top of CONDURÚ's capitals at 26 px, both starting at x 20. */
async function page(font: string, bold: boolean, gap: number): Promise<{ g: Gray; label: OcrWord; value: OcrWord }> {
  const capTop = 60, size = 26, base = capTop + Math.round(0.73 * size);
  const weight = bold ? ' font-weight="bold"' : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="110"><rect width="100%" height="100%" fill="#fff"/>`
    + `<text x="20" y="${capTop - gap}" font-family="${font}" font-size="16"${weight} fill="#111">FILIAÇÃO</text>`
    + `<text x="20" y="${base}" font-family="${font}" font-size="${size}"${weight} fill="#111">CONDURÚ</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const g: Gray = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  const label = { text: 'FILIAÇÃO', conf: 0.95, ...inkBox(g, 0, 0, 110, capTop - gap + 4) };
  // The recogniser's box of the value holds its capitals (not the acute over the last one), as on final30 #45.
  const caps = inkBox(g, 0, capTop - gap + 4, g.width, g.height);
  const value = { text: 'CONDURU', conf: 0.92, ...caps, y0: capTop - 1 };
  return { g, label, value };
}

describe('a label close over a value (glyph-foreign.ts)', () => {
  it("is not stray ink over the value's letters: the acute over its last U is read, the word doubted", async () => {
    let read = 0, n = 0;
    for (const [font, bold] of [['Liberation Sans', true], ['Liberation Sans', false], ['DejaVu Sans', false], ['DejaVu Serif', false]] as const) {
      const { g, label, value } = await page(font, bold, 3);
      const [, got] = mendForeignMarks(g, [label, value]);
      n++;
      if (got.text === 'CONDURÚ') read++;
      // Never a wrong letter, and never sure once the ink changed the reading.
      expect(['CONDURU', 'CONDURÚ'], font).toContain(got.text);
      if (got.text !== value.text) expect(got.conf, font).toBeLessThanOrEqual(INK_LETTER_CAP);
    }
    expect(read).toBeGreaterThanOrEqual(n - 1);
  });

  it('keeps an acute that stands whole under the label (final29 #77: ÁUREO under NOME)', async () => {
    for (const [font, bold] of [['Liberation Sans', true], ['DejaVu Serif', true]] as const) {
      const { g, label, value } = await page(font, bold, 3);
      // The acute read: the label's foot is not taken for a second mark over the U.
      const [, got] = mendForeignMarks(g, [label, { ...value, text: 'CONDURÚ' }]);
      expect(got.text, font).toBe('CONDURÚ');
    }
  });
});
