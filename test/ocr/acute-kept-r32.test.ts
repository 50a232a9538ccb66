/**
 * An acute the ink shows clearly is not made a circumflex by spelling (issue #17, the thirty-first round):
 * final29 #12, #61, #66 (a clean card among them) read ÉMERSON right at 0.91, the ink's mark an acute, and
 * orthography.ts's circumflex rule (a stressed E before M and a vowel is Ê in Brazil) wrote "ÊMERSON".
 * Registries keep the bearer's spelling: Émerson, Édina are Brazilian names. glyph-accent.ts clearAcute
 * marks the word (OcrWord.acuteInk); restoreDiacritics declines the rule for it, and the name stays under
 * the low-confidence line, as the rule and the ink disagree.
 */
import { describe, expect, it } from 'vitest';
import { CARD_FACES, WEARS, drawn, worn } from './drawn-word.js';
import { mendMarks } from '../../src/ocr/glyph-accent.js';
import { extractFields } from '../../src/ocr/fields.js';
import { restoreDiacritics } from '../../src/ocr/orthography.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

/** mendMarks's word for `truth` drawn in each card face and wear at `size` px, read as `read` at 0.9. */
async function looked(truth: string, read: string, size: number): Promise<Array<{ w: OcrWord; at: string }>> {
  const out: Array<{ w: OcrWord; at: string }> = [];
  for (const [font, bold] of CARD_FACES) for (const [sigma, quality] of WEARS) {
    const d = await drawn(truth, font, size, bold);
    const [w] = mendMarks(await worn(d.g, sigma, quality), [{ text: read, conf: 0.9, ...d.box }]);
    out.push({ w, at: `${font}${bold ? ' bold' : ''} ${size} blur ${sigma} q${quality}` });
  }
  return out;
}

describe('an acute seen in the ink (glyph-accent.ts clearAcute, OcrWord.acuteInk)', () => {
  it('marks most acutes read right over capitals 13-22 px high, and never a circumflex or tilde read as an acute', async () => {
    let seen = 0, all = 0;
    for (const size of [20, 26, 30]) {
      for (const word of ['ÉMERSON', 'ÁNGELO', 'JOSÉ']) for (const r of await looked(word, word, size)) {
        all++;
        if (r.w.acuteInk) seen++;
      }
      for (const [truth, read] of [['ÊMERSON', 'ÉMERSON'], ['ANTÔNIO', 'ANTÓNIO'], ['ÂNGELA', 'ÁNGELA'], ['JOÃO', 'JOÁO']]) {
        for (const r of await looked(truth, read, size)) expect(r.w.acuteInk, `${truth} read ${read}: ${r.at} -> ${r.w.text}`).toBeFalsy();
      }
    }
    expect(seen, `${seen} of ${all}`).toBeGreaterThanOrEqual(0.8 * all);
  });
});

describe('spelling yields to an acute the ink shows', () => {
  it('restoreDiacritics declines the circumflex for a kept word only', () => {
    expect(restoreDiacritics('ÉMERSON SILVA', { person: true }).name).toBe('ÊMERSON SILVA');
    const kept = restoreDiacritics('ÉMERSON ANTÓNIO SILVA', { person: true, keepAcute: new Set(['ÉMERSON']) });
    expect(kept.name).toBe('ÉMERSON ANTÔNIO SILVA');
    expect(kept.declined).toEqual(['ÉMERSON']);
  });

  /** A 2022 front's name lines (as parent-stray-r31's), the holder's first word `first`. */
  const front = (first: OcrWord): OcrWord[] => [
    { text: '1', conf: 0.93, x0: 400, y0: 136, x1: 407, y1: 148 }, { text: 'NOME', conf: 0.93, x0: 414, y0: 135, x1: 463, y1: 148 },
    { text: 'E', conf: 0.96, x0: 470, y0: 135, x1: 479, y1: 148 }, { text: 'SOBRENOME', conf: 0.96, x0: 486, y0: 135, x1: 594, y1: 148 },
    first, { text: 'MUNDIM', conf: 0.92, x0: 520, y0: 189, x1: 640, y1: 209 },
    { text: '4d', conf: 0.9, x0: 373, y0: 461, x1: 390, y1: 473 }, { text: 'CPF', conf: 0.9, x0: 396, y0: 461, x1: 429, y1: 474 },
    { text: '618.781.028-77', conf: 0.93, x0: 384, y0: 482, x1: 609, y1: 505 },
  ];
  it('a holder\'s ÉMERSON whose acute the ink showed stays ÉMERSON, under the low-confidence line', () => {
    const read: OcrWord = { text: 'ÉMERSON', conf: 0.91, x0: 380, y0: 189, x1: 508, y1: 209 };
    expect(extractFields(groupPhrases(front(read)), '').campos.nome_completo.valor).toBe('ÊMERSON MUNDIM');
    const nome = extractFields(groupPhrases(front({ ...read, acuteInk: true })), '').campos.nome_completo;
    expect(nome.valor).toBe('ÉMERSON MUNDIM');
    expect(nome.confianca).toBeLessThan(0.8);
  });
});
