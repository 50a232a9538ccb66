/**
 * The barred Ɨ and Pinyin's caron vowels read from their ink (glyph-barred-i.ts, glyph-caron.ts, twenty-eighth
 * round): drawn words in the cards' faces (test/ocr/drawn-word.ts), read as the recogniser gives them
 * (final26: "NAPIME", "XIRIANA", "YŬTÓNG"-like readings of NAPƗMƗ, XƗRƗANA, YǓTÓNG), come back through the
 * whole ink chain (glyph-below.ts mendInkMarks) with the letter written, never sure; Portuguese and Romanian
 * names with I, E, Ł, breves, tildes and roofs come back as the old code gave them.
 */
import { describe, expect, it } from 'vitest';
import { drawn, mendedReadings } from './drawn-word.js';
import { mendInkMarks } from '../../src/ocr/glyph-below.js';
import { markInk } from '../../src/ocr/glyph-accent.js';
import { inkMarksOnly } from '../../src/ocr/glyph-marks.js';
import { barredI, BARRED_I } from '../../src/ocr/glyph-barred-i.js';
import { veeSpread, VEE_MAX_SPREAD } from '../../src/ocr/glyph-caron.js';
import { wordGlyphs } from '../../src/ocr/glyph-i.js';
import { NAME_LETTERS } from '../../src/ocr/normalize.js';

const NAME = new RegExp(`^[${NAME_LETTERS}]+$`);
const chain = (g: Parameters<typeof mendInkMarks>[0], ws: Parameters<typeof mendInkMarks>[1]) => mendInkMarks(g, ws);

describe('glyph-barred-i', () => {
  it('judges the glyph of Ɨ barred and those of I, E, T, Ł not', async () => {
    for (const font of ['DejaVu Sans', 'Liberation Serif', 'Liberation Mono']) {
      const d = await drawn('HƗIETŁH', font, 28);
      const gl = wordGlyphs(d.g, d.box);
      expect(gl.length, font).toBe(7);
      const h = gl[0].y1 - gl[0].y0 + 1;
      expect(barredI(gl[1], d.g.width, h), font).toBeGreaterThan(0);
      for (const k of [2, 3, 4, 5]) expect(barredI(gl[k], d.g.width, h), `${font} ${k}`).toBe(0);
    }
  });

  it('writes Ɨ over an I or E read for it, never sure, in the name alphabet', async () => {
    for (const [truth, read] of [['NAPƗMƗ', 'NAPIMI'], ['XƗRƗANA', 'XIRIANA'], ['SANƗMA', 'SANEMA']]) {
      const out = await mendedReadings(chain, truth, read);
      const right = out.filter((o) => o.text === truth);
      expect(right.length, `${truth}: ${JSON.stringify(out)}`).toBeGreaterThanOrEqual(8);
      for (const o of right) { expect(o.conf).toBeLessThan(0.8); expect(NAME.test(o.text)).toBe(true); }
    }
    expect(inkMarksOnly(`NAP${BARRED_I}M${BARRED_I}`, 'NAPIMI')).toBe(true);
  });

  it('leaves Portuguese and Polish names with I, E, T, Ł as read and as sure', async () => {
    for (const name of ['ISIDORO', 'FELIPE', 'TIAGO', 'ELIETE', 'IRINEU', 'PAWEŁ', 'STANISŁAW']) {
      for (const o of await mendedReadings(chain, name, name)) {
        expect(o.text, `${name} ${o.at}`).toBe(name);
        expect(o.conf, `${name} ${o.at}`).toBe(0.9);
      }
    }
  });
});

describe('glyph-caron', () => {
  it("spreads a clean caron's ink below its centre less than a breve's", async () => {
    for (const font of ['DejaVu Sans', 'Liberation Sans', 'Liberation Serif']) {
      const c = await drawn('GUǍN', font, 28), b = await drawn('BĂLAN', font, 28);
      const mc = markInk(c.g, c.box)!.marks, mb = markInk(b.g, b.box)!.marks;
      expect(mc.length).toBe(1); expect(mb.length).toBe(1);
      expect(veeSpread(c.g, mc[0]), font).toBeLessThan(veeSpread(b.g, mb[0]));
      expect(veeSpread(b.g, mb[0]), font).toBeGreaterThan(VEE_MAX_SPREAD);
    }
  });

  it('writes Pinyin Ǔ Ǐ over a U or I read plain or with an acute (the old code wrote the breve Ŭ Ĭ), never sure', async () => {
    for (const [truth, read] of [['YǓTÓNG', 'YUTÓNG'], ['YǓTÓNG', 'YÚTÓNG'], ['SHǏ', 'SHÍ']]) {
      const out = await mendedReadings(chain, truth, read);
      const right = out.filter((o) => o.text === truth);
      expect(right.length, `${truth} read ${read}: ${JSON.stringify(out)}`).toBeGreaterThanOrEqual(5);
      for (const o of right) { expect(o.conf).toBeLessThan(0.8); expect(NAME.test(o.text)).toBe(true); }
      expect(out.some((o) => /[ŬĬ]/.test(o.text))).toBe(false);
    }
  });

  it('leaves Romanian breves and Portuguese tildes and roofs as the old code read them', async () => {
    for (const [truth, read, want] of [['BĂLAN', 'BÁLAN', 'BĂLAN'], ['TĂNASE', 'TÂNASE', 'TĂNASE'], ['JOÃO', 'JOÃO', 'JOÃO'], ['SIMÕES', 'SIMÕES', 'SIMÕES'], ['ESTÊVÃO', 'ESTÊVÃO', 'ESTÊVÃO'], ['CONCEIÇÃO', 'CONCEIÇÃO', 'CONCEIÇÃO']]) {
      const out = await mendedReadings(chain, truth, read);
      expect(out.some((o) => /[ǍǏǑǓ]/.test(o.text)), `${truth}: ${JSON.stringify(out)}`).toBe(false);
      if (read === want) for (const o of out) expect(o.text, `${truth} ${o.at}`).toBe(want);
    }
  });
});
