/**
 * Issue #17, ninth round (final6's single-field misses on pages that otherwise read well): a blurred T
 * whose bar faded under the word's ink split is not taken for an I (glyph-i.ts: PRATES turned "PRAIES"
 * at 0.914, final6 #74); FILIAÇÃO read a few letters off ("FUAÇÃO") stands for its label instead of
 * becoming the father (final6 #8: the father returned as the mother at 0.834); two readings of one
 * document sure of different values leave the value taken under the low-confidence line
 * (second-read.ts: "5403196854" at 0.856 against 540319854, final6 #7); an identity number read sure
 * is read again enlarged, and readings that differ leave it under that line (second-looks.ts:
 * "82386317" at 0.892 for 82356317, final6 #24). Synthetic pages, word lists and a fake recogniser.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { extractFields, LOW_CONFIDENCE, nearFiliacao } from '../../src/ocr/fields.js';
import { misreadNameWords } from '../../src/ocr/doubts.js';
import { barAtLevel, tGlyphs, wordGlyphs, type Gray } from '../../src/ocr/glyph-i.js';
import { SEGMENTATION, type Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import { rereadSuspects } from '../../src/ocr/second-looks.js';
import { DISAGREE_CAP, mergeReadings } from '../../src/ocr/second-read.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

/** A white page with rectangles [x0, y0, x1, y1, gray] (inclusive). */
function page(width: number, height: number, rects: Array<[number, number, number, number, number]>): Gray {
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, x1, y1, v] of rects) for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * width + x] = v;
  return { data, width, height };
}
type R = Array<[number, number, number, number, number]>;
// Glyphs 20 px tall (rows 10..29), drawn at `x`, as blur leaves them: dark strokes with a mid-gray
// edge (90), thin strokes faded to 160 (a T's bar and foot serif, an I's serifs).
const blurredT = (x: number): R => [[x, 10, x + 13, 12, 160], [x + 4, 10, x + 9, 29, 90], [x + 5, 10, x + 8, 29, 0], [x + 4, 27, x + 9, 29, 160]];
const faintSerifI = (x: number): R => [[x, 10, x + 9, 12, 160], [x + 2, 10, x + 7, 29, 90], [x + 3, 10, x + 6, 29, 0], [x, 27, x + 9, 29, 160]];
const box = (x: number): R => [[x, 10, x + 3, 29, 90], [x + 8, 10, x + 11, 29, 90], [x, 10, x + 11, 13, 90], [x, 26, x + 11, 29, 90], [x + 1, 11, x + 2, 28, 0], [x + 9, 11, x + 10, 28, 0]];

describe('a blurred T is not taken for an I (glyph-i.ts)', () => {
  it('keeps a T whose bar is lighter than its stem', () => {
    // "OTO": at the word's split only the T's stem is ink, as wide at its foot as at its top.
    const g = page(80, 40, [...box(5), ...blurredT(25), ...box(48)]);
    const w: OcrWord = { text: 'OTO', conf: 0.93, x0: 3, y0: 8, x1: 62, y1: 31 };
    expect(wordGlyphs(g, w)).toHaveLength(3);
    expect(tGlyphs(g, w).get(1)).not.toBe('I');
    const stem = wordGlyphs(g, w)[1];
    expect(barAtLevel(g, stem, 23, 43, 200)).toBe(true);
    expect(barAtLevel(g, stem, 23, 43, 100)).toBe(false);
  });

  it('still finds an I read as T whose serifs are as faint at both ends', () => {
    const g = page(80, 40, [...box(5), ...faintSerifI(25), ...box(42)]);
    expect(tGlyphs(g, { text: 'OTO', conf: 0.93, x0: 3, y0: 8, x1: 56, y1: 31 }).get(1)).toBe('I');
  });
});

const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h, conf); x = word.x1 + h * 0.4; return word; });
};
const extract = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));

