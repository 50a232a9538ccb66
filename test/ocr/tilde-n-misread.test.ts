/**
 * An Ñ read as another letter (src/ocr/glyph-tilde-n.ts tildeNText, fourteenth round): the recogniser
 * takes an Ñ's tilde for an accent and gives "ACUÍA" for ACUÑA, "MUÍNOZ" for MUÑOZ (final12 #16, #45,
 * #64). Where the glyph's ink is an N (two stems, a falling diagonal) under a tilde, the word is mended to
 * Ñ under the low line; a real Í, Á or Ã is left as read.
 */
import { describe, expect, it } from 'vitest';
import { drawn } from './drawn-word.js';
import { wordGlyphs } from '../../src/ocr/glyph-i.js';
import { flatTilde, mendTildeN, nShaped, TILDE_N_CAP } from '../../src/ocr/glyph-tilde-n.js';

const FONTS = ['DejaVu Sans', 'Liberation Sans', 'DejaVu Serif', 'Liberation Serif', 'DejaVu Sans Mono', 'Liberation Mono'];

describe('an Ñ read as an accented letter', () => {
  it('tells an N glyph from A, H, I, M, V, U, O, Z by its ink', async () => {
    for (const font of FONTS) {
      for (const [c, isN] of [['N', true], ['A', false], ['H', false], ['I', false], ['M', false], ['V', false], ['U', false], ['O', false], ['Z', false]] as const) {
        const d = await drawn(c, font, 30);
        const [b] = wordGlyphs(d.g, { x0: d.box.x0 - 3, y0: d.box.y0 - 3, x1: d.box.x1 + 3, y1: d.box.y1 + 3 });
        expect(nShaped(d.g, b), `${font} ${c}`).toBe(isN);
      }
    }
  });

  it('mends "ACUÍA" and "MUÍNOZ" to Ñ under the low line where the ink is ACUÑA, MUÑOZ', async () => {
    let mended = 0, cases = 0;
    for (const font of FONTS) {
      for (const size of [26, 30, 34]) {
        for (const [printed, read] of [['ACUÑA', 'ACUÍA'], ['MUÑOZ', 'MUÍNOZ'], ['IBÁÑEZ', 'IBÁÁEZ']]) {
          const d = await drawn(printed, font, size);
          const out = mendTildeN(d.g, [{ text: read, conf: 0.9, ...d.box }])[0];
          expect([printed, read], `${font} ${size} ${read}`).toContain(out.text);
          cases++;
          if (out.text === printed) { mended++; expect(out.conf).toBeLessThanOrEqual(TILDE_N_CAP); }
        }
      }
    }
    expect(mended).toBeGreaterThanOrEqual(0.75 * cases);
  });

  it('leaves a real Í, Á, Ã and an IN as read', async () => {
    for (const font of FONTS) {
      for (const text of ['ACUÍA', 'BENÍTEZ', 'JOÃO', 'GONZÁLEZ', 'MARTIN', 'CRISTINA', 'LUÍNA']) {
        const d = await drawn(text, font, 30);
        const w = { text, conf: 0.9, ...d.box };
        expect(mendTildeN(d.g, [w])[0], `${font} ${text}`).toEqual(w);
      }
    }
  });

  it('takes a flat wide mark that only a tilde can be for one (flatTilde), and nothing an acute or a roof could be', () => {
    // final12 #35's tilde over ACUÑA's N: 10 x 3 px over 18 px capitals, unnamed by markShape.
    const fits = { acute: 0.49, tilde: 0.33, circumflex: -0.06 };
    expect(flatTilde({ fits, width: 10, height: 3 }, 18)).toBe(true);
    expect(flatTilde({ fits, width: 6, height: 4 }, 18), 'acute-sized').toBe(false);
    expect(flatTilde({ fits: { acute: 0.2, tilde: 0.33, circumflex: 0.2 }, width: 10, height: 3 }, 18), 'a roof as well').toBe(false);
    expect(flatTilde({ fits: { acute: 0.6, tilde: 0.2, circumflex: -0.1 }, width: 10, height: 3 }, 18), 'no wave').toBe(false);
    expect(flatTilde({ fits, width: 10, height: 3 }, 15), 'label-size type').toBe(false);
    expect(flatTilde({ fits, width: 14, height: 3 }, 18), 'wider than any mark').toBe(false);
  });
});
