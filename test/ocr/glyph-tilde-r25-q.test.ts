/**
 * A tilde told from a roof and from a flat bar by its gray levels (twenty-fifth round, glyph-tilde.ts isWave,
 * used by glyph-accent.ts inkLetter and glyph-foreign.ts foreignInk): Guarani's tilde over E, U and Y read as
 * a roof or dropped (final23: "ARAJÊ" 0.81-0.88 for ARAJẼ, "KUARAHY" 0.833 for KUARAHỸ) is written from the
 * ink, under the low-confidence line, over any base letter; a roof, a macron, an acute and the Portuguese
 * tildes read right stay as read and sure. Drawn in the cards' seven faces, clean and worn, at 24 and 28 px.
 */
import { describe, expect, it } from 'vitest';
import { mendedReadings } from './drawn-word.js';
import { INK_LETTER_CAP, mendMarks } from '../../src/ocr/glyph-accent.js';
import { mendInkMarks } from '../../src/ocr/glyph-below.js';

const readings = (truth: string, read: string, size: number): ReturnType<typeof mendedReadings> =>
  mendedReadings((g, w) => mendInkMarks(g, mendMarks(g, w)), truth, read, size);

describe('a tilde over any letter told by its wave (glyph-tilde.ts)', () => {
  it('writes the tilde over E, U, Y read with a roof or plain, never sure, never another letter with a tilde', async () => {
    for (const [truth, read] of [['ARAJẼ', 'ARAJÊ'], ['TAJẼ', 'TAJÊ'], ['KUARAHỸ', 'KUARAHY'], ['KURUSŨ', 'KURUSU'], ['ARAJẼ', 'ARAJÉ']]) {
      for (const size of [24, 28]) {
        const got = await readings(truth, read, size);
        expect(got.filter((r) => r.text === truth).length, `${truth} ${size}`).toBeGreaterThanOrEqual(got.length / 2 + 1);
        for (const r of got) {
          if (r.text !== read) expect(r.conf, `${truth} ${r.at}`).toBeLessThanOrEqual(INK_LETTER_CAP);
          if (r.text.normalize('NFD').includes('\u0303')) expect(r.text, `${truth} ${r.at}`).toBe(truth);
        }
      }
    }
  });

  it('leaves roofs, macrons, acutes and Portuguese tildes read right as read and sure', async () => {
    for (const word of ['ARAJÊ', 'ESTÊVÃO', 'ANTÔNIO', 'ÂNGELO', 'JOÃO', 'CONCEIÇÃO', 'SIMÕES', 'MĀRA', 'JOSÉ', 'TÊMBIU']) {
      for (const size of [20, 24, 28]) {
        for (const r of await readings(word, word, size)) expect(`${r.text} ${r.conf}`, `${word} ${r.at}`).toBe(`${word} 0.9`);
      }
    }
  });
});

describe('ink leaning to a wave under a roof read doubts the word (glyph-accent.ts inkLetter)', () => {
  it('doubts a roof read over a mark that fits the wave better than the roof, giving no letter', async () => {
    const { inkLetter } = await import('../../src/ocr/glyph-accent.js');
    const fit = { fits: { acute: 0, tilde: 0.3, circumflex: 0.5 }, width: 9, height: 4 };
    expect(inkLetter('Ê', { ...fit, wave: 'leaning' }, 0, 18)).toEqual({ doubt: true });
    expect(inkLetter('Ê', { ...fit, wave: 'wave' }, 0, 18)).toEqual({ letter: 'Ẽ', doubt: true });
    expect(inkLetter('Ê', fit, 0, 18)).toEqual({});
  });
});
