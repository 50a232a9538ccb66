/**
 * Issue #17, empty values: the causes found on the final part's misses and their fixes, each on a
 * synthetic page or word list (no recognition): a label and its value read as one tall box
 * (rereadMergedLines), parents far above PERMISSÃO (older model, FILIAÇÃO unread), a label broken in
 * two phrases, a frame line read "1" beside a remark code, and a dark vignette the border fill ran
 * through (clearBorderInk refuses; evenPaper evens the paper).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { emptyValueRegions, findLabels } from '../../src/ocr/layout.js';
import type { Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import { evenPaper } from '../../src/ocr/light.js';
import { normalizeCnhNumber, normalizeCpf } from '../../src/ocr/normalize.js';
import { MAX_MERGED_REREADS, rereadEmptyValues, rereadMergedLines, rereadSuspects } from '../../src/ocr/second-looks.js';
import { valueHeight } from '../../src/ocr/words.js';
import { isValidCnhNumber } from '../../src/ocr/validators.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h, conf); x = word.x1 + h * 0.4; return word; });
};
const fields = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));

async function page(width: number, height: number): Promise<PreparedImage> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).greyscale().png().toBuffer();
  return { png, width, height, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false } };
}

/** A recogniser answering every cut with `answer` (boxes in the cut's px) and counting its calls. */
function fakeRecognizer(answer: OcrWord[]): Recognizer & { calls: number } {
  const rec = {
    calls: 0,
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
    async words(): Promise<OcrWord[]> {
      rec.calls++;
      return answer;
    },
  };
  return rec as Recognizer & { calls: number };
}

