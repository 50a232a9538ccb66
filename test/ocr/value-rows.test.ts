/**
 * Issue #17, tenth round (final8's name misses): name and birth lines that lost words to a stain or a
 * glare are read again whole (value-rows.ts rereadValueRows: "JA€" + "A FARO GÓIS" for JACÓ TADEU DA
 * FARO GÓIS, "LUCIANO" ... "FARO FREIRE" with MESSIAS DOS unread, "PANTO]," for PANTOJA RIOS); a name's
 * first "I" that is the photo's frame is dropped (ruleAt: "IDAGOBERTO"); a name word with a mark no
 * name has caps its name (doubts.ts: "NAS:" for NASSAR at 0.96); the 2022 name is found above the birth
 * line when both labels are unread (fields.ts); a category's tall security-print word is not a code
 * letter and a category's held re-read is cut taller (fields.ts withoutTallCodes, codes.ts widenedCode:
 * "R A" read "A" at 0.933 for a B). Synthetic words and pages, a fake recogniser.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CODE_GROW, CODE_WIDEN, widenedCode } from '../../src/ocr/codes.js';
import { misreadNameWords } from '../../src/ocr/doubts.js';
import { extractFields, loneHeaderUf, withoutTallCodes } from '../../src/ocr/fields.js';
import { findLabels } from '../../src/ocr/layout.js';
import type { Gray } from '../../src/ocr/glyph-i.js';
import { SEGMENTATION, type Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import { markedNameWord } from '../../src/ocr/doubts.js';
import { disputed, isBirthRow, rereadValueRows, ruleAt, takesRow } from '../../src/ocr/value-rows.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h, conf); x = word.x1 + h * 0.4; return word; });
};
const extract = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));

/** A 2022 front: labels 12 px, values 22 px; `name` and `birth` are the value lines' words. */
function front(name: OcrWord[], birth: OcrWord[], labels = true): OcrWord[] {
  return [
    ...line('REPÚBLICA FEDERATIVA DO BRASIL', 40, 20, 12, 0.9),
    ...line('MINISTÉRIO DOS TRANSPORTES', 40, 40, 12, 0.9),
    ...(labels ? line('2 e 1 NOME E SOBRENOME', 100, 100, 12) : []),
    ...name,
    ...(labels ? line('3 DATA, LOCAL E UF DE NASCIMENTO', 100, 160, 12) : []),
    ...birth,
    ...line('4a DATA EMISSÃO', 100, 230, 12), ...line('4b VALIDADE', 400, 230, 12),
    ...line('10/01/2020', 100, 250, 22), ...line('10/01/2030', 400, 250, 22),
    ...line('4d CPF', 100, 300, 12), ...line('5 Nº REGISTRO', 400, 300, 12),
  ];
}

/** A fake recogniser whose single-line reads answer `answer` (boxes in the 2 x cut's px); every other read nothing. */
function lineReader(answer: (call: number) => OcrWord[]): Recognizer & { calls: number } {
  const rec = {
    calls: 0,
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
    async words(_img: Buffer, psm?: unknown): Promise<OcrWord[]> {
      if (psm !== SEGMENTATION.line) return [];
      return answer(rec.calls++);
    },
  };
  return rec as unknown as Recognizer & { calls: number };
}
const whitePage = async (): Promise<PreparedImage> => ({
  png: await sharp({ create: { width: 900, height: 400, channels: 3, background: '#ffffff' } }).greyscale().png().toBuffer(),
  width: 900, height: 400, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false },
});
/** Words as the 2 x evened cut reads them: text and confidence, boxes laid out along the cut. */
const cutWords = (spec: Array<[string, number]>): OcrWord[] => {
  let x = 24;
  return spec.map(([text, conf]) => { const o = { text, conf, x0: x, y0: 24, x1: x + text.length * 34, y1: 68 }; x = o.x1 + 18; return o; });
};

