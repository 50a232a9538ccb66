/**
 * The open Ɔ and Ɛ and Ľ's caron stroke read from their ink (glyph-open.ts, twenty-seventh round): drawn
 * words in the cards' faces (test/ocr/drawn-word.ts), read as the Latin letters the recogniser gives for
 * them (final25: "OPOKU", "FORI", "BOATENG", "LUBINA" at 0.8-0.93), come back with the letter written or
 * at least under 0.8; Portuguese names with O, C, E, L come back as read and as sure.
 */
import { describe, expect, it } from 'vitest';
import { CARD_FACES, drawn, mendedReadings, worn } from './drawn-word.js';
import { epsilonShape, mendOpenLetters, openRight } from '../../src/ocr/glyph-open.js';
import { mendInkMarks } from '../../src/ocr/glyph-below.js';
import { wordGlyphs } from '../../src/ocr/glyph-i.js';
import { inkMarksOnly } from '../../src/ocr/glyph-marks.js';
import { NAME_LETTERS } from '../../src/ocr/normalize.js';

const NAME = new RegExp(`^[${NAME_LETTERS}]+$`);

/** The middle glyph of "H?H" drawn in `font`. */
async function middle(letter: string, font: string, bold = false) {
  const d = await drawn(`H${letter}H`, font, 28, bold);
  const gl = wordGlyphs(d.g, d.box);
  expect(gl.length).toBe(3);
  return { g: d.g, b: gl[1] };
}

describe('glyph-open shapes', () => {
  it('tells Ɔ (open on the left) from O and C, and Ɛ (a waist, no stem) from E', async () => {
    for (const font of ['DejaVu Sans', 'Liberation Serif', 'Liberation Mono']) {
      const open = await middle('Ɔ', font), o = await middle('O', font), c = await middle('C', font);
      expect(openRight(open.g, open.b), font).toBeGreaterThanOrEqual(0.6);
      expect(openRight(o.g, o.b), font).toBe(0);
      expect(openRight(c.g, c.b), font).toBe(0);
      const eps = await middle('Ɛ', font), e = await middle('E', font);
      expect(epsilonShape(eps.g, eps.b).px, font).toBeGreaterThanOrEqual(2);
      expect(epsilonShape(e.g, e.b).px, font).toBe(0);
    }
  });
});

