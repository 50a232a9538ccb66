import { describe, expect, it } from 'vitest';
import { labelWithoutUnsureLead } from '../../src/ocr/label-edge.js';
import { valueBelow } from '../../src/ocr/value-place.js';
import { toPhrase, type OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf, x0, y0, x1, y1 });

// final26 #10's second reading (a photocopied card, drum ghost and smudged lens): the identity label with a
// speck read "e" at 0.27 and the field number "4c" at 0.26 in front of it, and its value line.
const labelWords = [
  w('e', 0.27, 292.9, 381, 314.3, 400), w('4c', 0.26, 354.3, 377, 374.3, 391), w('DOC.', 0.74, 380, 377, 424.3, 391),
  w('IDENTIDADE', 0.92, 430, 377, 540, 391), w('/', 0.83, 545.7, 377, 551.4, 392), w('ÓRG.', 0.83, 555.7, 374, 601.4, 392),
  w('EMISSOR', 0.95, 607.1, 377, 690, 391), w('|', 0.61, 697.1, 377, 701.4, 391), w('UF', 0.85, 712.9, 377, 730, 391),
];
const valueWords = [w('038509726', 0.93, 361.4, 406, 505.7, 428), w('SSP', 0.92, 514.3, 406, 571.4, 428), w('MS', 0.96, 580, 406, 621.4, 428)];

describe('label-edge: a label\'s left edge without the unsure marks read in front of it', () => {
  it('drops leading words read under 0.5, keeps the rest', () => {
    const core = labelWithoutUnsureLead(toPhrase(labelWords));
    expect(core?.words.map((x) => x.text)).toEqual(['DOC.', 'IDENTIDADE', '/', 'ÓRG.', 'EMISSOR', '|', 'UF']);
    expect(core?.x0).toBe(380);
  });
  it('gives undefined when nothing leads unsure, or when every word is unsure', () => {
    expect(labelWithoutUnsureLead(toPhrase(labelWords.slice(2)))).toBeUndefined();
    expect(labelWithoutUnsureLead(toPhrase(labelWords.slice(0, 2)))).toBeUndefined();
  });
  it('valueBelow finds the identity line under the label\'s own words (final26 #10: none before)', () => {
    const label = toPhrase(labelWords);
    const value = toPhrase(valueWords);
    const got = valueBelow({ id: 'identidade', phrase: label }, [label, value], new Set([label]), 1, 14);
    expect(got.map((p) => p.text)).toEqual(['038509726 SSP MS']);
  });
  it('leaves a value found under the whole phrase as it was', () => {
    const label = toPhrase(labelWords);
    const near = toPhrase([w('12345678', 0.9, 300, 406, 420, 428)]);
    const got = valueBelow({ id: 'identidade', phrase: label }, [label, near], new Set([label]), 1, 14);
    expect(got.map((p) => p.text)).toEqual(['12345678']);
  });
  it('finds nothing where nothing lies under the label either way', () => {
    const label = toPhrase(labelWords);
    const far = toPhrase([w('038509726', 0.93, 900, 406, 1040, 428)]);
    expect(valueBelow({ id: 'identidade', phrase: label }, [label, far], new Set([label]), 1, 14)).toEqual([]);
  });
});