describe('name and birth lines read again whole (value-rows.ts)', () => {
  it('reads a name line with a hole again and takes the whole line', async () => {
    const name = [w('LUCIANO', 100, 120, 22), w('FARO', 420, 120, 22), w('FREIRE', 490, 120, 22)];
    const words = front(name, line('14/06/2001, LIMOEIRO, PE', 100, 180, 22));
    expect(extract(words).campos.nome_completo.valor).toBe('LUCIANO');
    const rec = lineReader(() => cutWords([['LUCIANO', 0.96], ['MESSIAS', 0.96], ['DOS', 0.96], ['FARO', 0.96], ['FREIRE', 0.96]]));
    const out = await rereadValueRows(rec, await whitePage(), words);
    expect(rec.calls).toBe(1);
    expect(extract(out).campos.nome_completo.valor).toBe('LUCIANO MESSIAS DOS FARO FREIRE');
  });

  it('leaves a line that read whole alone (no recognition)', async () => {
    const words = front(line('JACÓ TADEU DA FARO GÓIS', 100, 120, 22), line('29/05/1968, PIRENÓPOLIS, GO', 100, 180, 22));
    const rec = lineReader(() => []);
    expect(await rereadValueRows(rec, await whitePage(), words)).toBe(words);
    expect(rec.calls).toBe(0);
  });

  it('does not take a new reading that drops a word read sure or reads a mark', async () => {
    const name = [...line('GERUSA DAS GRAÇAS DOS', 100, 120, 22), w('PANTO],', 380, 120, 22, 0.74)];
    const words = front(name, line('29/04/1955, TELÊMACO BORBA, PR', 100, 180, 22));
    const lost = await rereadValueRows(lineReader(() => cutWords([['GERUSA', 0.96], ['GRAÇAS', 0.96], ['DOS', 0.96], ['PANTOJA', 0.9]])), await whitePage(), words);
    // "PANTO]," keeps its J (normalize.ts J_AS_CLOSING); the reading without DAS is not taken.
    expect(extract(lost).campos.nome_completo.valor).toBe('GERUSA DAS GRAÇAS DOS PANTOJ');
    const marked = await rereadValueRows(lineReader(() => cutWords([['GERUSA', 0.96], ['DAS', 0.96], ['GRAÇAS', 0.96], ['DOS', 0.96], ['PANTOJA;', 0.9]])), await whitePage(), words);
    expect(extract(marked).campos.nome_completo.valor).toBe('GERUSA DAS GRAÇAS DOS PANTOJ');
    // The marked word itself leaves the name under the low-confidence line.
    expect(extract(words).campos.nome_completo.confianca).toBeLessThan(0.8);
  });

  it('finds the 2022 name above the birth line when both labels were lost, and reads it whole', async () => {
    const name = [w('JA€', 100, 120, 22, 0.41), ...line('A FARO GÓIS', 190, 120, 22)];
    const words = front(name, line('29/05/1968, PIRENÓPOLIS, GO', 100, 180, 22), false);
    const rec = lineReader(() => cutWords([['JACÓ', 0.95], ['TADEU', 0.96], ['DA', 0.96], ['FARO', 0.96], ['GÓIS', 0.96]]));
    const f = extract(await rereadValueRows(rec, await whitePage(), words)).campos;
    expect(f.nome_completo.valor).toBe('JACÓ TADEU DA FARO GÓIS');
    expect(f.local_nascimento.valor).toBe('PIRENÓPOLIS, GO');
  });

  it('drops the I a line read again took from the photo\'s frame at its start', async () => {
    // A frame line at x 80 from y 60 to 260 (the name's line is at y 120-142, its label at x 100).
    const raw = new Uint8Array(900 * 400).fill(255);
    for (let y = 60; y <= 260; y++) raw[y * 900 + 80] = 30;
    const png = await sharp(raw, { raw: { width: 900, height: 400, channels: 1 } }).png().toBuffer();
    const prep = { ...(await whitePage()), png };
    const words = front([w('SANDRA', 100, 120, 22, 0.35), ...line('DA MENDES AZEVEDO', 190, 120, 22)], line('14/06/2001, LIMOEIRO, PE', 100, 180, 22));
    // The cut starts at x 78: the frame line at 80 is read as the I of "ISANDRA", at 2 x from the cut's padding.
    const rec = lineReader(() => cutWords([['ISANDRA', 0.91], ['DA', 0.96], ['MENDES', 0.96], ['AZEVEDO', 0.96]]).map((o, i) => (i === 0 ? { ...o, x0: 28 } : o)));
    expect(extract(await rereadValueRows(rec, prep, words)).campos.nome_completo.valor).toBe('SANDRA DA MENDES AZEVEDO');
  });

  it('reads a birth line without its state again, taking a state read with a mark after it', async () => {
    const words = front(line('DIONÍSIO CLEMENTE PERES', 100, 120, 22), line('21/04/1968, CORNÉLIO PROCÓPIO,', 100, 180, 22));
    const rec = lineReader(() => cutWords([['21/04/1968,', 0.93], ['CORNÉLIO', 0.92], ['PROCÓPIO,', 0.95], ['PR.', 0.56]]));
    expect(extract(await rereadValueRows(rec, await whitePage(), words)).campos.local_nascimento.valor).toBe('CORNÉLIO PROCÓPIO, PR');
  });

  it('takes an unsure word that makes whole a word the old line cut short, at its own low confidence', () => {
    const old = [...line('EUGÊNIO DE CERQUEIRA', 100, 120, 22, 0.96), w('NAS:', 420, 120, 22, 0.96)];
    const found = [...line('EUGÊNIO DE CERQUEIRA', 100, 120, 22, 0.95), w('NASSAR', 420, 120, 22, 0.47)];
    expect(takesRow('name', old, found, 22)).toBe(true);
    // An unsure word that completes nothing is not taken.
    expect(takesRow('name', old, [...found.slice(0, 3), w('MASSAR', 420, 120, 22, 0.47)], 22)).toBe(false);
  });

  it('leaves a word two readings read otherwise at the lower confidence', () => {
    const old = [w('DOS', 100, 120, 22, 0.93), w('UCHIDA', 160, 120, 22, 0.52), w('RICCI', 260, 120, 22, 0.96)];
    const found = [w('SALUSTIANO', 0, 120, 22, 0.91), w('DOS', 100, 120, 22, 0.93), w('UCMIDA', 160, 120, 22, 0.83), w('RICCI', 260, 120, 22, 0.96)];
    expect(disputed(old, found).map((x) => x.conf)).toEqual([0.91, 0.93, 0.52, 0.96]);
    // The same letters, or letters lost at an end of the old word, are no dispute.
    expect(disputed([w('SANDRA', 100, 120, 22, 0.35)], [w('ISANDRA', 95, 120, 22, 0.91)])[0].conf).toBe(0.91);
  });

  it('knows a whole birth line and a marked name word', () => {
    expect(isBirthRow('14/06/2001, LIMOEIRO, PE')).toBe(true);
    expect(isBirthRow('14/06/2001, LIMOEIRO,')).toBe(false);
    expect(isBirthRow('14/06/2001, LIMOEIRO, XY')).toBe(false);
    expect(markedNameWord('NAS:')).toBe(true);
    expect(markedNameWord('PANTO],')).toBe(true);
    expect(markedNameWord('BORBA,')).toBe(false);
    expect(markedNameWord("D'ÁVILA")).toBe(false);
    expect(markedNameWord('10/01/2020')).toBe(false);
  });
});

