/**
 * Two dots over a capital read from the gray levels above its glyph (glyph-dots.ts, sixteenth round):
 * final14's JÄGER read "JÁGER" (0.92), HÜBNER read "HUBNER" (0.91), RÖHRIG read "RÓHRIG" (0.90) on type
 * 13-21 px high, dots of 2-3 px that the thresholded blobs of glyph-foreign.ts missed.
 */
import { describe, expect, it } from 'vitest';
import { drawn, worn } from './drawn-word.js';
import { INK_LETTER_CAP, mendMarks } from '../../src/ocr/glyph-accent.js';
import { dotsReading, inkOver } from '../../src/ocr/glyph-dots.js';
import { mendForeignMarks } from '../../src/ocr/glyph-foreign.js';
import { wordGlyphs, type Blob, type Gray } from '../../src/ocr/glyph-i.js';
import type { OcrWord } from '../../src/ocr/words.js';

/** The two looks as rereadSuspects takes them (second-looks.ts). */
const mend = (g: Gray, ws: OcrWord[]): OcrWord[] => mendForeignMarks(g, mendMarks(g, ws));

const FONTS = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono'];

/** What the looks make of `truth` drawn at `sizes` px and worn, read as `read` at 0.9. */
async function readings(truth: string, read: string, sizes: number[]): Promise<Array<{ text: string; conf: number; at: string }>> {
  const out: Array<{ text: string; conf: number; at: string }> = [];
  for (const font of FONTS) for (const size of sizes) for (const sigma of [0, 0.7]) for (const quality of [90, 40]) {
    const d = await drawn(truth, font, size);
    const [w] = mend(await worn(d.g, sigma, quality), [{ text: read, conf: 0.9, ...d.box }]);
    out.push({ text: w.text, conf: w.conf, at: `${font} ${size} blur ${sigma} q${quality}` });
  }
  return out;
}

describe('two dots read from the gray levels over a glyph', () => {
  it('writes Ä Ö Ü read as an acute or no mark on capitals 13-19 px high, under the low line, never a third letter', async () => {
    for (const [truth, read] of [['JÄGER', 'JÁGER'], ['HÜBNER', 'HUBNER'], ['RÖHRIG', 'RÓHRIG'], ['DÜRR', 'DURR']]) {
      const got = await readings(truth, read, [19, 22, 26]);
      for (const r of got) {
        expect([truth, read], r.at).toContain(r.text);
        if (r.text === truth) expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
      }
      expect(got.filter((r) => r.text === truth).length, `${truth} read ${read}`).toBeGreaterThanOrEqual(0.65 * got.length);
      // Left as read, it is mostly not left sure: the ink says there is a mark it cannot name (on 13 px
      // capitals blurred 0.7 px in Liberation Mono and Serif the dots fade to a pixel: about 1 in 6 stays sure).
      expect(got.filter((r) => r.text === read && r.conf > INK_LETTER_CAP).length, `${truth} read ${read} left sure`).toBeLessThanOrEqual(0.2 * got.length);
    }
  });

  it('leaves Portuguese marks and plain words as read, at their confidence', async () => {
    for (const word of ['JOSÉ', 'ÁVILA', 'MÁRCIO', 'ANTÔNIO', 'UCHÔA', 'CONCEIÇÃO', 'JOÃO', 'TRÊS', 'ÍTALO', 'TÚLIO', 'SANTOS', 'MULLER', 'BRUNO']) {
      for (const r of await readings(word, word, [16, 20])) {
        expect(r.text, `${word} ${r.at}`).toBe(word);
        expect(r.conf, `${word} ${r.at}`).toBe(0.9);
      }
    }
  });

  it('tells two dots, one stroke and none apart on a drawn glyph', () => {
    const width = 20, height = 24, paper = 235;
    const data = new Uint8Array(width * height).fill(paper);
    const put = (x: number, y: number): void => { data[y * width + x] = 20; };
    // A 12 px letter (a box's outline) from row 10, and its blob.
    const px: number[] = [];
    for (let y = 10; y < 22; y++) for (let x = 4; x < 14; x++) if (y === 10 || y === 21 || x === 4 || x === 13) { put(x, y); px.push(y * width + x); }
    const glyph: Blob = { x0: 4, y0: 10, x1: 13, y1: 21, px };
    const g = (marks: Array<[number, number]>): Gray => {
      const d = data.slice();
      for (const [x, y] of marks) d[y * width + x] = 20;
      return { data: d, width, height };
    };
    expect(inkOver(g([[6, 6], [7, 6], [6, 7], [7, 7], [10, 6], [11, 6], [10, 7], [11, 7]]), glyph, 10, 12).kind).toBe('dots');
    expect(inkOver(g([[7, 8], [8, 7], [9, 6], [10, 5]]), glyph, 10, 12).kind).toBe('one');
    // Ink reaching the band's top goes on above it (the label line's feet): no mark.
    expect(inkOver(g([[6, 4], [6, 5], [6, 6], [11, 4], [11, 5], [11, 6]]), glyph, 10, 12).kind).not.toBe('dots');
    expect(inkOver(g([]), glyph, 10, 12).kind).toBe('none');
    // Small type is not judged.
    expect(inkOver(g([[6, 6], [7, 6], [10, 6], [11, 6]]), glyph, 10, 10).kind).toBe('unclear');
  });

  it('doubts a word whose acute is one flat level run: two dots run together (blurred condensed type)', async () => {
    // Drawn cases whose dots the blur joins into one run read as the acute (final14 #74: STRÖHER read
    // "STRÓHER" at 0.907, DejaVu Sans Condensed, a 6 x 2 px run).
    for (const [truth, read, sigma, quality] of [['JÄGER', 'JÁGER', 0.7, 40], ['JÄGER', 'JÁGER', 1.1, 90], ['STRÖHER', 'STRÓHER', 1.1, 90]] as const) {
      const d = await drawn(truth, 'DejaVu Sans Condensed', 19);
      const [w] = mend(await worn(d.g, sigma, quality), [{ text: read, conf: 0.9, ...d.box }]);
      expect([truth, read], `${truth} blur ${sigma} q${quality}`).toContain(w.text);
      expect(w.conf, `${truth} blur ${sigma} q${quality}`).toBeLessThanOrEqual(INK_LETTER_CAP);
    }
    // A long acute (Liberation Mono Bold's: 0.35 of the height wide, 1.75 times as wide as tall) slants: left sure.
    for (const word of ['JOSÉ', 'TÚLIO', 'ÁLVARO', 'CÉSAR']) for (const size of [26, 30]) for (const sigma of [0, 0.7]) {
      const d = await drawn(word, 'Liberation Mono', size, true);
      const [w] = mend(await worn(d.g, sigma, 90), [{ text: word, conf: 0.9, ...d.box }]);
      expect(w, `${word} ${size} ${sigma}`).toMatchObject({ text: word, conf: 0.9 });
    }
  });

  it('doubts, rather than writes, two dots over a word whose glyphs do not pair with its letters', async () => {
    const d = await drawn('MÜLLER', 'DejaVu Sans', 20);
    // Read with a letter too many: the glyphs (6) do not pair with the letters (7).
    const r = dotsReading(d.g, { text: 'MUULLER', ...d.box }, wordGlyphs);
    expect(r.letters.size).toBe(0);
    expect(r.doubt).toBe(true);
  });
});
