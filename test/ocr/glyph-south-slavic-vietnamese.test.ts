/**
 * Marks on another letter's body or under it (issue #17, twenty-second round): final20's Croatian,
 * Serbian and Vietnamese names read sure and wrong. Ć read "É" (JOVANOVIĆ "JOVANOVIÉ" 0.853: the acute
 * seen, the C under it taken for an E; glyph-foreign.ts cBody), Đ written as the Icelandic Ð (glyph-own.ts
 * strokedD), the dot below read as an ogonek or lost (PHẠM "PHAM", MẠC; glyph-below.ts dot), the horn lost
 * (TRƯƠNG "TRUONG"; glyph-horn.ts hornOnTop, hornPair). Words drawn in the cards' fonts at a value size,
 * clean and worn, read with the recogniser's letters: the letter is written (at most INK_LETTER_CAP) or
 * the word is left as read, never another letter; Portuguese words are left as read and as sure.
 */
import { describe, expect, it } from 'vitest';
import { CARD_FACES, drawn, mendedReadings } from './drawn-word.js';
import { INK_LETTER_CAP } from '../../src/ocr/glyph-accent.js';
import { mendInkMarks } from '../../src/ocr/glyph-below.js';
import { cBody } from '../../src/ocr/glyph-foreign.js';
import { wordGlyphs, type Blob } from '../../src/ocr/glyph-i.js';
import { inkLettersLost, letterSpans, meanSpans } from '../../src/ocr/glyph-marks.js';
import { hornPair } from '../../src/ocr/glyph-horn.js';
import { strokedD } from '../../src/ocr/glyph-own.js';

const FONTS = CARD_FACES;

/** What mendInkMarks makes of `truth` drawn at `size` px in each face and wear, read as `read` at 0.9. */
const readings = (truth: string, read: string, size = 28): ReturnType<typeof mendedReadings> => mendedReadings(mendInkMarks, truth, read, size);

/** Every reading is the truth (at most INK_LETTER_CAP) or `read` as read; at least `least` are the truth. */
function writtenOrAsRead(rs: Array<{ text: string; conf: number; at: string }>, truth: string, read: string, least: number): void {
  for (const r of rs) {
    if (r.text === truth) expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
    else expect([read], `${r.at}: ${r.text}`).toContain(r.text);
  }
  expect(rs.filter((r) => r.text === truth).length).toBeGreaterThanOrEqual(least);
}