describe('a name word with a mark no name has (doubts.ts misreadNameWords)', () => {
  it('is a misread word; a trailing comma, an apostrophe or a hyphen is not', () => {
    expect(misreadNameWords([toPhrase(line('EUGÊNIO DE CERQUEIRA NAS:', 100, 120, 22))]).map((x) => x.text)).toEqual(['NAS:']);
    expect(misreadNameWords([toPhrase(line("ANA-LÚCIA D'ÁVILA SOUZA,", 100, 120, 22))])).toEqual([]);
  });
});

/** A white page with rectangles [x0, y0, x1, y1, gray] (inclusive). */
function page(width: number, height: number, rects: Array<[number, number, number, number, number]>): Gray {
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, x1, y1, v] of rects) for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * width + x] = v;
  return { data, width, height };
}

describe('a first letter that is a rule (value-rows.ts ruleAt)', () => {
  const word: OcrWord = { text: 'IDAGOBERTO', conf: 0.92, x0: 33, y0: 60, x1: 200, y1: 81 };
  it('finds a frame line running far above and below the word at its left edge', () => {
    // The photo's frame: a 1 px line from y 10 to 150, 3 px left of the word's box; a D's stem beside it.
    expect(ruleAt(page(240, 160, [[30, 10, 30, 150, 40], [36, 60, 39, 81, 0]]), word)).toBe(true);
  });
  it('does not take a letter stem that ends with its line for a rule', () => {
    expect(ruleAt(page(240, 160, [[33, 60, 36, 81, 0], [40, 60, 43, 81, 0]]), { ...word, text: 'IVAN' })).toBe(false);
  });
});

