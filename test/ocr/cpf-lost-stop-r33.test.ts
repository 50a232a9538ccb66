/**
 * A CPF whose label went unread and one of whose stops was lost (fallbacks.ts CPF_SHAPE, unsureCpf): final30
 * #82, a screenshot, "925512.722-54" at 0.82. Taken with its check digits passed, under the low-confidence
 * line; eleven digits in a row (the registration number's shape) are not.
 */
import { describe, expect, it } from 'vitest';
import { unsureCpf, UNSURE_CPF_CONF } from '../../src/ocr/fallbacks.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

const word = (text: string): OcrWord => ({ text, conf: 0.82, x0: 263, y0: 570, x1: 429, y1: 602 });

describe('a CPF read with a stop lost', () => {
  it('is taken, unsure, when its check digits pass', () => {
    expect(unsureCpf(groupPhrases([word('925512.722-54')]))).toEqual({ valor: '925.512.722-54', conf: UNSURE_CPF_CONF });
    expect(unsureCpf(groupPhrases([word('925.512722-54')]))).toEqual({ valor: '925.512.722-54', conf: UNSURE_CPF_CONF });
  });

  it('is not taken with a check digit wrong, or with both stops lost', () => {
    expect(unsureCpf(groupPhrases([word('925512.722-55')]))).toBeUndefined();
    expect(unsureCpf(groupPhrases([word('925512722-54')]))).toBeUndefined();
    expect(unsureCpf(groupPhrases([word('92551272254')]))).toBeUndefined();
  });
});