/** An older card's labels (13-16 px type) and values (22 px type); FILIAÇÃO read as `filiacao`. */
const card = (filiacao: string): OcrWord[] => [
  w('NOME', 100, 40, 13), ...line('MARIA DAS DORES SOUZA PEREIRA', 100, 60, 22), w('CPF', 100, 120, 13), ...line('DATA NASCIMENTO', 400, 120, 13),
  w(filiacao, 100, 200, 16, 0.57), ...line('JOSE CARLOS PEREIRA', 100, 220, 22), ...line('ANA LUCIA SOUZA', 100, 250, 22),
  w('PERMISSÃO', 100, 320, 16), w('ACC', 400, 320, 13), ...line('CAT. HAB.', 700, 320, 13), w('B', 702, 340, 22),
  w('OBSERVAÇÕES', 100, 420, 16), ...line('1ª HABILITAÇÃO', 400, 420, 16), w('VALIDADE', 700, 420, 13),
  ...line('Nº REGISTRO', 100, 520, 16), ...line('DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 100, 620, 16),
];

describe('FILIAÇÃO read a few letters off (fields.ts nearFiliacao)', () => {
  it('stands for the label: father and mother are the lines under it', () => {
    const f = extract(card('FUAÇÃO')).campos;
    expect(f.nome_pai.valor).toBe('JOSE CARLOS PEREIRA');
    expect(f.nome_mae.valor).toBe('ANA LUCIA SOUZA');
  });

  it('is no parent line, and a name word with the rest of its line beside it is no label', () => {
    expect(nearFiliacao(groupPhrases([w('FUAÇÃO', 100, 200, 16)]), new Set())?.phrase.text).toBe('FUAÇÃO');
    expect(nearFiliacao(groupPhrases([w('FILHAÇÃO', 100, 200, 16)]), new Set())).toBeDefined();
    // FALCÃO is 3 edits from FILIACAO too, but a name broken off its line has the line beside it.
    expect(nearFiliacao(groupPhrases([w('FALCÃO', 100, 200, 22), w('JOSE', 300, 200, 22)]), new Set())).toBeUndefined();
    expect(nearFiliacao(groupPhrases([w('FERREIRA', 100, 200, 22)]), new Set())).toBeUndefined();
  });
});

const SURE: Record<string, string> = {
  nome_completo: 'ANA MARIA SOUZA', cpf: '529.982.247-25', rg: '540319854', data_nascimento: '01/02/1980', numero_cnh: '12345678900',
  categoria: 'B', data_validade: '01/02/2030', data_emissao: '01/02/2020', data_primeira_habilitacao: '01/02/2000', local_nascimento: 'RECIFE, PE',
  nome_pai: 'JOSE SOUZA', nome_mae: 'MARIA SOUZA', uf: 'PE', observacoes: '', orgao_expedidor: 'SSP',
};
function campos(conf: number, changes: Partial<Record<CnhFieldName, CnhField>> = {}): Record<CnhFieldName, CnhField> {
  const out = Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: SURE[k], confianca: SURE[k] ? conf : 0 }])) as Record<CnhFieldName, CnhField>;
  return { ...out, ...changes };
}

describe('two readings sure of different values (second-read.ts mergeReadings)', () => {
  it('keeps the value taken, under the low-confidence line', () => {
    const m = mergeReadings(campos(0.9, { rg: { valor: '5403196854', confianca: 0.856 } }), campos(0.9, { rg: { valor: '540319854', confianca: 0.946 } }));
    expect(m.rg.valor).toBe('5403196854');
    expect(m.rg.confianca).toBe(DISAGREE_CAP);
    expect(DISAGREE_CAP).toBeLessThan(LOW_CONFIDENCE);
    // Values both readings agree on keep their confidence.
    expect(m.cpf.confianca).toBe(0.9);
  });

  it('leaves a value alone where the other reading was unsure, cut short, or lost a first word', () => {
    expect(mergeReadings(campos(0.9), campos(0.9, { rg: { valor: '54031985', confianca: 0.6 } })).rg.confianca).toBe(0.9);
    expect(mergeReadings(campos(0.9, { observacoes: { valor: 'EAR A', confianca: 0.9 } }), campos(0.9, { observacoes: { valor: 'EAR', confianca: 0.93 } })).observacoes.confianca).toBe(0.9);
    const m = mergeReadings(campos(0.85, { nome_pai: { valor: 'SOUZA', confianca: 0.85 } }), campos(0.9, { nome_pai: { valor: 'JOSE SOUZA', confianca: 0.9 } }));
    expect(m.nome_pai).toEqual({ valor: 'JOSE SOUZA', confianca: 0.9 });
  });
});

describe('an identity number read sure is read a second time (second-looks.ts)', () => {
  const prep = async (): Promise<PreparedImage> => ({
    png: await sharp({ create: { width: 900, height: 700, channels: 3, background: '#ffffff' } }).greyscale().png().toBuffer(),
    width: 900, height: 700, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false },
  });
  /** A fake recogniser: the digits-held line answers `digits`; any other look reads nothing. */
  const held = (digits: string): Recognizer & { calls: number } => {
    const rec = {
      calls: 0,
      model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
      async words(_img: Buffer, psm?: unknown, whitelist?: string): Promise<OcrWord[]> {
        if (psm !== SEGMENTATION.line || whitelist !== '0123456789') return [];
        rec.calls++;
        return [{ text: digits, conf: 0.6, x0: 20, y0: 20, x1: 260, y1: 62 }];
      },
    };
    return rec as unknown as Recognizer & { calls: number };
  };
  const idCard = (conf: number): OcrWord[] => [...card('FILIAÇÃO'), w('82386317', 100, 640, 22, conf), w('SESP', 220, 640, 22), w('SP', 290, 640, 22)];

  it('leaves it under the low-confidence line where the two readings differ', async () => {
    const rec = held('82356317');
    const f = extract(await rereadSuspects(rec, await prep(), idCard(0.9))).campos;
    expect(rec.calls).toBe(1);
    expect(f.rg.valor).toBe('82386317');
    expect(f.rg.confianca).toBeLessThan(LOW_CONFIDENCE);
  });

  it('keeps it where they agree, and reads nothing again for a number read unsure', async () => {
    const f = extract(await rereadSuspects(held('82386317'), await prep(), idCard(0.9))).campos;
    expect(f.rg.confianca).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    const rec = held('82356317');
    await rereadSuspects(rec, await prep(), idCard(0.5));
    expect(rec.calls).toBe(0);
  });
});

