/**
 * Issue #17, sixth round (final3's misses outside blur, low light and glare): values the page pass
 * broke or misread, and what reads them again. A parent's line broken in two phrases (a tall surname
 * with a tilde); a first name whose box swallowed FILIAÇÃO; a code read as no code ("R" for B, "Al"
 * for EAR), read again with the recogniser held to the code's letters; a CPF the second look read in
 * unsure pieces that together pass its check digits; a birthplace without its state; a state read
 * with a look-alike ("Pl"); an I read "!" in a name. Synthetic word lists and fake recognisers, and
 * one real recognition of a whitelist.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { passesOwnCheck } from '../../src/ocr/checks.js';
import { CATEGORY_ALPHABET, REMARK_ALPHABET } from '../../src/ocr/codes.js';
import { extractFields } from '../../src/ocr/fields.js';
import { confusedUf, normalizeName, parseIdentity } from '../../src/ocr/normalize.js';
import { RecognizerPool, SEGMENTATION, type Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import { rereadEmptyValues, rereadSuspects } from '../../src/ocr/second-looks.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h, conf); x = word.x1 + h * 0.4; return word; });
};
const extract = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));
const end = (ws: OcrWord[]): number => Math.max(...ws.map((x) => x.x1));

/** An older card's labels (13-16 px type), as in the other tests. */
const oldLabels = (): OcrWord[] => [
  w('NOME', 100, 40, 13), w('CPF', 100, 120, 13), ...line('DATA NASCIMENTO', 400, 120, 13),
  w('FILIAÇÃO', 100, 200, 16), w('PERMISSÃO', 100, 320, 16), w('ACC', 400, 320, 13), ...line('CAT. HAB.', 700, 320, 13),
  w('OBSERVAÇÕES', 100, 420, 16), ...line('1ª HABILITAÇÃO', 400, 420, 16), w('VALIDADE', 700, 420, 13),
  ...line('Nº REGISTRO', 100, 520, 16), ...line('DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 100, 620, 16),
];

/** A 2022 card's labels down to the category row (13 px type). */
const labels2022 = (): OcrWord[] => [
  ...line('2 e 1 NOME E SOBRENOME', 100, 40, 13), ...line('3 DATA, LOCAL E UF DE NASCIMENTO', 100, 100, 13),
  ...line('4a DATA EMISSÃO', 100, 160, 13), ...line('4b VALIDADE', 450, 160, 13), ...line('4d CPF', 100, 220, 13),
  ...line('9 CAT. HAB.', 100, 300, 13), w('B', 100, 320, 22),
];

describe("parents' lines broken by the recogniser", () => {
  it("a second line's surname read as a taller phrase of its own (a tilde) is joined to its line", () => {
    const mother = line('OLGA PEDROSA', 100, 250, 20);
    const words = [...oldLabels(), ...line('ISAÍAS DA AMORIM', 100, 220, 20), ...mother, w('JORDÃO', end(mother) + 10, 242, 38)];
    const c = extract(words).campos;
    expect(c.nome_pai.valor).toBe('ISAÍAS DA AMORIM');
    expect(c.nome_mae.valor).toBe('OLGA PEDROSA JORDÃO');
  });

  it('2022 card, FILIAÇÃO swallowed by the father\'s first name (one tall box): his surnames beside it are his', () => {
    const first = w('TARCÍSIO', 100, 380, 54, 0.75);
    const words = [...labels2022(), first, ...line('DOS MESQUITA IBIAPINA', first.x1 + 10, 402, 22), ...line('OLGA AMORIM SERRÃO', 100, 440, 22)];
    const c = extract(words).campos;
    expect(c.nome_pai.valor).toBe('TARCÍSIO DOS MESQUITA IBIAPINA');
    expect(c.nome_mae.valor).toBe('OLGA AMORIM SERRÃO');
  });
});

describe('codes read as no code are read again with their alphabet', () => {
  it('a category reading with no category in it ("R"): empty, and a suspect held to A-E, its box widened', () => {
    const r = extract([...oldLabels(), w('R', 702, 340, 22)]);
    expect(r.campos.categoria.valor).toBe('');
    const s = r.suspects.find((x) => x.phrase.text === 'R');
    expect(s?.whitelist).toBe(CATEGORY_ALPHABET);
    expect(s?.phrase.x0).toBeLessThan(702 - 22);
    expect(s?.accept('B')).toBe(true);
    expect(s?.accept('R')).toBe(false);
  });

  it('a remark reading that is not codes ("Al" for EAR): a suspect held to the capitals, its box widened', () => {
    const r = extract([...oldLabels(), w('Al', 110, 440, 22, 0.82)]);
    const s = r.suspects.find((x) => x.phrase.text === 'Al');
    expect(s?.whitelist).toBe(REMARK_ALPHABET);
    expect(s?.phrase.x1).toBeGreaterThan(110 + 2 * 0.6 * 22 + 22);
    expect(s?.accept('EAR')).toBe(true);
    expect(s?.accept('FARA')).toBe(false);
    // Codes read confidently are not read again.
    expect(extract([...oldLabels(), w('D', 110, 440, 22)]).suspects).toEqual([]);
  });

  it('the suspect\'s whitelist reaches the recogniser, and its words replace the misread code', async () => {
    const png = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#ffffff' } }).greyscale().png().toBuffer();
    const prep = { png, width: 900, height: 700, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false } };
    const lists: Array<string | undefined> = [];
    const rec = { model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 }, async words(_img: Buffer, _psm?: number, whitelist?: string) { lists.push(whitelist); return whitelist ? [{ text: 'B', conf: 0.9, x0: 40, y0: 18, x1: 54, y1: 40 }] : []; } } as unknown as Recognizer;
    const out = await rereadSuspects(rec, prep, [...oldLabels(), w('R', 702, 340, 22)]);
    expect(lists).toEqual([CATEGORY_ALPHABET]);
    expect(extract(out).campos.categoria.valor).toBe('B');
  });
});

