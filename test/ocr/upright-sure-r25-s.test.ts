/**
 * A page whose first reading found few labels but many sure words is read the right way up: the
 * orientation search (index.ts ORIENTATIONS) is not run (index.ts UPRIGHT_SURE_WORDS; round 25, S).
 */
import { describe, expect, it } from 'vitest';
import { recognizeImage, UPRIGHT_SURE_WORDS } from '../../src/ocr/index.js';
import type { OcrWord } from '../../src/ocr/words.js';
import { orientedFrame } from './oriented-frame.js';

/** `n` value-like words read at 0.9 on rows down the page, and two labels (CPF, VALIDADE) read unsure (0.6): a blurred card whose other labels were lost. */
const upright = (n: number): OcrWord[] => [
  ...[['CPF', 360, 220], ['VALIDADE', 360, 560]].map(([t, x, y]) => ({ text: t as string, conf: 0.6, x0: x as number, y0: y as number, x1: (x as number) + 12 * (t as string).length, y1: (y as number) + 20 })),
  ...Array.from({ length: n }, (_, i) => ({ text: `WORD${i}`, conf: 0.9, x0: 30 + 160 * (i % 5), y0: 40 + 50 * Math.floor(i / 5), x1: 100 + 160 * (i % 5), y1: 60 + 50 * Math.floor(i / 5) })),
];
/** What a (counterfactual) turned reading would give: more labels and more sure words, so that the search, when run, keeps it. */
const TURNED: OcrWord[] = [['NOME', 30, 60], ['CPF', 360, 220], ['DATA NASCIMENTO', 620, 220], ['VALIDADE', 360, 560], ['Nº REGISTRO', 30, 620], ...Array.from({ length: 40 }, (_, i) => [`TURNED${i}`, 30 + 20 * i, 700])]
  .map(([t, x, y]) => ({ text: t as string, conf: 0.95, x0: x as number, y0: y as number, x1: (x as number) + 12 * (t as string).length, y1: (y as number) + 20 }));

/** A frame read upright as `upright(sure)`, turned as TURNED, and as nothing otherwise. */
const frame = (sure: number) => orientedFrame((code) => (code === 0 ? upright(sure) : code === 1 ? TURNED : []));

describe('a page read with many sure words is not read in other orientations (index.ts UPRIGHT_SURE_WORDS)', () => {
  it('reads a page with two labels and UPRIGHT_SURE_WORDS sure words upright only', async () => {
    const f = frame(UPRIGHT_SURE_WORDS);
    const out = await recognizeImage([f.rec], new Uint8Array(8), f.prepare);
    expect(f.calls.some((o) => (o.extraTurnDeg ?? 0) === 180 || o.mirrored)).toBe(false);
    expect(out.words.some((w) => w.text === 'WORD0')).toBe(true);
    expect(out.words.some((w) => w.text === 'TURNED0')).toBe(false);
  });

  it('still searches a page read with fewer sure words, and keeps the turned reading that shows more', async () => {
    const f = frame(UPRIGHT_SURE_WORDS - 1);
    const out = await recognizeImage([f.rec], new Uint8Array(8), f.prepare);
    expect(f.calls.some((o) => (o.extraTurnDeg ?? 0) === 180)).toBe(true);
    expect(out.words.some((w) => w.text === 'TURNED0')).toBe(true);
  });
});