describe('a name read sure with a word that says otherwise (doubts.ts misreadNameWords)', () => {
  it('caps a name with a word boxed far wider than its letters, or read in small letters', () => {
    // "BERTOLUCC!" boxed over BERTOLUCCI ABRAÃO: 30 px a letter, the line's other words 16-17.
    const wide = [w('IDALINA', 100, 250, 22), w('EUFRÁSIA', 220, 250, 22), w('DE', 360, 250, 22), { text: 'BERTOLUCC!', conf: 0.9, x0: 400, y0: 250, x1: 700, y1: 272 }];
    expect(misreadNameWords(groupPhrases(wide)).map((x) => x.text)).toEqual(['BERTOLUCC!']);
    expect(misreadNameWords(groupPhrases(line('SALUSTIANO DOS UCHIDA RI cer', 100, 250, 22))).map((x) => x.text)).toEqual(['cer']);
    // A particle read small, a line read plain: nothing.
    expect(misreadNameWords(groupPhrases(line('ANA de SOUZA LIMA', 100, 250, 22)))).toEqual([]);
    expect(misreadNameWords(groupPhrases(line('MARIA DAS DORES SOUZA PEREIRA', 100, 250, 22)))).toEqual([]);
    const words = card('FILIAÇÃO').filter((x) => !['ANA', 'LUCIA', 'SOUZA'].includes(x.text) || x.y0 !== 250);
    const f = extract([...words, ...line('ANA LUCIA SOUZA', 100, 250, 22).map((x, i) => (i === 2 ? { ...x, x1: x.x0 + 5 * 22 * 1.2 } : x))]).campos;
    expect(f.nome_mae.valor).toBe('ANA LUCIA SOUZA');
    expect(f.nome_mae.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(extract(card('FILIAÇÃO')).campos.nome_mae.confianca).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });
});

describe("a name line whose ink goes on past its last word read (second-looks.ts lostLineEnds)", () => {
  /** The card's words on a white page, the mother's line (100..~330, rows 250..272) inked as bars, and `extra` rectangles. */
  const pageWith = async (extra: R): Promise<PreparedImage> => {
    const bars: R = [];
    for (const x of line('ANA LUCIA SOUZA', 100, 250, 22)) for (let bx = Math.ceil(x.x0) + 1; bx < x.x1 - 2; bx += 6) bars.push([bx, 252, bx + 2, 270, 20]);
    const g = page(900, 700, [...bars, ...extra]);
    const png = await sharp(Buffer.from(g.data), { raw: { width: 900, height: 700, channels: 1 } }).png().toBuffer();
    return { png, width: 900, height: 700, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false } };
  };
  const none = { model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 }, async words(): Promise<OcrWord[]> { return []; } } as unknown as Recognizer;
  const end = line('ANA LUCIA SOUZA', 100, 250, 22)[2].x1;

  it('leaves the name under the low-confidence line where a pale glyph follows it', async () => {
    const pale: R = [[Math.ceil(end) + 6, 252, Math.ceil(end) + 20, 270, 120]];
    const f = extract(await rereadSuspects(none, await pageWith(pale), card('FILIAÇÃO'))).campos;
    expect(f.nome_mae.valor).toBe('ANA LUCIA SOUZA');
    expect(f.nome_mae.confianca).toBeLessThan(LOW_CONFIDENCE);
  });

  it('does not take a frame line or an empty end for a glyph', async () => {
    const frame: R = [[Math.ceil(end) + 10, 150, Math.ceil(end) + 12, 400, 20]];
    expect(extract(await rereadSuspects(none, await pageWith(frame), card('FILIAÇÃO'))).campos.nome_mae.confianca).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    expect(extract(await rereadSuspects(none, await pageWith([]), card('FILIAÇÃO'))).campos.nome_mae.confianca).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });
});