describe('a second look under an empty label keeps unsure words that pass the field\'s check', () => {
  const png = (): Promise<Buffer> => sharp({ create: { width: 900, height: 700, channels: 3, background: '#ffffff' } }).greyscale().png().toBuffer();
  const fake = (answer: (whitelist?: string) => OcrWord[]): Recognizer & { lists: Array<string | undefined> } => {
    const rec = { lists: [] as Array<string | undefined>, model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 }, async words(_img: Buffer, _psm?: number, whitelist?: string) { rec.lists.push(whitelist); return answer(whitelist); } };
    return rec as unknown as Recognizer & { lists: Array<string | undefined> };
  };
  const piece = (text: string, x0: number, conf: number): OcrWord => ({ text, conf, x0, y0: 16, x1: x0 + 80, y1: 38 });

  it('a CPF read in two pieces at 0.05 each, valid check digits together, is kept; invalid pieces are not', async () => {
    const good = fake(() => [piece('862.619', 20, 0.05), piece('.807-80', 100, 0.05)]);
    expect(extract(await rereadEmptyValues(good, await png(), oldLabels(), 900, 700)).campos.cpf.valor).toBe('862.619.807-80');
    const bad = fake(() => [piece('862.619', 20, 0.05), piece('.807-81', 100, 0.05)]);
    expect(extract(await rereadEmptyValues(bad, await png(), oldLabels(), 900, 700)).campos.cpf.valor).toBe('');
    expect(passesOwnCheck('cpf', '862.619 .807-80')).toBe(true);
    expect(passesOwnCheck('nome', 'ANA MARIA')).toBe(false);
  });

  it('a category still unread is read once more with the recogniser held to A-E', async () => {
    const rec = fake((whitelist) => (whitelist === CATEGORY_ALPHABET ? [piece('C', 30, 0.6)] : []));
    const out = await rereadEmptyValues(rec, await png(), oldLabels(), 900, 700);
    expect(rec.lists).toContain(CATEGORY_ALPHABET);
    expect(extract(out).campos.categoria.valor).toBe('C');
  });
});

describe('values that fail their check by a letter', () => {
  it('a birthplace whose state was read with a confused capital ("CÁCERES, NT") keeps that state under the low-confidence line, and is a suspect that only a line ending in a state read as such passes', () => {
    const r = extract([...labels2022(), ...line('18/09/1964, CÁCERES, NT', 100, 120, 22)]);
    expect(r.campos.local_nascimento.valor).toBe('CÁCERES, MT');
    expect(r.campos.local_nascimento.confianca).toBeLessThan(0.8);
    const s = r.suspects.find((x) => x.phrase.text.includes('CÁCERES'));
    expect(s?.accept('18/09/1964, CÁCERES, MT')).toBe(true);
    expect(s?.accept('18/09/1964, CÁCERES, NT')).toBe(false);
    // A last word that is no state either way is the town's: the value is the town alone, and read again.
    const x = extract([...labels2022(), ...line('18/09/1964, CÁCERES, XX', 100, 120, 22)]);
    expect(x.campos.local_nascimento.valor).toBe('CÁCERES XX');
    expect(x.suspects.some((q) => q.phrase.text.includes('CÁCERES'))).toBe(true);
    expect(confusedUf('NT')).toBe('MT');
    expect(confusedUf('MT')).toBe('');
    expect(confusedUf('ND')).toBe('');
  });

  it("an identity's state read with a look-alike (Pl) is the state; one that is a state stays", () => {
    expect(parseIdentity('341156336 SDS Pl')).toEqual({ rg: '341156336', orgao: 'SDS', uf: 'PI' });
    expect(parseIdentity('1234567 SSP AL')).toEqual({ rg: '1234567', orgao: 'SSP', uf: 'AL' });
    expect(parseIdentity('1234567 SSP R5')).toEqual({ rg: '1234567', orgao: 'SSP', uf: 'RS' });
  });

  it('an "!" touching a letter of a name is an I', () => {
    expect(normalizeName('TELMA JANETE DOS GODÓ! ESCOBAR')).toBe('TELMA JANETE DOS GODÓI ESCOBAR');
    expect(normalizeName('ANA ! SOUZA')).toBe('ANA SOUZA');
  });
});

describe('a whitelist read by tesseract', () => {
  it('holds that call to its letters; the next call reads every character again', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120"><rect width="240" height="120" fill="#fff"/><text x="40" y="90" font-family="DejaVu Sans" font-size="30" fill="#000">R8</text></svg>';
    const png = await sharp(Buffer.from(svg)).greyscale().png().toBuffer();
    const pool = await RecognizerPool.start(1, 0);
    try {
      const read = (whitelist?: string): Promise<string> => pool.run(async ([rec]) => (await rec.words(png, SEGMENTATION.line, whitelist)).map((x) => x.text).join(''));
      expect(await read()).toBe('R8');
      expect(await read(REMARK_ALPHABET)).toBe('R');
      // No letter of A-E there: nothing is forced into one.
      expect(await read(CATEGORY_ALPHABET)).toBe('');
      expect(await read()).toBe('R8');
    } finally {
      await pool.close();
    }
  }, 60_000);
});
