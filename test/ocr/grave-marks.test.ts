/**
 * Marks the Portuguese model cannot write, read from their ink (src/ocr/glyph-accent.ts inkLetter,
 * markSlant; src/ocr/glyph-foreign.ts foreignMarks): its unicharset has no È, Ë, Ü, Å (final13: MARIÈME read "MARIÊME" at 0.904, NADÈGE
 * "NADÉGE", YOLÈNE "YOLENE" at 0.913), and it swaps É and Ê (CISSÉ read "CISSÊ" at 0.861). Words drawn in
 * the cards' fonts at value sizes, blurred and JPEG-compressed, read with the recogniser's letters: the
 * grave's ink gives È under the low line, an acute's gives É back at the word's confidence; right marks
 * and plain words are left as read.
 */
import { describe, expect, it } from 'vitest';
import { drawn, worn } from './drawn-word.js';
import { INK_LETTER_CAP, inkLetter, markSlant, mendMarks } from '../../src/ocr/glyph-accent.js';
import { mendForeignMarks } from '../../src/ocr/glyph-foreign.js';
import type { Gray } from '../../src/ocr/glyph-i.js';
import type { OcrWord } from '../../src/ocr/words.js';

/** The two looks as rereadSuspects takes them (second-looks.ts): marks the model writes, then those it cannot. */
const mend = (g: Gray, ws: OcrWord[]): OcrWord[] => mendForeignMarks(g, mendMarks(g, ws));

const FONTS = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono'];
const SIZES = [27, 30, 34];

/** What mendMarks makes of `truth` drawn and worn, read as `read` at 0.9, over the fonts, sizes, blurs and qualities. */
async function readings(truth: string, read: string, sizes = SIZES): Promise<Array<{ text: string; conf: number; at: string }>> {
  const out: Array<{ text: string; conf: number; at: string }> = [];
  for (const font of FONTS) for (const size of sizes) for (const sigma of [0, 0.8]) for (const quality of [90, 40]) {
    const d = await drawn(truth, font, size);
    const [w] = mend(await worn(d.g, sigma, quality), [{ text: read, conf: 0.9, ...d.box }]);
    out.push({ text: w.text, conf: w.conf, at: `${font} ${size} blur ${sigma} q${quality}` });
  }
  return out;
}