describe('marks on another letter\'s body or under it (final20)', () => {
  it('tells a C from an E by its body: no middle arm, a round side', async () => {
    for (const [font, bold] of FONTS) {
      const d = await drawn('HCHEH', font, 28, bold);
      const gl = wordGlyphs(d.g, d.box);
      expect(gl).toHaveLength(5);
      expect([cBody(d.g, gl[1]), cBody(d.g, gl[3])], font).toEqual([true, false]);
    }
  });

  it('writes Ć where the acute stands over a C read "É"', async () => {
    writtenOrAsRead(await readings('JOVANOVIĆ', 'JOVANOVIÉ'), 'JOVANOVIĆ', 'JOVANOVIÉ', 10);
    writtenOrAsRead(await readings('RADIĆ', 'RADIÉ'), 'RADIĆ', 'RADIÉ', 11);
    // Type of 22 px (capitals 15-16 px): written or the word doubted, never sure.
    for (const r of await readings('RADIĆ', 'RADIÉ', 22)) {
      expect(['RADIĆ', 'RADIÉ'], r.at).toContain(r.text);
      expect(r.conf, r.at).toBeLessThanOrEqual(INK_LETTER_CAP);
    }
  });

  it('leaves É, Ê, È over an E as read and as sure', async () => {
    for (const word of ['JOSÉ', 'ANDRÉ', 'LAÉRCIO', 'ESTÊVÃO', 'MARIÈME', 'CLÉA']) {
      for (const size of [22, 28]) for (const r of await readings(word, word, size)) expect([r.text, r.conf], r.at).toEqual([word, 0.9]);
    }
  });

  it('writes Đ, not the Icelandic Ð, in a word that starts with it or holds letters Icelandic lacks', async () => {
    expect(strokedD('ÐINH')).toBe('ĐINH');
    expect(strokedD('DURÐEVIĆ')).toBe('DURĐEVIĆ');
    expect(strokedD('ÐĂNG')).toBe('ĐĂNG');
    expect(strokedD('SIGURÐUR')).toBe('SIGURÐUR');
    expect(strokedD('GUÐRÚN')).toBe('GUÐRÚN');
    expect(strokedD('ÞÓRÐUR')).toBe('ÞÓRÐUR');
    writtenOrAsRead(await readings('ĐINH', 'DINH'), 'ĐINH', 'DINH', 7);
    writtenOrAsRead(await readings('SIGURÐUR', 'SIGURDUR'), 'SIGURÐUR', 'SIGURDUR', 7);
  });

  it('writes the dot below a vowel read plain or with the mark it stacks under, and keeps an ogonek', async () => {
    writtenOrAsRead(await readings('PHẠM', 'PHAM'), 'PHẠM', 'PHAM', 10);
    writtenOrAsRead(await readings('TRIỆU', 'TRIÊU'), 'TRIỆU', 'TRIÊU', 8);
    writtenOrAsRead(await readings('ĄŽUOLAS', 'AŽUOLAS'), 'ĄŽUOLAS', 'AŽUOLAS', 10);
  });

  it('writes the horn over a U and the O after it', async () => {
    expect(hornPair('TRƯONG')).toBe('TRƯƠNG');
    expect(hornPair('PHƯÓC')).toBe('PHƯỚC');
    expect(hornPair('TRUONG')).toBe('TRUONG');
    const rs = await readings('TRƯƠNG', 'TRUONG');
    for (const r of rs) if (r.text !== 'TRUONG') expect([r.text, r.conf <= INK_LETTER_CAP], r.at).toEqual([expect.stringMatching(/^TR[UƯ][OƠ]NG$/), true]);
    expect(rs.filter((r) => r.text === 'TRƯƠNG').length).toBeGreaterThanOrEqual(4);
  });

  it('writes a tone mark stacked on a roof or a breve, or doubts the word; never another tone', async () => {
    for (const [truth, read, least] of [['TRẦN', 'TRÂN', 4], ['YẾN', 'YÊN', 4], ['THẮNG', 'THĂNG', 5]] as const) {
      const rs = await readings(truth, read);
      for (const r of rs) expect([truth, read], r.at).toContain(r.text);
      expect(rs.filter((r) => r.text === truth).length).toBeGreaterThanOrEqual(least);
      for (const r of rs) if (r.text === truth) expect(r.conf).toBeLessThanOrEqual(INK_LETTER_CAP);
    }
  });

  it('leaves Portuguese words with U and O as read and as sure', async () => {
    for (const word of ['LOURDES', 'ÚRSULA', 'SOUZA', 'ROBERTO', 'JOÃO', 'CONCEIÇÃO', 'GONÇALVES', 'OTÁVIO', 'GUSTAVO', 'DUO']) {
      for (const size of [20, 24, 28]) for (const r of await readings(word, word, size)) expect([r.text, r.conf], r.at).toEqual([word, 0.9]);
    }
  });

  it('places letters where most capitals run together by the mean letter width (meanSpans)', () => {
    // final20 #78's PHẠM in DejaVu Serif: P alone (15 px), HAM one blob (66 px).
    const blob = (x0: number, w: number): Blob => ({ x0, x1: x0 + w - 1, y0: 0, y1: 19, px: [] });
    const glyphs = [blob(583, 15), blob(601, 66)];
    expect(letterSpans(glyphs, 4)).toBeUndefined();
    const spans = meanSpans(glyphs, 4)!;
    expect(spans.map((s) => [s.glyph, s.whole])).toEqual([[0, true], [1, false], [1, false], [1, false]]);
    expect(meanSpans([blob(0, 10), blob(12, 10), blob(24, 45)], 4)).toBeUndefined();
  });

  it('keeps a re-reading that lost the letters the ink wrote under INK_LETTER_CAP', () => {
    const reread = [{ text: 'DURBDEVIÉ', conf: 0.82 }, { text: 'SARIÉ', conf: 0.9 }];
    expect(inkLettersLost('ĐURDEVIĆ ŠARIĆ', reread).map((w) => w.conf)).toEqual([INK_LETTER_CAP, INK_LETTER_CAP]);
    expect(inkLettersLost('DURDEVIÉ SARIÉ', reread)).toEqual(reread);
    expect(inkLettersLost('ĐURDEVIĆ ŠARIĆ', [{ text: 'ĐURĐEVIĆ', conf: 0.6 }, { text: 'SARIÉ', conf: 0.9 }])[1].conf).toBe(0.9);
  });
});
