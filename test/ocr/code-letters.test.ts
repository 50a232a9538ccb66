/**
 * Issue #17, seventh round (final4's remark misses): the code letters of the remarks region read
 * again. An unsure lone capital beside a code ("EAR" 0.95, "A" 0.33 as a line) is read alone and kept
 * when it reads the same letter; a lone capital boxed twice the value type or taller (the security print
 * under an empty remark read "E" 0.91) is no code; a remark that is no code ("FARA") read again held to
 * capitals one letter away ("EARA" at 0.00) keeps the first reading's confidence, capped at 0.7. And
 * a 2022 card's birth line read without its label: its town and state by the line's printed pattern.
 * Synthetic word lists and fake recognisers (no recognition).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { REMARK_ALPHABET } from '../../src/ocr/codes.js';
import { extractFields } from '../../src/ocr/fields.js';
import { SEGMENTATION, type Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import { rereadEmptyValues, rereadSuspects } from '../../src/ocr/second-looks.js';
import { valueHeight } from '../../src/ocr/words.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h, conf); x = word.x1 + h * 0.4; return word; });
};
const extract = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));

/** An older card's labels (13-16 px type) and values (22 px type) read well; no remark read. */
const card = (): OcrWord[] => [
  w('NOME', 100, 40, 13), ...line('MARIA DAS DORES SOUZA PEREIRA', 100, 60, 22), w('CPF', 100, 120, 13), ...line('DATA NASCIMENTO', 400, 120, 13),
  w('FILIAÇÃO', 100, 200, 16), ...line('JOSE CARLOS PEREIRA', 100, 220, 22), ...line('ANA LUCIA SOUZA', 100, 250, 22),
  w('PERMISSÃO', 100, 320, 16), w('ACC', 400, 320, 13), ...line('CAT. HAB.', 700, 320, 13), w('B', 702, 340, 22),
  w('OBSERVAÇÕES', 100, 420, 16), ...line('1ª HABILITAÇÃO', 400, 420, 16), w('VALIDADE', 700, 420, 13),
  ...line('Nº REGISTRO', 100, 520, 16), ...line('DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 100, 620, 16),
];

const png = (): Promise<Buffer> => sharp({ create: { width: 900, height: 700, channels: 3, background: '#ffffff' } }).greyscale().png().toBuffer();

/** Answers of a fake recogniser: a line of the remarks region, and a lone letter read alone. */
function fake(lineAnswer: OcrWord[], alone: OcrWord[]): Recognizer & { psms: unknown[] } {
  const rec = {
    psms: [] as unknown[],
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
    async words(_img: Buffer, psm?: unknown): Promise<OcrWord[]> {
      rec.psms.push(psm);
      if (psm === SEGMENTATION.word) return alone;
      // Every empty region's cut answers the same line (only the remarks are looked at).
      return lineAnswer;
    },
  };
  return rec as unknown as Recognizer & { psms: unknown[] };
}

/** A word of the remarks region's cut (px of the cut: padded by 12, the value's type 22 px). */
const cutWord = (text: string, x0: number, conf: number, h = 22): OcrWord => ({ text, conf, x0, y0: 14, x1: x0 + 14 * text.length, y1: 14 + h });

describe('unsure code letters of an empty remarks region (rereadEmptyValues)', () => {
  it('the card\'s value type is 22 px', () => {
    expect(valueHeight(card())).toBe(22);
  });

  it('"EAR" 0.95 and "A" 0.33 as a line: the A read alone as "a" 0.70 agrees, and is kept', async () => {
    const rec = fake([cutWord('EAR', 30, 0.95), cutWord('A', 90, 0.33)], [{ text: 'a', conf: 0.7, x0: 14, y0: 14, x1: 28, y1: 36 }]);
    const c = extract(await rereadEmptyValues(rec, await png(), card(), 900, 700)).campos;
    expect(rec.psms).toContain(SEGMENTATION.word);
    expect(c.observacoes.valor).toBe('EAR A');
  });

  it('the A read alone as another letter, or too unsure, is not kept (the sure EAR is)', async () => {
    const other = fake([cutWord('EAR', 30, 0.95), cutWord('A', 90, 0.33)], [{ text: 'R', conf: 0.9, x0: 14, y0: 14, x1: 28, y1: 36 }]);
    expect(extract(await rereadEmptyValues(other, await png(), card(), 900, 700)).campos.observacoes.valor).toBe('EAR R');
    const unsure = fake([cutWord('EAR', 30, 0.95), cutWord('A', 90, 0.33)], [{ text: 'a', conf: 0.4, x0: 14, y0: 14, x1: 28, y1: 36 }]);
    expect(extract(await rereadEmptyValues(unsure, await png(), card(), 900, 700)).campos.observacoes.valor).toBe('EAR');
  });

  it('beside another unsure word ("EAR" 0.31, "A" 0.31) the letter is not read alone (the line is left to the cleaned look)', async () => {
    const rec = fake([cutWord('EAR', 30, 0.31), cutWord('A', 90, 0.31)], [{ text: 'A', conf: 0.9, x0: 14, y0: 14, x1: 28, y1: 36 }]);
    const c = extract(await rereadEmptyValues(rec, await png(), card(), 900, 700)).campos;
    expect(rec.psms).not.toContain(SEGMENTATION.word);
    expect(c.observacoes.valor).not.toBe('A');
  });

  it('a lone capital boxed twice the value type (45 px at 22) is no code: no remark, and no cleaned look', async () => {
    const rec = fake([cutWord('E', 20, 0.91, 45)], []);
    const c = extract(await rereadEmptyValues(rec, await png(), card(), 900, 700)).campos;
    expect(c.observacoes.valor).toBe('');
    // The same letter at the value's size is a remark.
    const ok = fake([cutWord('E', 20, 0.91, 24)], []);
    expect(extract(await rereadEmptyValues(ok, await png(), card(), 900, 700)).campos.observacoes.valor).toBe('E');
  });
});

describe('a remark that is no code read again held to capitals (rereadSuspects closeCap)', () => {
  const prep = async (): Promise<PreparedImage> => ({ png: await png(), width: 900, height: 700, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false } });
  const held = (text: string, conf: number): Recognizer => ({
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
    async words(_img: Buffer, _psm?: number, whitelist?: string) { return whitelist === REMARK_ALPHABET ? [{ text, conf, x0: 40, y0: 18, x1: 100, y1: 40 }] : []; },
  }) as unknown as Recognizer;

  it('"FARA" 0.89 read "EARA" at 0.00: EAR A at 0.7 (kept over 0.5, under 0.8)', async () => {
    const out = await rereadSuspects(held('EARA', 0), await prep(), [...card(), w('FARA', 110, 440, 22, 0.89)]);
    const r = extract(out).campos.observacoes;
    expect(r.valor).toBe('EAR A');
    expect(r.confianca).toBeGreaterThanOrEqual(0.5);
    expect(r.confianca).toBeLessThanOrEqual(0.7);
  });

  it('a held reading further from the first keeps its own confidence (no remark at 0.00)', async () => {
    const out = await rereadSuspects(held('D A', 0), await prep(), [...card(), w('FARA', 110, 440, 22, 0.89)]);
    expect(extract(out).campos.observacoes.valor).toBe('');
  });
});

