/**
 * A mark over a vowel too faint for the threshold (issue #17, twenty-eighth round). glyph-accent.ts and
 * glyph-foreign.ts judge the blobs above a word's capitals that its own Otsu split leaves (markInk); a
 * small acute on a squeezed page (perspective, 14 px capitals) is two or three gray pixels 60-80 levels
 * under the paper and no blob: final27 #4's MARCÍLIO read "MARCILIO" at 0.92, the value at 0.836, with a
 * 2 x 2 px stroke 3 px over its I and nothing else over the word. This looks at the gray levels of the
 * band where a mark stands (faintMarkAbove) over each plain vowel of a word of plain capitals whose
 * markInk found no blob, and doubts the word where one vowel, and only its columns, hold such ink: the
 * mark's class is not told by so few pixels, so no letter is written. Pure functions on a gray page.
 */
import { INK_LETTER_CAP, markInk } from './glyph-accent.js';
import { letterSpans } from './glyph-marks.js';
import type { Gray } from './glyph-i.js';
import type { OcrWord } from './words.js';

/** The band looked at: from this share of the capitals' height above their top... */
export const BAND_REACH = 0.45;
/** ...down to this many px above it (the top row of a capital leans a pixel on a tilted page). */
export const BAND_FOOT = 2;
/** A pixel this many gray levels under the band's paper (its 90th percentile) is a mark's... */
export const FAINT_INK = 40;
/** ...and the band away from the vowel's columns must stay within this many levels of the paper. */
export const CLEAN_BAND = 20;
/** At least this many such pixels over the vowel (a speck of JPEG noise is one). */
const MIN_PIXELS = 3;
/** The vowels a Portuguese name carries an acute, grave or circumflex on. */
const VOWEL = /[AEIOU]/;

/**
 * Whether the gray band over a word's capitals (from BAND_REACH of their height above their median top
 * down to BAND_FOOT px above it) holds, over exactly one plain vowel's columns (its glyph, 1 px either
 * side), MIN_PIXELS or more pixels FAINT_INK levels under the band's paper, while every column of the
 * band outside that vowel's stays within CLEAN_BAND of it: a mark the threshold lost, over that vowel.
 * `w` must be read in plain capitals A-Z (three or more) whose glyphs pair one to one with its letters
 * (glyph-marks.ts letterSpans), with no blob above them (glyph-accent.ts markInk: those are the other
 * modules'); false otherwise. Returns the vowel's index, or -1.
 */
export function faintMarkAbove(g: Gray, w: OcrWord): number {
  const text = w.text.replace(/,$/, '');
  if (!/^[A-Z]{3,}$/.test(text)) return -1;
  const ink = markInk(g, w);
  if (!ink || ink.marks.length) return -1;
  const spans = letterSpans(ink.glyphs, text.length);
  if (!spans || spans.some((s) => !s.whole)) return -1;
  const y0 = Math.max(0, Math.round(ink.top - BAND_REACH * ink.letterH)), y1 = ink.top - BAND_FOOT;
  const x0 = Math.max(0, spans[0].x0 - 1), x1 = Math.min(g.width - 1, spans[spans.length - 1].x1 + 1);
  if (y1 - y0 < 2) return -1;
  const levels: number[] = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) levels.push(g.data[y * g.width + x]);
  levels.sort((a, b) => a - b);
  const paper = levels[Math.floor(0.9 * (levels.length - 1))];
  // Each column's darkest level under the paper.
  const dark = (x: number): number => {
    let m = 0;
    for (let y = y0; y <= y1; y++) m = Math.max(m, paper - g.data[y * g.width + x]);
    return m;
  };
  const count = (a: number, b: number): number => {
    let n = 0;
    for (let y = y0; y <= y1; y++) for (let x = a; x <= b; x++) if (paper - g.data[y * g.width + x] >= FAINT_INK) n++;
    return n;
  };
  const found = [...text].flatMap((c, i) => (VOWEL.test(c) && count(Math.max(x0, spans[i].x0 - 1), Math.min(x1, spans[i].x1 + 1)) >= MIN_PIXELS ? [i] : []));
  if (found.length !== 1) return -1;
  const a = spans[found[0]].x0 - 1, b = spans[found[0]].x1 + 1;
  for (let x = x0; x <= x1; x++) if ((x < a || x > b) && dark(x) > CLEAN_BAND) return -1;
  return found[0];
}

/**
 * Words (among those `judged` accepts) over one of whose plain vowels faintMarkAbove sees a mark the
 * threshold lost, their confidence kept at most INK_LETTER_CAP (the value then falls under the
 * low-confidence line); every other word as it was. Nothing is read again and no letter is written.
 */
export function mendFaintMarks(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => (judged(w) && w.conf > INK_LETTER_CAP && faintMarkAbove(g, w) >= 0 ? { ...w, conf: INK_LETTER_CAP } : w));
}