/** An older card's labels (13 px type) and values (22 px) read well: the page's value height is 22. */
const card = (): OcrWord[] => [
  w('NOME', 100, 40, 13), ...line('ANA MARIA SOUZA', 100, 60, 22),
  ...line('DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 100, 110, 13), ...line('1234567 SSP SP', 100, 130, 22),
  ...line('DATA NASCIMENTO', 500, 190, 13), ...line('01/02/1980', 500, 210, 22),
];

describe('boxes that swallowed a label and its value (rereadMergedLines)', () => {
  it('the value height is the upper quartile of confident words', () => {
    expect(valueHeight(card())).toBe(22);
    expect(valueHeight(card().slice(0, 3))).toBe(0);
  });

  it('a tall unsure box is read again as a block; its words replace it with their own boxes', async () => {
    // "CPF" over "888.637.795-97" read as one 44 px box at confidence 0.
    const merged = w('BB8.637,795.97', 100, 190, 44, 0);
    const rec = fakeRecognizer([
      { text: 'CPF', conf: 0.95, x0: 23, y0: 12, x1: 50, y1: 25 },
      { text: '888.637.795-97', conf: 0.91, x0: 23, y0: 34, x1: 190, y1: 56 },
    ]);
    const out = await rereadMergedLines(rec, await page(900, 400), [...card(), merged]);
    expect(rec.calls).toBe(1);
    expect(out).not.toContain(merged);
    expect(fields(out).campos.cpf.valor).toBe('888.637.795-97');
  });

  it('is kept when the new reading is as tall and no clearer; confident tall words are not re-read', async () => {
    const merged = w('BB8', 100, 190, 44, 0.2);
    const same = fakeRecognizer([{ text: 'x8', conf: 0.3, x0: 20, y0: 10, x1: 60, y1: 54 }]);
    expect(await rereadMergedLines(same, await page(900, 400), [...card(), merged])).toContain(merged);
    const clear = fakeRecognizer([]);
    await rereadMergedLines(clear, await page(900, 400), [...card(), w('BRÁS', 100, 190, 44, 0.93)]);
    expect(clear.calls).toBe(0);
  });

  it(`at most ${MAX_MERGED_REREADS} per page`, async () => {
    const rec = fakeRecognizer([]);
    const tall = Array.from({ length: 9 }, (_, i) => w('XX', 100 + (i % 3) * 250, 250 + Math.floor(i / 3) * 50, 44, 0.1));
    await rereadMergedLines(rec, await page(900, 500), [...card(), ...tall]);
    expect(rec.calls).toBe(MAX_MERGED_REREADS);
  });
});

describe('values and labels the layout missed', () => {
  it('older model, FILIAÇÃO unread: the parents end up to 6 label heights above PERMISSÃO', () => {
    const words = [
      ...card(), ...line('BRÁS FLÁVIO PAIXÃO', 100, 260, 22), ...line('ÂNGELA CUNHA', 100, 297, 22),
      // PERMISSÃO 4.5 label heights (59 px) under the mother's line.
      w('PERMISSÃO', 100, 378, 13), ...line('CAT. HAB.', 700, 378, 13),
    ];
    const c = fields(words).campos;
    expect(c.nome_pai.valor).toBe('BRÁS FLÁVIO PAIXÃO');
    expect(c.nome_mae.valor).toBe('ÂNGELA CUNHA');
  });

  it('a label broken in two phrases is found (2022 model, field 3)', () => {
    const a = line('3 DATA, LOCAL', 100, 100, 13);
    // The second half half a line height lower (a tilted line): two phrases.
    const b = line('E UF DE NASCIMENTO', a[a.length - 1].x1 + 5, 106.5, 13);
    expect(groupPhrases([...a, ...b]).length).toBe(2);
    const labels = findLabels(groupPhrases([...a, ...b, ...line('28/05/2000, PORTO VELHO, RO', 100, 120, 22)]));
    expect(labels.get('nascimento3')?.phrase.text).toBe('3 DATA, LOCAL E UF DE NASCIMENTO');
    const c = fields([...a, ...b, ...line('28/05/2000, PORTO VELHO, RO', 100, 120, 22)]).campos;
    expect(c.local_nascimento.valor).toBe('PORTO VELHO, RO');
  });

  it('a frame line read "1" beside a remark code is no part of it: the unsure code is a suspect worth a second look', () => {
    const words = [...card(), w('OBSERVAÇÕES', 100, 400, 13), w('1', 84, 420, 22, 0.12), w('A', 100, 420, 22, 0.27)];
    const f = fields(words);
    expect(f.campos.observacoes.valor).toBe('');
    const s = f.suspects.find((x) => x.phrase.text === '1 A');
    expect(s?.accept('| A')).toBe(true);
    expect(s?.accept('FARA')).toBe(false);
  });

  it("an empty value's region starts under the label's type, not under a value letter read into the label's phrase", () => {
    // "12 OBSERVAÇÕES -": the "-" is the remark F under the label, read into the label's phrase.
    const words = [...card(), ...line('12 OBSERVAÇÕES', 100, 400, 13), w('-', 200, 408, 30, 0.58)];
    const r = emptyValueRegions(groupPhrases(words), 900, 600).find((x) => x.id === 'observacoes');
    expect(r?.top).toBeLessThan(400 + 2 * 13);
  });
});

describe('dark light falloff (evenPaper)', () => {
  it('paper under a vignette reads white again; ink stays dark', () => {
    // Paper falls from 230 (centre) to 90 (left edge); a black bar (ink) in the dark part.
    const width = 400, height = 200;
    const data = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = Math.round(90 + 140 * Math.min(1, x / 150));
    for (let y = 100; y < 104; y++) for (let x = 20; x < 60; x++) data[y * width + x] = 20;
    evenPaper(data, width, height);
    expect(data[50 * width + 10]).toBeGreaterThan(240);
    expect(data[50 * width + 300]).toBeGreaterThan(240);
    expect(data[101 * width + 40]).toBeLessThan(80);
  });
});

describe('numbers with a mark beside them (normalize.ts edgeDropped)', () => {
  it('12 digits: the edge digit whose removal leaves valid check digits is dropped; otherwise nothing is guessed', () => {
    expect(isValidCnhNumber('76971422600')).toBe(true);
    expect(normalizeCnhNumber('|76971422600')).toBe('76971422600');
    expect(normalizeCnhNumber('769714226001')).toBe('76971422600');
    // A misread digit inside as well: no way of dropping an edge digit passes.
    expect(normalizeCnhNumber('|76971422605')).toBe('');
    expect(normalizeCpf('|848.735.921-35')).toBe('848.735.921-35');
    expect(normalizeCpf('1848.735.921-36')).toBe('');
  });
});

describe('empty values on the second side of a wide page (rereadEmptyValues)', () => {
  it("a code's region reaching left past the gap between the sides is cut from the gap on", async () => {
    // Back side from x = 1300; "12 OBSERVAÇÕES" at 1320, its region starts 3 label heights left of it.
    const words = [...card(), ...line('12 OBSERVAÇÕES', 1320, 40, 14)];
    const cuts: number[] = [];
    const rec = { model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 }, async words(img: Buffer) { cuts.push((await sharp(img).metadata()).width ?? 0); return []; } } as unknown as Recognizer;
    await rereadEmptyValues(rec, (await page(2600, 820)).png, words, 2600, 820, 1300);
    // One region from x = 1300, not cut away; read once: the page is blank, so the cleaned look
    // (cleanCut) finds no ink and costs no recognition.
    expect(cuts.length).toBe(1);
    expect(cuts[0]).toBeGreaterThan(500);
  });

  it('a region that gives nothing is read once more cleaned and twice the size, only where there is ink', async () => {
    // A dark block (a letter, for the cut) under "OBSERVAÇÕES" on an otherwise white page.
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: 14, height: 22, channels: 3, background: '#000000' } }, left: 105, top: 425 }])
      .greyscale().png().toBuffer();
    const words = [...card(), w('OBSERVAÇÕES', 100, 400, 13)];
    const widths: number[] = [];
    const rec = {
      model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
      async words(img: Buffer): Promise<OcrWord[]> {
        widths.push((await sharp(img).metadata()).width ?? 0);
        // Nothing the first time; "F" (boxes in the cleaned cut's px, twice the size) the second.
        return widths.length === 1 ? [] : [{ text: 'F', conf: 0.9, x0: 40, y0: 40, x1: 68, y1: 84 }];
      },
    } as unknown as Recognizer;
    const out = await rereadEmptyValues(rec, png, words, 900, 600);
    expect(widths.length).toBe(2);
    expect(widths[1]).toBe(2 * widths[0]);
    expect(fields(out).campos.observacoes.valor).toBe('F');
  });
});

describe('values re-read for failing their format (rereadSuspects)', () => {
  it('an accented capital read in a remark ("EAR À") is kept: the code is not lost', async () => {
    // "EAR" read unsure (under 0.5): a suspect; the second look reads "EAR À".
    const words = [...card(), w('OBSERVAÇÕES', 100, 400, 13), w('EAR', 100, 420, 22, 0.3)];
    const rec = fakeRecognizer([
      { text: 'EAR', conf: 0.93, x0: 19, y0: 18, x1: 70, y1: 38 },
      { text: 'À', conf: 0.76, x0: 80, y0: 18, x1: 97, y1: 38 },
    ]);
    const out = await rereadSuspects(rec, await page(900, 600), words);
    // The remark's look, and the identity number's second reading (read sure: doubtIdentityNumber).
    expect(rec.calls).toBe(2);
    expect(fields(out).campos.observacoes.valor).toBe('EAR A');
  });
});
