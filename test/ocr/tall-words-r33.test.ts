/**
 * A line's first word whose box swallowed the label tight over it (tall-words.ts): final30 #45's
 * "RAIMUNDINHA" at 0.92 and #51's "“GENTIL", each half a line taller than the name's other words, NOME lost
 * and with it the holder's name. Synthetic word lists and a fake recogniser (no recognition).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { SEGMENTATION, type Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import { MAX_TALL_REREADS, rereadTallWords, tallFirstWords } from '../../src/ocr/tall-words.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, x0: number, x1: number, y0: number, y1: number, conf = 0.92): OcrWord => ({ text, conf, x0, y0, x1, y1 });

/** final30 #51's older card: the header, the name's line (its first word over NOME too), the identity line's labels and values. */
const card = (first = w('“GENTIL', 371, 479, 157, 193, 0.61)): OcrWord[] => [
  w('CARTEIRA', 63, 167, 100, 122, 0.9), w('NACIONAL', 180, 281, 100, 122, 0.9), w('DE', 296, 321, 100, 122, 0.9), w('HABILITAÇÃO', 336, 476, 100, 122, 0.9),
  first, w('ODENILDO', 496, 623, 172, 193, 0.87), w('BAENA', 639, 717, 172, 193, 0.91), w('DAIBES', 734, 829, 172, 193, 0.9),
  w('DOC.', 371, 400, 229, 242, 0.95), w('IDENTIDADE', 423, 519, 229, 242, 0.9), w('ÓRG.', 551, 587, 228, 242), w('EMISSOR', 601, 670, 229, 242), w('UF', 701, 719, 229, 241),
  w('1798829', 377, 486, 253, 273, 0.96), w('DETRAN', 503, 597, 253, 273, 0.96), w('AP', 613, 644, 253, 272, 0.96),
  w('CPF', 371, 400, 300, 312, 0.95), w('DATA', 723, 766, 300, 312), w('NASCIMENTO', 771, 884, 300, 312),
];

/** A fake recogniser answering every cut with `answer` (px of the cut: padded by 12). */
function fake(answer: OcrWord[]): Recognizer & { calls: unknown[] } {
  const rec = {
    calls: [] as unknown[],
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
    async words(_img: Buffer, psm?: unknown): Promise<OcrWord[]> { rec.calls.push(psm); return answer; },
  };
  return rec as unknown as Recognizer & { calls: unknown[] };
}

const prep = async (): Promise<PreparedImage> => ({
  png: await sharp({ create: { width: 1264, height: 820, channels: 3, background: '#ffffff' } }).greyscale().png().toBuffer(),
  width: 1264, height: 820, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false },
} as PreparedImage);

describe('a first word that swallowed the label over it (tall-words.ts)', () => {
  it('is found by its rise over its line, whatever its confidence; a word with an accent or a line of one word is not', () => {
    expect(tallFirstWords(card()).map((x) => x.text)).toEqual(['“GENTIL']);
    expect(tallFirstWords(card(w('RAIMUNDINHA', 371, 479, 157, 193, 0.92))).map((x) => x.text)).toEqual(['RAIMUNDINHA']);
    // ÉMERSON's acute lifts its box by a third of a line: not a label.
    expect(tallFirstWords(card(w('ÉMERSON', 371, 479, 165, 193)))).toEqual([]);
    expect(tallFirstWords([w('GENTIL', 371, 479, 157, 193)])).toEqual([]);
  });

  it('is read again as a block: the label and the word take its place, and the holder\'s name is read', async () => {
    const before = extractFields(groupPhrases(card()), '').campos.nome_completo.valor;
    expect(before).toBe('');
    const rec = fake([w('NOME', 12, 60, 12, 25, 0.87), w('GENTIL', 14, 118, 27, 48, 0.96)]);
    const out = await rereadTallWords(rec, await prep(), card());
    expect(rec.calls).toEqual([SEGMENTATION.block]);
    expect(out.map((x) => x.text)).toContain('NOME');
    expect(out.map((x) => x.text)).not.toContain('“GENTIL');
    expect(extractFields(groupPhrases(out), '').campos.nome_completo.valor).toBe('GENTIL ODENILDO BAENA DAIBES');
  });

  it('keeps the first reading\'s mark where the block lost it, and takes no mark read as a letter for a label', async () => {
    const first = w('ÁUREO', 371, 479, 157, 193, 0.92);
    const out = await rereadTallWords(fake([w('NOME', 12, 60, 12, 25, 0.9), w('AUREO', 14, 118, 27, 48, 0.95)]), await prep(), card(first));
    const kept = out.find((x) => /UREO/.test(x.text))!;
    expect(kept.text).toBe('ÁUREO');
    expect(kept.y0).toBe(27 - 12 + 157);
    // A mark over the capital read as "A" or "'" on its own line is no label: the word stays as read.
    const mark = await rereadTallWords(fake([w('A', 12, 30, 12, 20, 0.6), w('AUREO', 14, 118, 27, 48, 0.95)]), await prep(), card(first));
    expect(mark).toEqual(card(first));
  });

  it('stays as read when the block gives one line, or another word under the label', async () => {
    const one = await rereadTallWords(fake([w('GENTIL', 14, 118, 27, 48, 0.96)]), await prep(), card());
    expect(one).toEqual(card());
    const other = await rereadTallWords(fake([w('NOME', 12, 60, 12, 25), w('GERALDO', 14, 118, 27, 48, 0.96)]), await prep(), card());
    expect(other).toEqual(card());
  });

  it('reads at most MAX_TALL_REREADS such words per page', async () => {
    const lines = Array.from({ length: 5 }, (_, i) => [w('GENTIL', 371, 479, 400 + 60 * i, 436 + 60 * i), w('BAENA', 496, 600, 415 + 60 * i, 436 + 60 * i), w('DAIBES', 610, 700, 415 + 60 * i, 436 + 60 * i)]).flat();
    const rec = fake([]);
    await rereadTallWords(rec, await prep(), [...card(), ...lines]);
    expect(rec.calls.length).toBe(MAX_TALL_REREADS);
  });
});
