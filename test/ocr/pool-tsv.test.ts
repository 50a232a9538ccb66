import { describe, expect, it } from 'vitest';
import { wordsOfTsv } from '../../src/ocr/pool.js';

// Rows as tesseract's TSV renderer writes them: level, page, block, paragraph, line, word, left, top,
// width, height, conf, text.
const TSV = [
  '1\t1\t0\t0\t0\t0\t0\t0\t907\t820\t-1\t',
  '2\t1\t1\t0\t0\t0\t16\t37\t250\t17\t-1\t',
  '4\t1\t1\t1\t1\t0\t16\t37\t250\t17\t-1\t',
  '5\t1\t1\t1\t1\t1\t16\t37\t78\t17\t96.792175\tREPÚBLICA',
  '5\t1\t1\t1\t1\t2\t100\t40\t85\t14\t3.5\tFEDERATIVA',
  '5\t1\t1\t1\t1\t3\t191\t40\t19\t14\t91.2\t ',
  '5\t1\t2\t1\t1\t1\t5\t300\t40\t30\t100\t"AB"',
  '',
].join('\n');

describe('wordsOfTsv', () => {
  it('keeps word rows in order, boxes as x0/y0/x1/y1 px, confidence truncated to whole percent as 0..1, blank words dropped', () => {
    expect(wordsOfTsv(TSV)).toEqual([
      { text: 'REPÚBLICA', conf: 0.96, x0: 16, y0: 37, x1: 94, y1: 54 },
      { text: 'FEDERATIVA', conf: 0.03, x0: 100, y0: 40, x1: 185, y1: 54 },
      { text: '"AB"', conf: 1, x0: 5, y0: 300, x1: 45, y1: 330 },
    ]);
  });

  it('reads nothing from an empty or wordless output', () => {
    expect(wordsOfTsv('')).toEqual([]);
    expect(wordsOfTsv('1\t1\t0\t0\t0\t0\t0\t0\t10\t10\t-1\t\n')).toEqual([]);
  });
});
