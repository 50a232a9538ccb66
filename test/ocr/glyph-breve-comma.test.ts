/**
 * Romanian and Turkish marks the recogniser reads as Portuguese ones (twentieth round; final18's names):
 * a breve over an A read as an acute or a roof (BĂLAN "BÁLAN" at 0.883, TĂNASE "TÂNASE": glyph-marks.ts
 * cupDepth, the breve class), the dotted capital İ read "Í" on small type (EMİNE "EMÍNE": glyph-foreign.ts
 * SMALL_KEPT), a comma below an S or a T written as a cedilla (ȘTEFĂNESCU "ŞTEFĂNESCU": glyph-below.ts
 * COMMA_BELOW), and two dots over an O whose word has two capitals touching (ÖZKAN "ÓZKAN" in DejaVu Sans:
 * glyph-dots.ts paired by letterSpans). Words drawn in the cards' fonts, clean and worn; Portuguese words
 * read right (JOÃO, CÂNDIDO, BÁRBARA, LUÍS, URUÇUÍ) keep their letters and confidence.
 */
import { describe, expect, it } from 'vitest';
import { drawn, worn } from './drawn-word.js';
import { INK_LETTER_CAP, mendMarks } from '../../src/ocr/glyph-accent.js';
import { mendForeignMarks } from '../../src/ocr/glyph-foreign.js';
import { mendBelowMarks } from '../../src/ocr/glyph-below.js';
import type { OcrWord } from '../../src/ocr/words.js';

const FONTS = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono', 'DejaVu Sans Mono', 'DejaVu Sans Condensed', 'DejaVu Serif Condensed'];
const WEAR = [[0, 90], [0.8, 40], [1.2, 40]] as const;

/** What `mend` makes of `truth` drawn in each font, plain and bold, each wear, at `size` px, read as `read` at 0.9. */
async function readings(truth: string, read: string, sizes: number[], mend: (g: Parameters<typeof mendMarks>[0], ws: OcrWord[]) => OcrWord[]): Promise<Array<{ text: string; conf: number; at: string }>> {
  const out: Array<{ text: string; conf: number; at: string }> = [];
  for (const font of FONTS) for (const size of sizes) for (const bold of [false, true]) for (const [sigma, quality] of WEAR) {
    const d = await drawn(truth, font, size, bold);
    const [w] = mend(await worn(d.g, sigma, quality), [{ text: read, conf: 0.9, ...d.box }]);
    out.push({ text: w.text, conf: w.conf, at: `${font} ${size}${bold ? ' bold' : ''} blur ${sigma}` });
  }
  return out;
}
const above = (g: Parameters<typeof mendMarks>[0], ws: OcrWord[]): OcrWord[] => mendForeignMarks(g, mendMarks(g, ws));
const below = (g: Parameters<typeof mendMarks>[0], ws: OcrWord[]): OcrWord[] => mendBelowMarks(g, ws);
const right = (got: Array<{ text: string }>, truth: string): number => got.filter((r) => r.text === truth).length;

describe('Romanian and Turkish marks', () => {
  it('writes Ă for a breve read as an acute, a roof or nothing, never sure; never over a tilde, an acute or a roof read right', async () => {
    for (const [truth, read, least] of [['BĂLAN', 'BÁLAN', 24], ['BĂLAN', 'BALAN', 16], ['TĂNASE', 'TÂNASE', 34], ['DRĂGHICI', 'DRÁGHICI', 28]] as const) {
      const got = await readings(truth, read, [22, 28], above);
      expect(right(got, truth), `${truth} ${JSON.stringify(got)}`).toBeGreaterThanOrEqual(least);
      for (const r of got.filter((r) => r.text === truth)) expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
    }
    for (const word of ['JOÃO', 'CÂNDIDO', 'BÁRBARA', 'CONCEIÇÃO']) {
      for (const r of await readings(word, word, [22, 28], above)) expect(r.text, `${word} ${r.at}`).not.toContain('Ă');
    }
  }, 240_000);

  it('writes İ for a dot read as an acute on small type, never for an acute', async () => {
    for (const [truth, read] of [['EMİNE', 'EMÍNE'], ['ÇETİN', 'ÇETÍN']] as const) {
      const got = await readings(truth, read, [22], above);
      expect(right(got, truth), `${truth} ${JSON.stringify(got)}`).toBeGreaterThanOrEqual(30);
      for (const r of got.filter((r) => r.text === truth)) expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
    }
    for (const word of ['URUÇUÍ', 'LUÍS', 'ÍRIS', 'LÚCIA']) for (const r of await readings(word, word, [22, 28], above)) expect(r.text, `${word} ${r.at}`).toBe(word);
  }, 240_000);

  it('writes a comma below an S or a T that stands apart, a cedilla where it is drawn on', async () => {
    for (const [truth, read, least] of [['ȘTEFAN', 'STEFAN', 40], ['ȚURCANU', 'TURCANU', 50], ['DRAGOȘ', 'DRAGOS', 40]] as const) {
      const got = await readings(truth, read, [22, 28], below);
      expect(right(got, truth), `${truth} ${JSON.stringify(got)}`).toBeGreaterThanOrEqual(least);
      for (const r of got.filter((r) => r.text === truth)) expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
    }
    for (const [truth, read] of [['ŞTEFAN', 'STEFAN'], ['GÜNEŞ', 'GÜNES'], ['ŞİMŞEK', 'SİMSEK']] as const) {
      for (const r of await readings(truth, read, [22, 28], below)) expect(r.text, `${truth} ${r.at}`).not.toMatch(/[\u0218-\u021b]/);
    }
  }, 240_000);

  it('reads two dots over an O in a word whose glyphs pair with its letters only by width (KA touching)', async () => {
    const got = await readings('ÖZKAN', 'ÓZKAN', [22], above);
    expect(right(got, 'ÖZKAN'), JSON.stringify(got)).toBeGreaterThanOrEqual(22);
    const d = await drawn('ÖZKAN', 'DejaVu Sans', 22);
    expect(above(d.g, [{ text: 'ÓZKAN', conf: 0.9, ...d.box }])[0]).toMatchObject({ text: 'ÖZKAN', conf: INK_LETTER_CAP });
  }, 240_000);
});
