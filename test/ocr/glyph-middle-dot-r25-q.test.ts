/**
 * Catalan's middle dot read from its ink (twenty-fifth round, glyph-middle-dot.ts mendMiddleDots): the ela
 * geminada's dot read as a hyphen ("PETRONEL-LA" at 0.904, final23 #44) is written "·" under the
 * low-confidence line; a real hyphen (ANA-LÚCIA, JEAN-PAUL, MIGUEL-LUIS) and a real word gap between two L's
 * keep their reading and their confidence. Drawn in the cards' seven faces, clean, blurred 0.8 px at JPEG
 * 40 and 1.2 px at JPEG 60, at 20, 24 and 28 px.
 */
import { describe, expect, it } from 'vitest';
import { CARD_FACES, drawn, worn } from './drawn-word.js';
import { INK_LETTER_CAP } from '../../src/ocr/glyph-accent.js';
import { wordGlyphs } from '../../src/ocr/glyph-i.js';
import { MIDDLE_DOT, mendMiddleDots } from '../../src/ocr/glyph-middle-dot.js';
import type { OcrWord } from '../../src/ocr/words.js';

const WEARS = [[0, 90], [0.8, 40], [1.2, 60]] as const;

/** What mendMiddleDots makes of `truth` drawn in every face and wear at `size` px, read as `read` (one word, or two split at a space) at 0.9. */
async function mended(truth: string, read: string, size: number): Promise<string[]> {
  const out: string[] = [];
  for (const [font, bold] of CARD_FACES) for (const [sigma, quality] of WEARS) {
    const d = await drawn(truth, font, size, bold);
    const g = await worn(d.g, sigma, quality);
    let words: OcrWord[] = [{ text: read, conf: 0.9, ...d.box }];
    if (read.includes(' ')) {
      const [a, b] = read.split(' ');
      const gl = wordGlyphs(g, d.box);
      if (gl.length < a.length + 1) continue;
      words = [{ text: a, conf: 0.9, ...d.box, x1: gl[a.length - 1].x1 + 1 }, { text: b, conf: 0.9, ...d.box, x0: gl[gl.length - b.length].x0 - 1 }];
    }
    out.push(mendMiddleDots(g, words).map((w) => `${w.text}@${w.conf}`).join(' '));
  }
  return out;
}

describe('the middle dot told from a hyphen and a gap by its ink (glyph-middle-dot.ts)', () => {
  it('writes L·L for a dot read as a hyphen in most drawings, never sure', async () => {
    for (const [truth, read] of [['PETRONEL·LA', 'PETRONEL-LA'], ['ESTEL·LA', 'ESTEL-LA']]) {
      for (const size of [20, 24, 28]) {
        const got = await mended(truth, read, size);
        expect(got.filter((r) => r === `${truth}@${INK_LETTER_CAP}`).length, `${truth} ${size}`).toBeGreaterThanOrEqual(got.length * 0.75);
        for (const r of got) expect([`${truth}@${INK_LETTER_CAP}`, `${read}@0.9`]).toContain(r);
      }
    }
  });

  it('joins two words split at a dot between two L\'s in some drawings, never sure', async () => {
    const got = (await mended('MARCEL·LA', 'MARCEL LA', 28));
    expect(got.filter((r) => r === `MARCEL${MIDDLE_DOT}LA@${INK_LETTER_CAP}`).length).toBeGreaterThanOrEqual(5);
    for (const r of got) expect([`MARCEL${MIDDLE_DOT}LA@${INK_LETTER_CAP}`, 'MARCEL@0.9 LA@0.9']).toContain(r);
  });

  it('leaves real hyphens and word gaps as read and sure', async () => {
    for (const word of ['ANA-LÚCIA', 'JEAN-PAUL', 'MIGUEL-LUIS', 'PAUL-LUC', 'MARCEL LA', 'ISABEL LIMA']) {
      for (const size of [20, 24, 28]) {
        const sure = word.split(' ').map((w) => `${w}@0.9`).join(' ');
        for (const r of await mended(word, word, size)) expect(r, `${word} ${size}`).toBe(sure);
      }
    }
  });
});

describe('a middle dot the ink wrote is not lost to a reading with a hyphen or a gap (glyph-marks.ts inkMarksOnly)', () => {
  it('takes a hyphen or a space between two L\'s as the dot\'s plain twin, nothing else', async () => {
    const { inkMarksOnly, inkLettersLost } = await import('../../src/ocr/glyph-marks.js');
    expect(inkMarksOnly('AMAIA PETRONEL·LA AGIRRE', 'AMAIA PETRONEL-LA AGIRRE')).toBe(true);
    expect(inkMarksOnly('MARCEL·LA COROMINES', 'MARCEL LA COROMINES')).toBe(true);
    expect(inkMarksOnly('PETRONEL-LA', 'PETRONEL·LA')).toBe(false);
    expect(inkMarksOnly('ANA·LUCIA', 'ANA-LUCIA')).toBe(false);
    expect(inkMarksOnly('ANA-LÚCIA', 'ANA LÚCIA')).toBe(false);
    expect(inkLettersLost('ESTEL·LA', [{ text: 'ESTEL-LA', conf: 0.9 }])[0].conf).toBe(INK_LETTER_CAP);
  });
});