describe('marks the model cannot write, by their ink', () => {
  it('writes È for a grave read as a circumflex or an acute, under the low line, and never a third letter', async () => {
    for (const [truth, read] of [['MARIÈME', 'MARIÊME'], ['NADÈGE', 'NADÉGE']]) {
      const got = await readings(truth, read);
      for (const r of got) {
        expect([truth, read], r.at).toContain(r.text);
        if (r.text === truth) expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
      }
      expect(got.filter((r) => r.text === truth).length, `${truth} read ${read}`).toBeGreaterThanOrEqual(0.9 * got.length);
    }
  });

  it('writes È over a plain E read under a grave (YOLÈNE read YOLENE), under the low line', async () => {
    const got = await readings('YOLÈNE', 'YOLENE');
    for (const r of got) {
      expect(['YOLÈNE', 'YOLENE'], r.at).toContain(r.text);
      if (r.text === 'YOLÈNE') expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
    }
    expect(got.filter((r) => r.text === 'YOLÈNE').length).toBeGreaterThanOrEqual(0.9 * got.length);
  });

  it('gives an acute read as a circumflex back (CISSÉ read CISSÊ) at the word\'s confidence', async () => {
    const got = await readings('CISSÉ', 'CISSÊ');
    for (const r of got) expect(['CISSÉ', 'CISSÊ'], r.at).toContain(r.text);
    const mended = got.filter((r) => r.text === 'CISSÉ');
    expect(mended.length).toBeGreaterThanOrEqual(0.8 * got.length);
    for (const r of mended) expect(r.conf, r.at).toBe(0.9);
  });

  it('leaves right marks and plain words as read, at their confidence', async () => {
    for (const [truth, read] of [['CISSÉ', 'CISSÉ'], ['NADÊGE', 'NADÊGE'], ['HORTÊNCIA', 'HORTÊNCIA'], ['YOLENE', 'YOLENE'], ['SANTOS', 'SANTOS'],
      ['JOSÉ', 'JOSÉ'], ['ÀGUEDA', 'ÀGUEDA'], ['CONCEIÇÃO', 'CONCEIÇÃO'], ['ANA', 'ANA'], ['MULLER', 'MULLER']]) {
      for (const r of await readings(truth, read, [24, 30])) {
        expect(r.text, `${truth} ${r.at}`).toBe(read);
        expect(r.conf, `${truth} ${r.at}`).toBe(0.9);
      }
    }
  });

  it('writes two dots the recogniser read as one mark or none (MÜLLER read MÚLLER, BRONTË read BRONTÊ), under the low line', async () => {
    for (const [truth, read] of [['MÜLLER', 'MÚLLER'], ['GÜNTHER', 'GUNTHER'], ['BRONTË', 'BRONTÊ']]) {
      const got = await readings(truth, read);
      for (const r of got) {
        expect([truth, read], r.at).toContain(r.text);
        if (r.text === truth) expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
      }
      expect(got.filter((r) => r.text === truth).length, `${truth} read ${read}`).toBeGreaterThanOrEqual(0.6 * got.length);
    }
  });

  it('writes Å where a ring stands on an A\'s apex (HÅKON read HAKON), in the fonts where it is clear', async () => {
    for (const font of ['DejaVu Sans', 'Liberation Sans']) {
      const d = await drawn('HÅKON', font, 34);
      const [w] = mend(d.g, [{ text: 'HAKON', conf: 0.9, ...d.box }]);
      expect(w.text, font).toBe('HÅKON');
      expect(w.conf).toBe(INK_LETTER_CAP);
    }
  });

  it('takes no grave over a plain vowel where other ink lies over a plain letter (MUÑOZ read MUNOZ)', async () => {
    for (const font of FONTS) {
      const d = await drawn('MUÑOZ', font, 30);
      expect(mend(d.g, [{ text: 'MUNOZ', conf: 0.9, ...d.box }])[0].text, font).toBe('MUNOZ');
    }
  });

  it('measures a stroke\'s slant by its gray levels: acute up, grave down, roof flat', () => {
    const width = 12, height = 8, paper = 240;
    const page = (ink: Array<[number, number]>): Gray => {
      const data = new Uint8Array(width * height).fill(paper);
      for (const [x, y] of ink) data[y * width + x] = 30;
      return { data, width, height };
    };
    const box = { x0: 3, y0: 1, x1: 6, y1: 4 };
    const acute = page([[3, 4], [4, 3], [5, 2], [6, 1]]), grave = page([[3, 1], [4, 2], [5, 3], [6, 4]]);
    const roof = page([[3, 4], [4, 2], [5, 2], [6, 4], [4, 3], [5, 3]]);
    expect(markSlant(acute, box, 7)).toBeGreaterThan(0.8);
    expect(markSlant(grave, box, 7)).toBeLessThan(-0.8);
    expect(Math.abs(markSlant(roof, box, 7))).toBeLessThan(0.15);
  });

  it('names the letter from a mark\'s slant and size, and doubts a lean it cannot name', () => {
    const fit = (width: number, height: number) => ({ fits: { acute: 0, tilde: 0, circumflex: 0 }, width, height });
    expect(inkLetter('Ê', fit(4, 4), -0.6, 20)).toEqual({ letter: 'È' });
    expect(inkLetter('É', fit(4, 4), -0.6, 20)).toEqual({ letter: 'È' });
    expect(inkLetter('Ê', fit(4, 4), 0.6, 20)).toEqual({ letter: 'É' });
    expect(inkLetter('Á', fit(4, 4), -0.6, 20)).toEqual({ letter: 'À' });
    expect(inkLetter('É', fit(4, 4), 0.6, 20)).toEqual({});
    // A leaning stroke against the read acute, not clearly: doubted.
    expect(inkLetter('É', fit(4, 4), -0.2, 20)).toEqual({ doubt: true });
    // A wide mark is no single stroke, whatever its slant; small type is not judged.
    expect(inkLetter('Ê', fit(9, 4), -0.6, 20)).toEqual({});
    expect(inkLetter('Ê', fit(4, 4), -0.6, 15)).toEqual({});
    // The named profile of a wide mark still decides between the marks the letter takes.
    expect(inkLetter('Á', { fits: { acute: -0.2, tilde: 0.9, circumflex: 0.1 }, width: 9, height: 3, mark: 'tilde' }, 0, 20)).toEqual({ letter: 'Ã' });
  });
});
