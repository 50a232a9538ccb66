import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_LONE_LETTER_REREADS, rereadLoneLetters } from '../../src/ocr/index.js';
import type { Recognizer } from '../../src/ocr/pool.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';
import type { OcrWord } from '../../src/ocr/words.js';

/** A recogniser that counts its calls and reads every cut as the letter F at confidence 0.95. */
function countingRecognizer(): Recognizer & { calls: number } {
  const rec = {
    calls: 0,
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 0.7 },
    async words(): Promise<OcrWord[]> {
      rec.calls++;
      return [{ text: 'F', conf: 0.95, x0: 0, y0: 0, x1: 10, y1: 20 }];
    },
  };
  return rec as Recognizer & { calls: number };
}

async function page(width: number, height: number): Promise<PreparedImage> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).greyscale().png().toBuffer();
  return { png, width, height, quality: {} as PreparedImage['quality'], rotationDeg: 0, light: { unevenness: 0, flattened: false } };
}

/** `n` lone capitals far apart on separate rows (one phrase each), confidences 0.10, 0.11, ... */
function loneLetters(n: number): OcrWord[] {
  return Array.from({ length: n }, (_, i) => ({ text: 'E', conf: 0.1 + i * 0.01, x0: 40 + (i % 4) * 200, y0: 40 + Math.floor(i / 4) * 60, x1: 54, y1: 62 }))
    .map((w) => ({ ...w, x1: w.x0 + 14, y1: w.y0 + 22 }));
}

describe('lone letters re-read as single words (index.ts rereadLoneLetters)', () => {
  it('re-reads a lone letter under 0.9 and keeps the more confident reading in the same box', async () => {
    const rec = countingRecognizer();
    const [w] = loneLetters(1);
    const out = await rereadLoneLetters(rec, await page(900, 200), [w]);
    expect(rec.calls).toBe(1);
    expect(out).toEqual([{ ...w, text: 'F', conf: 0.95 }]);
  });

  it(`a page full of lone letters costs at most ${MAX_LONE_LETTER_REREADS} recognitions, the least confident first`, async () => {
    const rec = countingRecognizer();
    const words = loneLetters(40);
    const out = await rereadLoneLetters(rec, await page(900, 700), words);
    expect(rec.calls).toBe(MAX_LONE_LETTER_REREADS);
    // Confidences rise with the index: the first MAX_LONE_LETTER_REREADS are the ones re-read.
    expect(out.map((w) => w.text)).toEqual(words.map((_, i) => (i < MAX_LONE_LETTER_REREADS ? 'F' : 'E')));
  });
});
