import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OcrError } from '../../src/ocr/engine.js';
import { FAST_TESSDATA_DIRS, portugueseLangPath, portugueseModel, RecognizerPool, SEGMENTATION } from '../../src/ocr/pool.js';
import { warmupPage } from '../../src/ocr/warmup.js';
import { BORDER_INK_LEVEL, clearBorderInk, columns, toPgm, type GrayImage } from '../../src/ocr/regions.js';

/** A white image with dark rectangles [x0, y0, x1, y1) drawn at `level`. */
function image(width: number, height: number, rects: Array<[number, number, number, number, number?]>): GrayImage {
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, x1, y1, level = 0] of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = level;
  return { data, width, height };
}
const at = (img: GrayImage, x: number, y: number): number => img.data[y * img.width + x];

describe('page image for the recogniser (regions.ts)', () => {
  it('clears a card edge touching the border and everything joined to it, never text apart from it', () => {
    // Card outline: a gray frame on the image's border (anti-aliased edge level, above 128), with a
    // corner tick reaching inwards; "text": a black block and a gray-ish stroke well inside.
    const img = image(200, 100, [
      [0, 0, 200, 2, 140], [0, 98, 200, 100, 140], [0, 0, 2, 100, 140], [198, 0, 200, 100, 140],
      [2, 2, 12, 4, 100],
      [50, 40, 90, 55, 0], [120, 40, 160, 42, 150],
    ]);
    const cleared = clearBorderInk(img);
    expect(cleared).toBe(2 * 200 * 2 + 2 * 96 * 2 + 10 * 2);
    expect(at(img, 0, 0)).toBe(255);
    expect(at(img, 199, 50)).toBe(255);
    expect(at(img, 8, 3)).toBe(255);
    expect(at(img, 60, 45)).toBe(0);
    expect(at(img, 130, 41)).toBe(150);
  });

  it('does not follow pale print (guilloche) above the ink level from the border into text', () => {
    // A pale line from the border to a glyph: it is not ink, so the glyph stays.
    const img = image(100, 50, [[0, 20, 60, 21, BORDER_INK_LEVEL + 40], [60, 15, 70, 30, 0]]);
    expect(clearBorderInk(img)).toBe(0);
    expect(at(img, 65, 20)).toBe(0);
  });

  it('clears black corners left by a rotation (pixels 8-connected diagonally)', () => {
    const img = image(50, 50, [[0, 0, 1, 1], [1, 1, 2, 2], [2, 2, 3, 3], [3, 3, 4, 4]]);
    expect(clearBorderInk(img)).toBe(4);
    expect(at(img, 3, 3)).toBe(255);
  });

  it('handles images thinner than the 2 px border band', () => {
    const img = image(1, 1, [[0, 0, 1, 1]]);
    expect(clearBorderInk(img, BORDER_INK_LEVEL, 1)).toBe(1);
    expect(clearBorderInk(image(3, 1, [[0, 0, 3, 1]]), BORDER_INK_LEVEL, 1)).toBe(3);
  });

  it('leaves the image as it was when the fill would whiten more than MAX_BORDER_INK_SHARE (dark light falloff, not edges)', () => {
    // A dark vignette band 15 px deep along the left border, text touching it: the fill would take 15%.
    const img = image(100, 100, [[0, 0, 15, 100, 120], [15, 40, 40, 50, 0]]);
    const copy = new Uint8Array(img.data);
    expect(clearBorderInk(img)).toBe(-1);
    expect(img.data).toEqual(copy);
    // A thin edge (2 px, 4% of the page) is still cleared.
    const edge = image(100, 100, [[0, 0, 2, 100, 120], [15, 40, 40, 50, 0]]);
    expect(clearBorderInk(edge)).toBe(200);
    expect(at(edge, 20, 45)).toBe(0);
  });

  it('cuts columns and encodes binary PGM with the pixels unchanged', () => {
    const img = image(6, 2, [[3, 0, 6, 2, 7]]);
    const right = columns(img, 3, 6);
    expect(right).toEqual({ width: 3, height: 2, data: new Uint8Array([7, 7, 7, 7, 7, 7]) });
    expect(columns(img, 4, 99).width).toBe(2);
    const pgm = toPgm(right);
    expect(pgm.subarray(0, 11).toString('latin1')).toBe('P5\n3 2\n255\n');
    expect([...pgm.subarray(11)]).toEqual([7, 7, 7, 7, 7, 7]);
  });
});

describe('recognition model (pool.ts portugueseModel)', () => {
  const fastInstalled = FAST_TESSDATA_DIRS.some((d) => existsSync(path.join(d, 'por.traineddata')));

  it('npm: the package model, read at 0.7 x width', () => {
    const m = portugueseModel('npm');
    expect(m).toEqual({ id: 'npm', langPath: portugueseLangPath(), gzip: true, pageSqueeze: 0.7 });
    expect(existsSync(path.join(m.langPath, 'por.traineddata.gz'))).toBe(true);
  });

  it("default: the npm package's model whatever the machine has installed; 'fast' only when asked", () => {
    expect(portugueseModel().id).toBe('npm');
    if (fastInstalled) expect(portugueseModel('fast')).toMatchObject({ id: 'fast', gzip: false, pageSqueeze: 1 });
    else expect(() => portugueseModel('fast')).toThrow(OcrError);
  });
});

describe('warm-up page (warmup.ts)', () => {
  it('is text the recogniser reads (so it warms the code documents use), drawn without fonts', async () => {
    const page = warmupPage();
    expect(page.data.length).toBe(page.width * page.height);
    expect(page.data.some((v) => v === 0)).toBe(true);
    const pool = await RecognizerPool.start(1, 0);
    try {
      const words = await pool.run(([rec]) => rec.words(toPgm(page), SEGMENTATION.sparse));
      const texts = words.map((w) => w.text);
      for (const w of ['HELLO', 'TITLE', 'HOTEL', '1717']) expect(texts).toContain(w);
    } finally {
      await pool.close();
    }
  });
});
