/**
 * A mark the reading dropped on small type (twenty-fourth round, glyph-foreign.ts foreignReading on small type): on capitals
 * 13-17 px the ink readers write only a few letters, and a mark the recogniser left out over a letter it
 * read plain (final22 #24's NHAMUNDÁ read "NHAMUNDA," at 0.922, #36's AKÍNDÉLÉ read "AKINDÉLÉ"; Welsh Ŵ Ŷ)
 * was left sure. Drawn in the cards' faces, clean and worn, at 20 and 22 px (capitals 14-16 px): the word
 * is kept as read and doubted (at most INK_LETTER_CAP) in most drawings; Portuguese words whose marks were
 * all read stay as read and sure.
 */
import { describe, expect, it } from 'vitest';
import { mendedReadings } from './drawn-word.js';
import { INK_LETTER_CAP } from '../../src/ocr/glyph-accent.js';
import { mendInkMarks } from '../../src/ocr/glyph-below.js';

const readings = (truth: string, read: string, size: number): ReturnType<typeof mendedReadings> =>
  mendedReadings((g, w) => mendInkMarks(g, w), truth, read, size);

describe('a mark dropped on small type doubts its word (glyph-foreign.ts foreignReading, small type)', () => {
  it('doubts words whose acute or roof over a letter read plain was dropped, never writing another letter', async () => {
    for (const [truth, read] of [['NHAMUNDÁ', 'NHAMUNDA'], ['AKÍNDÉLÉ', 'AKINDÉLÉ'], ['GLYNDŴR', 'GLYNDWR'], ['LLŶR', 'LLYR']]) {
      for (const size of [20, 22]) {
        const got = await readings(truth, read, size);
        for (const r of got) expect(r.text, `${truth} ${r.at}`).toBe(read);
        expect(got.filter((r) => r.conf <= INK_LETTER_CAP).length, `${truth} ${size}`).toBeGreaterThanOrEqual(got.length / 2 + 1);
      }
    }
  });

  it('leaves Portuguese words read with all their marks as read and sure on small type', async () => {
    for (const word of ['HELENA', 'MARIA', 'GONÇALVES', 'CECÍLIA', 'JOSÉ', 'ANTÔNIO', 'CONCEIÇÃO', 'LUÍS', 'INÁCIO', 'ISIDORO', 'FILIPE']) {
      for (const size of [18, 20, 22]) {
        for (const r of await readings(word, word, size)) expect(`${r.text} ${r.conf}`, `${word} ${r.at}`).toBe(`${word} 0.9`);
      }
    }
  });
});
