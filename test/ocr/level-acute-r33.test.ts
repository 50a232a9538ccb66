import { describe, expect, it } from 'vitest';
import { inkLetter, LEVEL_SLANT, mendMarks, type MarkFit } from '../../src/ocr/glyph-accent.js';
import { mendedReadings } from './drawn-word.js';

/** A mark's fit as marksOf gives it: its box (px) and the shape its profile named (none: it did not tell). */
const fit = (width: number, height: number, mark?: MarkFit['mark']): MarkFit => ({ fits: { acute: 0.3, tilde: 0, circumflex: 0.8 }, width, height, ...(mark ? { mark } : {}) });

describe('an acute read over a mark that does not lean (glyph-accent.ts inkLetter, LEVEL_SLANT)', () => {
  it('over an E is a roof: CAMPÊLO read "CAMPÉLO" (final30 #14: a 6 x 5 px roof over 21 px capitals, slant 0.03)', () => {
    expect(inkLetter('É', fit(6, 5), 0.03, 21)).toEqual({ letter: 'Ê', doubt: true });
  });

  it('holds on capitals too small for a profile (under 18 px)', () => {
    expect(inkLetter('É', fit(5, 4), -0.05, 15)).toEqual({ letter: 'Ê', doubt: true });
  });

  it('leaves a joined mark whose profile named a roof (final29 #3 ÉLMA 9 x 3, #53 MÉRCIA 10 x 4: acutes)', () => {
    expect(inkLetter('É', { ...fit(9, 3, 'circumflex'), joined: true } as MarkFit, 0.08, 19)).toEqual({});
    expect(inkLetter('É', { ...fit(10, 4, 'circumflex'), joined: true } as MarkFit, 0.06, 20)).toEqual({});
    // final30 #14: joined, its profile naming nothing.
    expect(inkLetter('É', { ...fit(6, 5), joined: true } as MarkFit, 0.03, 21)).toEqual({ letter: 'Ê', doubt: true });
  });

  it('narrower than a roof (an acute smoothed into a level blob is as wide) only doubts the word', () => {
    expect(inkLetter('É', fit(5, 3), 0.08, 21)).toEqual({ doubt: true });
    expect(inkLetter('É', fit(4, 2), -0.03, 21)).toEqual({ doubt: true });
  });

  it('over another letter only doubts the word (no level mark there that the model writes)', () => {
    expect(inkLetter('Ó', fit(6, 5), 0.02, 21)).toEqual({ doubt: true });
  });

  it('leaves an acute that rises as acutes do, a speck too small to slant, and a profile that named the acute', () => {
    expect(inkLetter('É', fit(5, 5), 0.35, 21)).toEqual({});
    expect(inkLetter('É', fit(4, 4), 0.18, 15)).toEqual({});
    expect(inkLetter('É', fit(3, 3), 0, 21)).toEqual({});
    expect(inkLetter('É', fit(6, 6, 'acute'), LEVEL_SLANT / 2, 21)).toEqual({});
    expect(inkLetter('É', fit(6, 5), 0.2, 21)).toEqual({});
  });

  it('does not touch a roof read as a roof', () => {
    expect(inkLetter('Ê', fit(6, 5), 0.03, 21)).toEqual({});
  });

  it('drawn in the cards\' faces at 20 and 24 px: every acute read as such is kept, roofs read as acutes are mended', async () => {
    let mended = 0, n = 0;
    for (const size of [20, 24]) {
      for (const t of ['JOSÉ', 'ÉMERSON', 'ANÉSIA', 'ALCIDÉIA', 'SICSÚ', 'ANAÍDE', 'MÁRIO', 'ROFFÉ']) {
        for (const r of await mendedReadings(mendMarks, t, t, size)) expect(r.text, `${size} ${r.at}`).toBe(t);
      }
      for (const [t, read] of [['CAMPÊLO', 'CAMPÉLO'], ['ÊNIO', 'ÉNIO'], ['RÊGO', 'RÉGO']]) {
        for (const r of await mendedReadings(mendMarks, t, read, size)) { n++; if (r.text === t) mended++; }
      }
    }
    // 83 of 84 when this was written (none before it).
    expect(mended).toBeGreaterThanOrEqual(0.9 * n);
  }, 120_000);
});

