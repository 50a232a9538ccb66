/**
 * Issue #17, ninth round: a second reading's word that is a first reading's word with its first letter
 * or two lost (final6 #78: HORÁCIO read "ORÁCIO" at 0.92 in the second reading) is mended from the
 * first reading (index.ts mendCutWords), at the lower of the two confidences.
 */
import { describe, expect, it } from 'vitest';
import { mendCutWords } from '../../src/ocr/second-read.js';
import type { OcrWord } from '../../src/ocr/words.js';

const w = (text: string, conf: number, x0: number, x1: number, y0 = 160, y1 = 187): OcrWord => ({ text, conf, x0, y0, x1, y1 });

describe('mendCutWords (index.ts)', () => {
  it('takes the first reading\'s word whose box starts further left and ends where the cut word ends', () => {
    const first = [w('HORÁCIO', 0.64, 322, 474), w('FARIA', 0.96, 537, 621)];
    const second = [w('ORÁCIO', 0.92, 360, 475), w('FARIA', 0.96, 537, 622)];
    const out = mendCutWords(second, first);
    expect(out[0]).toMatchObject({ text: 'HORÁCIO', conf: 0.64, x0: 322 });
    expect(out[1]).toBe(second[1]);
  });

  it('leaves words that are not the same word cut at its start', () => {
    const first = [w('HORÁCIO', 0.64, 322, 474)];
    // Same text: nothing lost.
    expect(mendCutWords([w('HORÁCIO', 0.9, 322, 474)], first)[0].text).toBe('HORÁCIO');
    // Another line.
    expect(mendCutWords([w('ORÁCIO', 0.92, 360, 475, 260, 287)], first)[0].text).toBe('ORÁCIO');
    // Ends elsewhere (another word).
    expect(mendCutWords([w('ORÁCIO', 0.92, 360, 520)], first)[0].text).toBe('ORÁCIO');
    // The second box starts where the first does: the first reading added a letter, not the second lost one.
    expect(mendCutWords([w('ORÁCIO', 0.92, 325, 475)], first)[0].text).toBe('ORÁCIO');
    // More than two letters apart, or what differs is not a letter.
    expect(mendCutWords([w('CIO', 0.92, 420, 475)], first)[0].text).toBe('CIO');
    expect(mendCutWords([w('1995', 0.92, 360, 475)], [w('11/1995', 0.5, 322, 474)])[0].text).toBe('1995');
  });

  it('leaves the word when the second reading read the lost letters as a word of their own', () => {
    const first = [w('HORÁCIO', 0.64, 322, 474)];
    const second = [w('H', 0.4, 322, 350), w('ORÁCIO', 0.92, 360, 475)];
    expect(mendCutWords(second, first)[1].text).toBe('ORÁCIO');
    // A box far taller than the line there (noise over the label above and the letter) does not count.
    expect(mendCutWords([w('Ju', 0.67, 315, 368, 131, 198), w('ORÁCIO', 0.92, 360, 475)], first)[1].text).toBe('HORÁCIO');
  });
});
