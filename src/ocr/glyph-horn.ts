/**
 * The Vietnamese horn (Ư, Ơ: U+01AF, U+01A0), read from its ink (issue #17, twenty-second round). A horn is
 * a small hook drawn on to the top right of a U or an O; the Portuguese model cannot write it and reads the
 * plain letter, sure of it (final20: PHƯƠNG read "PHUONG", TRƯƠNG "TRUONG" at 0.852). glyph-own.ts looks at
 * each U and O of a capital word (ownLetter) with hornOnTop, and writes the O of "ươ" after a U given the
 * horn (hornPair) and the U before an O given it where its own lean is weaker (HORN_PAIR_LEAN). Measured on
 * words drawn in eight DejaVu and Liberation faces at 20-28 px, clean and blurred 0.8-1.2 px at JPEG 40-60:
 * plain U and O (LOURDES, ÚRSULA, SOUZA, ROBERTO, ÔNIO, JOÃO, TÚLIO, OTÁVIO, GUSTAVO, DUO) never given a horn;
 * a drawn Ư leans 0.2-1.1 of the height, a U on final20 #69's page (DejaVu Sans Condensed Bold) 0.15, its
 * Ơ 0.4; a plain U on final19 #12's dim page 0.22. Pure functions on a gray page.
 */
import type { Blob, Gray } from './glyph-i.js';

/**
 * A horn makes one of its letter's top rows lean right of the lower half's centre by at least this share of
 * the body's height (and 3 px)... A plain U on a dim page leaned 0.22 (final19 #12's KNUT made "KNƯT" at
 * 0.17); drawn Ư and Ơ lean 0.2-1.1, most over 0.3; a U before an Ơ needs HORN_PAIR_LEAN only.
 */
export const HORN_MIN_REACH = 0.3;
/** ...among the rows down to this share of the body's height under the capitals' top (and the two above it). */
const HORN_ROWS = 0.15;
/** A U before an Ơ takes the horn where its top leans right by this share of its height (plain U, O measured up to 0.13). */
export const HORN_PAIR_LEAN = 0.1;

/**
 * Whether a U or an O carries the Vietnamese horn (Ư, Ơ): a small hook drawn on to the letter's top right.
 * A U and an O are drawn symmetric about their middle; the horn adds ink on the right of the top rows only:
 * one of the body's top rows (HORN_ROWS of its height from `top`, the capitals' top, and the two rows above
 * it) reaches right of the lower half's centre at least HORN_MIN_REACH of the height further than it
 * reaches left of it (rows whose left stem a blur faded are left out), and no row of its foot leans left
 * 2 px or more (a slash through an O: Ø).
 */
export function hornOnTop(g: Gray, b: Blob, top = b.y0, marked = false): boolean {
  return hornLean(g, b, top, marked) >= HORN_MIN_REACH;
}

/**
 * hornOnTop's measure: the most a top row's ink leans right of the lower half's centre (its right end plus
 * its left end less twice the centre), as a share of the body's height; -1 where the body is under 8 px,
 * the lean is under 3 px or the foot leans left (Ø). Over a letter read with a mark (`marked`) the rows above the capitals' top are
 * left out: an acute blurred on to its letter leans right too (ÚRSULA's Ú).
 */
export function hornLean(g: Gray, b: Blob, top = b.y0, marked = false): number {
  const y0 = Math.max(b.y0, top - (marked ? 0 : 2)), h = b.y1 - Math.max(b.y0, top) + 1;
  if (h < 8 || y0 > b.y1) return -1;
  const rows = b.y1 - y0 + 1, left = new Array<number>(rows).fill(Infinity), right = new Array<number>(rows).fill(-Infinity);
  for (const p of b.px) {
    const y = Math.floor(p / g.width) - y0, x = p % g.width;
    if (y >= 0 && y < rows) { left[y] = Math.min(left[y], x); right[y] = Math.max(right[y], x); }
  }
  const upTo = Math.min(rows, rows - h + Math.max(2, Math.round(HORN_ROWS * h))), from = rows - Math.round(0.5 * h);
  const lo = Math.min(...left.slice(from)), hi = Math.max(...right.slice(from)), cx = (lo + hi) / 2;
  // Only rows with ink in the left half's outer part count (a U's left stem faded at the top by a blur
  // leaves a row of its right stem alone, which leans right as much as a horn).
  let lean = -Infinity;
  for (let y = 0; y < upTo; y++) if (right[y] >= left[y] && left[y] <= cx - 0.15 * (hi - lo)) lean = Math.max(lean, right[y] + left[y] - 2 * cx);
  // A stroke through the letter leans its foot left as its top right (Ø's slash): no horn.
  let foot = -Infinity;
  for (let y = rows - Math.max(2, Math.round(HORN_ROWS * h)); y < rows; y++) if (right[y] >= left[y] && right[y] >= cx + 0.15 * (hi - lo)) foot = Math.max(foot, 2 * cx - right[y] - left[y]);
  return lean >= 3 && foot < 2 ? lean / h : -1;
}

/** `c` (U or O, read plain or with a tone mark) with the horn added, or undefined. */
export function hornLetter(c: string): string | undefined {
  const [base, ...marks] = [...c.normalize('NFD')];
  if (base !== 'U' && base !== 'O' || marks.some((m) => m === '\u031b')) return undefined;
  const d = (base + '\u031b' + marks.join('')).normalize('NFC');
  return [...d].length === 1 ? d : undefined;
}

/**
 * Vietnamese writes the horn on both letters of the pair U O or on neither's U alone (ươ: TRƯƠNG, PHƯỚC;
 * "ưo" is no spelling): an O after a U given the horn takes it too (its own horn is small and often joins
 * the next letter, so its glyph is not paired). Tone marks are kept.
 */
export function hornPair(text: string): string {
  const chars = [...text];
  for (let i = 1; i < chars.length; i++) {
    if (chars[i - 1].normalize('NFD').startsWith('U\u031b') && chars[i].normalize('NFD')[0] === 'O') chars[i] = hornLetter(chars[i]) ?? chars[i];
  }
  return chars.join('');
}