describe('category codes (fields.ts withoutTallCodes, codes.ts widenedCode)', () => {
  it('drops a word far taller than the line\'s other code letters', () => {
    const p = toPhrase([{ text: 'R', conf: 0.91, x0: 993, y0: 565, x1: 1006, y1: 579 }, { text: 'A', conf: 0.88, x0: 1118, y0: 524, x1: 1245, y1: 585 }]);
    expect(withoutTallCodes(p).text).toBe('R');
    const ab = toPhrase([{ text: 'A', conf: 0.9, x0: 0, y0: 0, x1: 14, y1: 20 }, { text: 'B', conf: 0.9, x0: 20, y0: 0, x1: 34, y1: 21 }]);
    expect(withoutTallCodes(ab)).toBe(ab);
    // A speck is no measure of the type: "A ." keeps its A.
    const speck = toPhrase([{ text: 'A', conf: 0.9, x0: 0, y0: 0, x1: 14, y1: 20 }, { text: '.', conf: 0.5, x0: 18, y0: 17, x1: 20, y1: 20 }]);
    expect(withoutTallCodes(speck)).toBe(speck);
  });
  it('grows a category\'s box above and below for its held re-read, a remark\'s only sideways', () => {
    const p = toPhrase([{ text: 'R', conf: 0.9, x0: 100, y0: 100, x1: 113, y1: 114 }]);
    const tall = widenedCode(p, true), wide = widenedCode(p);
    expect(tall.y0).toBeCloseTo(100 - CODE_GROW * 14);
    expect(tall.y1).toBeCloseTo(114 + CODE_GROW * 14);
    expect(wide.y0).toBe(100);
    expect(wide.x0).toBeCloseTo(100 - CODE_WIDEN * 14);
  });
});

describe('a state read alone where the DETRAN line stands (fields.ts loneHeaderUf)', () => {
  const labels = (ws: OcrWord[]) => findLabels(groupPhrases(ws));
  it('is the issuing state, under the low-confidence line, when DETRAN was not read', () => {
    const words = [...front(line('GERUSA DAS GRAÇAS', 100, 120, 22), line('29/04/1955, TELÊMACO BORBA, PR', 100, 180, 22)), w('PR', 700, 30, 20, 0.96)];
    expect(loneHeaderUf(groupPhrases(words), labels(words))).toMatchObject({ valor: 'PR', cap: 0.7 });
    const f = extract(words).campos.uf;
    expect(f.valor).toBe('PR');
    expect(f.confianca).toBeLessThan(0.8);
  });
  it('takes nothing from a state under a label, one read unsure, or two', () => {
    const base = front(line('GERUSA DAS GRAÇAS', 100, 120, 22), line('29/04/1955, TELÊMACO BORBA, PR', 100, 180, 22));
    for (const extra of [[w('PR', 700, 130, 20, 0.96)], [w('PR', 700, 30, 20, 0.7)], [w('PR', 700, 30, 20, 0.96), w('SP', 800, 30, 20, 0.96)]]) {
      const words = [...base, ...extra];
      expect(loneHeaderUf(groupPhrases(words), labels(words))).toBeUndefined();
    }
  });
});