describe('a 2022 birth line whose label was not read (pattern fall-back)', () => {
  /** A 2022 card's labels without field 3's (13 px type), values 22 px. */
  const labels = (): OcrWord[] => [
    ...line('2 e 1 NOME E SOBRENOME', 100, 40, 13), ...line('JOAO DA SILVA', 100, 60, 22),
    ...line('4a DATA EMISSÃO', 100, 160, 13), ...line('20/02/2016', 100, 180, 22), ...line('4b VALIDADE', 450, 160, 13), ...line('20/02/2026', 450, 180, 22),
    ...line('4d CPF', 100, 220, 13), ...line('9 CAT. HAB.', 100, 300, 13), w('B', 100, 320, 22),
  ];

  it('"07/07/1989, GUARABIRA, PB" with no label found over it: GUARABIRA, PB, scaled as a fall-back', () => {
    const c = extract([...labels(), ...line('07/07/1989, GUARABIRA, PB', 100, 120, 22)]).campos;
    expect(c.local_nascimento.valor).toBe('GUARABIRA, PB');
    expect(c.local_nascimento.confianca).toBeGreaterThan(0);
  });

  it('a line without its state, or a place of issue without a date, is no birth line', () => {
    expect(extract([...labels(), ...line('07/07/1989, GUARABIRA', 100, 120, 22)]).campos.local_nascimento.valor).toBe('');
    expect(extract([...labels(), ...line('GUARABIRA, PB', 100, 120, 22)]).campos.local_nascimento.valor).toBe('');
  });
});
