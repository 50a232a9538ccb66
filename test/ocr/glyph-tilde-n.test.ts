/**
 * The tilde over an N read plain (src/ocr/glyph-tilde-n.ts): Spanish names drawn in the card's fonts with
 * a Ñ, read with a plain N, are mended to Ñ under the low line; the same names drawn with a plain N, and
 * an N under another mark's word, are left as read.
 */
import { describe, expect, it } from 'vitest';
import { drawn } from './drawn-word.js';
import { mendTildeN, TILDE_N_CAP, tildesOverN } from '../../src/ocr/glyph-tilde-n.js';

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