describe('mendOpenLetters', () => {
  const cases: Array<[string, string, number]> = [
    // truth, reading, least share of the 14 drawings (7 faces, clean and blurred) written right
    ['ƆPƆKU', 'OPOKU', 0.85], ['NYARKƆ', 'NYARKO', 0.85], ['ƆFORI', 'FORI', 0.85], ['ĽUBINA', 'LUBINA', 0.7],
    ['ĽAHKÝ', 'LAHKÝ', 0.7], ['BOATƐNG', 'BOATENG', 0.3],
  ];
  for (const [truth, read, share] of cases) {
    it(`writes ${truth} over "${read}", never sure, never a letter outside the name alphabet`, async () => {
      const out = await mendedReadings((g, ws) => mendInkMarks(g, ws), truth, read);
      for (const r of out) {
        expect(NAME.test(r.text), r.at).toBe(true);
        if (r.text !== read) expect(r.conf, r.at).toBeLessThanOrEqual(0.6);
      }
      expect(out.filter((r) => r.text === truth).length / out.length).toBeGreaterThanOrEqual(share);
      // Hardly any left sure (DejaVu Serif Bold joins Ľ's stroke to the next letter's serif: left as read).
      expect(out.filter((r) => r.conf >= 0.8).length, JSON.stringify(out)).toBeLessThanOrEqual(2);
    });
  }

  it('puts an Ɔ the reading dropped before a word whose box starts at its second letter', async () => {
    let right = 0;
    for (const [font, bold] of CARD_FACES) {
      const d = await drawn('ƆFORI', font, 28, bold);
      const gl = wordGlyphs(d.g, d.box);
      const [w] = mendOpenLetters(d.g, [{ text: 'FORI', conf: 0.9, ...d.box, x0: gl[1].x0 }]);
      if (w.text === 'ƆFORI') { right++; expect(w.conf).toBe(0.6); expect(w.x0).toBeLessThanOrEqual(gl[0].x0 + 1); }
    }
    expect(right).toBeGreaterThanOrEqual(6);
  });

  it('leaves Portuguese names with O, C, E and L as read and as sure, upright and italic', async () => {
    const words = ['CONCEIÇÃO', 'LEOPOLDO', 'CELESTE', 'HELENA', 'GONÇALVES', 'EDELTRUDES', 'LOURENÇO', 'ODETE', 'COELHO', 'LÚCIA'];
    for (const italic of [false, true]) for (const word of words) for (const [font, bold] of CARD_FACES) for (const [sigma, q] of [[0, 90], [0.8, 40]]) {
      const d = await drawn(word, italic ? `${font}" font-style="italic` : font, 24, bold);
      const [w] = mendOpenLetters(await worn(d.g, sigma, q), [{ text: word, conf: 0.9, ...d.box }]);
      expect({ text: w.text, conf: w.conf }, `${word} ${font} ${italic ? 'italic' : ''} ${sigma}`).toEqual({ text: word, conf: 0.9 });
    }
  }, 120_000);

  it('leaves a word before an Ɔ-ended word alone (its Ɔ is no lost letter of the next word)', async () => {
    const d = await drawn('NYARKƆ  SILVA', 'DejaVu Sans', 28);
    const gl = wordGlyphs(d.g, d.box);
    const s = gl.findIndex((b, k) => k > 0 && b.x0 - gl[k - 1].x1 > 10);
    const [w] = mendOpenLetters(d.g, [{ text: 'SILVA', conf: 0.9, ...d.box, x0: gl[s].x0 }]);
    expect({ text: w.text, conf: w.conf }).toEqual({ text: 'SILVA', conf: 0.9 });
  });
});

describe('inkMarksOnly with the open letters', () => {
  it('knows a reading that lacks only Ɔ, Ɛ or a leading Ɔ', () => {
    expect(inkMarksOnly('ƆPƆKU BOATƐNG', 'OPOKU BOATENG')).toBe(true);
    expect(inkMarksOnly('ADWOA ƆFORI', 'ADWOA FORI')).toBe(true);
    expect(inkMarksOnly('ADWOA ƆFORI', 'ADWOA FARI')).toBe(false);
  });
});

describe('a dot below a blur joined to its O (glyph-below.ts, twenty-seventh round)', () => {
  it('writes Ọ over an O whose dot below the blur joined to it, in the seven faces', async () => {
    for (const [truth, read] of [['ỌKEREKE', 'OKEREKE'], ['NWANKWỌ', 'NWANKWO']]) {
      let right = 0;
      for (const [font, bold] of CARD_FACES) {
        const d = await drawn(truth, font, 28, bold);
        const [w] = mendInkMarks(await worn(d.g, 1.2, 40), [{ text: read, conf: 0.9, ...d.box }]);
        expect(w.conf, `${truth} ${font}`).toBeLessThanOrEqual(0.6);
        if (w.text === truth) right++;
      }
      expect(right, truth).toBeGreaterThanOrEqual(6);
    }
  });
});

describe('an Ɔ read as a 9 at a word\'s start', () => {
  it('writes ƆFORI over "9FORI" (final25: normalizeName then dropped the 9), and leaves a 9 as read', async () => {
    const out = await mendedReadings((g, ws) => mendOpenLetters(g, ws), 'ƆFORI', '9FORI');
    expect(out.filter((r) => r.text === 'ƆFORI' && r.conf === 0.6).length).toBeGreaterThanOrEqual(12);
    const nine = await mendedReadings((g, ws) => mendOpenLetters(g, ws), '9FORI', '9FORI');
    expect(nine.every((r) => r.text === '9FORI' && r.conf === 0.9), JSON.stringify(nine)).toBe(true);
  });
});
