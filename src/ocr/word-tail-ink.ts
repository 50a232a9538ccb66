/**
 * A word boxed short of its ink (issue #17, twenty-eighth round): the recogniser read the first letters of
 * a word and left the rest of its print unboxed, sure of what it kept (final27 #7: KOWALCZYK read "KO!"
 * at 0.74, boxed 29 px, its WALCZYK printed on after the box with no word over it; the mother's name
 * "... SALDANHA KOI" at 0.822). inkPastWord looks at the page's gray levels just right of a word of
 * capitals and finds letters continuing at the word's height, closer than a space, that no other word
 * boxes. Pure functions on a gray page.
 */
import { INK_LETTER_CAP } from './glyph-accent.js';
import { otsu, type Gray } from './glyph-i.js';
import type { OcrWord } from './words.js';

/** Ink that starts within this share of the word's height after its box continues the word (a space is wider). */
export const TAIL_GAP = 0.3;
/** ...and runs on with gaps under this share of it (a monospaced face's L leaves 0.5 of the height clear after it). */
export const RUN_GAP = 0.6;
/** The unboxed ink must run on (gaps under RUN_GAP) at least this many word heights: letters, not a speck. */
export const TAIL_RUN = 1.5;

/**
 * Whether ink (at or under the Otsu level of the word's box and its run) in the middle half of `w`'s rows starts
 * within TAIL_GAP of its height after its right edge and runs on, each gap under RUN_GAP, for TAIL_RUN
 * heights or more, where no word of `words` (other than `w`) boxes any of it. `w` must be a word of
 * capitals (two letters or more, "!" allowed); false otherwise and at the page's edge.
 */
export function inkPastWord(g: Gray, w: OcrWord, words: OcrWord[]): boolean {
  if (!/^[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ!]+,?$/.test(w.text)) return false;
  const h = w.y1 - w.y0;
  const x0 = Math.ceil(w.x1) + 1, x1 = Math.floor(w.x1 + TAIL_RUN * h + RUN_GAP * h) + 1;
  const y0 = Math.round(w.y0 + 0.25 * h), y1 = Math.round(w.y1 - 0.25 * h);
  if (h < 8 || x1 >= g.width || y1 - y0 < 2 || w.y0 < 0) return false;
  if (words.some((o) => o !== w && o.x1 > x0 && o.x0 < x1 && o.y1 > y0 && o.y0 < y1)) return false;
  const t = otsu(g, Math.max(0, Math.floor(w.x0)), Math.floor(w.y0), x1, Math.ceil(w.y1));
  const inked = (x: number): boolean => {
    for (let y = y0; y <= y1; y++) if (g.data[y * g.width + x] <= t) return true;
    return false;
  };
  let last = x0 - 1;
  for (let x = x0; x <= x1; x++) {
    if (inked(x)) last = x;
    else if (x - last > (last < x0 ? TAIL_GAP : RUN_GAP) * h) return false;
    if (x - x0 >= TAIL_RUN * h) return true;
  }
  return false;
}

/**
 * Words (among those `judged` accepts) whose print runs on past their box (inkPastWord), their confidence
 * kept at most INK_LETTER_CAP; every other word as it was. Nothing is read again.
 */
export function mendShortWords(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => (judged(w) && w.conf > INK_LETTER_CAP && inkPastWord(g, w, words) ? { ...w, conf: INK_LETTER_CAP } : w));
}
