/**
 * final21's letters no reader handled (twenty-third round): the barred H (Ħ) and the capital schwa (Ə),
 * told by their bars (src/ocr/glyph-bars.ts, through glyph-own.ts), and the Maltese dot above a capital
 * (Ġ Ċ Ż, and Ė) on small type (glyph-foreign.ts SMALL_DOTTED). Words drawn in the cards' faces, clean and
 * worn, read with the recogniser's Latin letters at 0.9: the letter is written (at most INK_LETTER_CAP)
 * or the word left as read, never another letter; Portuguese words with H, O, A, S, G, C, Z, E are left
 * as read and as sure.
 */
import { describe, expect, it } from 'vitest';
import { drawn, mendedReadings } from './drawn-word.js';
import { INK_LETTER_CAP } from '../../src/ocr/glyph-accent.js';
import { wordGlyphs } from '../../src/ocr/glyph-i.js';
import { barredH, schwaShape } from '../../src/ocr/glyph-bars.js';
import { mendInkMarks } from '../../src/ocr/glyph-below.js';
import { mendForeignMarks } from '../../src/ocr/glyph-foreign.js';

const readings = (truth: string, read: string, size: number): ReturnType<typeof mendedReadings> =>
  mendedReadings((g, w) => mendInkMarks(g, w), truth, read, size);

/** The middle glyph of `N${letter}N` drawn at 30 px in `font`. */
async function middle(letter: string, font = 'DejaVu Sans'): Promise<{ g: Parameters<typeof barredH>[0]; b: Parameters<typeof barredH>[1] }> {
  const d = await drawn(`N${letter}N`, font, 30);
  const glyphs = wordGlyphs(d.g, d.box);
  expect(glyphs).toHaveLength(3);
  return { g: d.g, b: glyphs[1] };
}

describe('letters told by their bars, dots on small type (glyph-bars.ts, glyph-foreign.ts)', () => {
  it('tells Ħ from H and Ə from O, A and S by their shape', async () => {
    for (const font of ['DejaVu Sans', 'Liberation Serif', 'DejaVu Sans Mono']) {
      const h = await middle('H', font), hb = await middle('Ħ', font);
      expect(barredH(h.g, h.b), font).toBeUndefined();
      expect(barredH(hb.g, hb.b), font).toBe('Ħ');
      const e = await middle('Ə', font);
      expect(schwaShape(e.g, e.b), font).toBe(true);
      for (const c of ['O', 'A', 'S', 'Q', 'G']) {
        const o = await middle(c, font);
        expect(schwaShape(o.g, o.b), `${c} ${font}`).toBe(false);
      }
    }
  });

  it('writes Ħ and Ə over the letters read, never sure and never another letter', async () => {
    for (const [truth, read] of [['ĦABEL', 'HABEL'], ['MƏMMƏDOV', 'MOMMODOV'], ['ƏLƏKBƏROV', 'ALAKBAROV'], ['CƏFƏROV', 'COFOROV']]) {
      for (const size of [20, 28]) {
        const got = await readings(truth, read, size);
        // A word of several schwas may show some of them only (each written from its own glyph).
        for (const r of got) expect(r.text === read || [...r.text].every((c, i) => c === truth[i] || c === read[i]), `${truth} ${r.at}`).toBe(true);
        for (const r of got.filter((x) => x.text !== read)) expect(r.conf).toBeLessThanOrEqual(INK_LETTER_CAP);
        expect(got.filter((r) => r.text === truth).length, `${truth} ${size}`).toBeGreaterThanOrEqual(got.length / 2);
      }
    }
  });

  it('writes the dot above G, C, Z, E on small type (capitals 14-16 px), read plain', async () => {
    for (const [truth, read] of [['ĠUŻEPPI', 'GUZEPPI'], ['ĊASSAR', 'CASSAR'], ['ŻERAFA', 'ZERAFA']]) {
      const got = await readings(truth, read, 20);
      for (const r of got) expect([...r.text].every((c, i) => c === truth[i] || c === read[i]), `${truth} ${r.at}`).toBe(true);
      for (const r of got.filter((x) => x.text !== read)) expect(r.conf).toBeLessThanOrEqual(INK_LETTER_CAP);
      expect(got.filter((r) => r.text === truth).length, truth).toBeGreaterThanOrEqual(got.length / 2);
    }
  });

  it('leaves Portuguese words with H, O, A, S, G, C, Z, E as read and sure', async () => {
    for (const word of ['HELENA', 'THIAGO', 'JOHANNA', 'SOUZA', 'ROSA', 'GERALDO', 'CEZAR', 'GONÇALVES', 'ZÉLIA', 'CECÍLIA', 'ESTÊVÃO', 'HORÁCIO']) {
      for (const size of [20, 28]) {
        for (const r of await readings(word, word, size)) expect(`${r.text} ${r.conf}`, `${word} ${r.at}`).toBe(`${word} 0.9`);
      }
    }
  });

  it('judges a mark over letters placed by their mean width only over its glyph\'s middle (final11 #25: ARIE made "ARIÉ")', () => {
    /** "ARI" one outlined blob 39 px wide, an E a glyph of its own, a 4 x 4 px blob over them from `markX`. */
    const page = (markX: number): { data: Uint8Array; width: number; height: number } => {
      const W = 120, H = 60, data = new Uint8Array(W * H).fill(245);
      const rect = (x0: number, y0: number, x1: number, y1: number): void => { for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * W + x] = 20; };
      rect(20, 20, 58, 22); rect(20, 37, 58, 39); rect(20, 20, 22, 39); rect(56, 20, 58, 39); rect(38, 20, 40, 39);
      rect(62, 20, 64, 39); rect(62, 20, 73, 22); rect(62, 29, 71, 31); rect(62, 37, 73, 39);
      rect(markX, 14, markX + 3, 17);
      return { data, width: W, height: H };
    };
    const read = (markX: number): string => mendForeignMarks(page(markX), [{ text: 'ARIE', conf: 0.9, x0: 20, y0: 14, x1: 73, y1: 39 }])[0].text;
    // Over the E's middle: a dot (Ė); at the E's left edge, over the run's junction: no mark of the E's.
    expect(read(66)).toBe('ARIĖ');
    expect(read(61)).toBe('ARIE');
  });
});
