/**
 * A grave read as a circumflex or a tilde over an O or an A (src/ocr/glyph-accent.ts inkLetter): the
 * model has no Ò and read NICOLÒ "NICOLÔ" at 0.857 and 0.879 (final15 #80 DejaVu Sans Bold, #86
 * Liberation Mono). A narrow stroke falling to the right is no roof and no wave: the grave is written,
 * the word doubted (at most INK_LETTER_CAP); on type under MIN_LETTER_HEIGHT only doubted. Right roofs
 * and waves (ANTÔNIO, CÂNDIDA, JOÃO, SIMÕES) are left as read at their confidence.
 */
import { describe, expect, it } from 'vitest';
import { drawn, worn } from './drawn-word.js';
import { INK_LETTER_CAP, inkLetter, mendMarks } from '../../src/ocr/glyph-accent.js';
import { mendForeignMarks } from '../../src/ocr/glyph-foreign.js';

const FONTS = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono', 'DejaVu Sans Mono'];

/** What the page pass's two looks make of `truth` drawn and worn, read as `read` at 0.9. */
async function readings(truth: string, read: string, sizes: number[]): Promise<Array<{ text: string; conf: number; at: string }>> {
  const out: Array<{ text: string; conf: number; at: string }> = [];
  for (const font of FONTS) for (const size of sizes) for (const sigma of [0, 0.8]) for (const quality of [90, 40]) {
    const d = await drawn(truth, font, size);
    const g = await worn(d.g, sigma, quality);
    const [w] = mendForeignMarks(g, mendMarks(g, [{ text: read, conf: 0.9, ...d.box }]));
    out.push({ text: w.text, conf: w.conf, at: `${font} ${size} blur ${sigma} q${quality}` });
  }
  return out;
}

describe('a grave read as a roof or a wave over an O or an A', () => {
  it('writes Ò and À for a grave read as a circumflex or a tilde, under the low line', async () => {
    for (const [truth, read] of [['NICOLÒ', 'NICOLÔ'], ['NICOLÒ', 'NICOLÕ'], ['ÀGUEDA', 'ÂGUEDA']]) {
      const got = await readings(truth, read, [27, 30, 34]);
      for (const r of got) {
        expect([truth, read], r.at).toContain(r.text);
        if (r.text === truth) expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
      }
      expect(got.filter((r) => r.text === truth).length, `${truth} read ${read}`).toBeGreaterThanOrEqual(0.9 * got.length);
    }
  });

  it('doubts, but does not write, a grave on small type', async () => {
    const got = await readings('NICOLÒ', 'NICOLÔ', [20, 22]);
    for (const r of got) expect(r.text, r.at).toBe('NICOLÔ');
    expect(got.filter((r) => r.conf <= INK_LETTER_CAP).length).toBeGreaterThanOrEqual(0.5 * got.length);
  });

  it('leaves right circumflexes and tildes over O and A as read, at their confidence', async () => {
    for (const word of ['ANTÔNIO', 'UCHÔA', 'CÂNDIDA', 'JOÃO', 'CONCEIÇÃO', 'SIMÕES', 'GUIMARÃES', 'ROMÃO']) {
      for (const r of await readings(word, word, [20, 24, 30])) {
        expect(r.text, `${word} ${r.at}`).toBe(word);
        expect(r.conf, `${word} ${r.at}`).toBe(0.9);
      }
    }
  });

  it('takes a clearly falling narrow stroke over a read roof or wave for a grave, doubted', () => {
    const fit = (width: number, height: number) => ({ fits: { acute: 0, tilde: 0, circumflex: 0 }, width, height });
    expect(inkLetter('Ô', fit(4, 3), -0.44, 20)).toEqual({ letter: 'Ò', doubt: true });
    expect(inkLetter('Õ', fit(5, 4), -0.65, 19)).toEqual({ letter: 'Ò', doubt: true });
    expect(inkLetter('Â', fit(4, 4), -0.5, 20)).toEqual({ letter: 'À', doubt: true });
    // Small type: doubted only; a rising or level stroke, or a wide mark, says nothing here.
    expect(inkLetter('Ô', fit(4, 3), -0.5, 15)).toEqual({ doubt: true });
    expect(inkLetter('Ô', fit(4, 3), 0.5, 20)).toEqual({});
    expect(inkLetter('Õ', fit(4, 3), -0.1, 20)).toEqual({});
    expect(inkLetter('Ô', fit(9, 4), -0.6, 20)).toEqual({});
  });
});
