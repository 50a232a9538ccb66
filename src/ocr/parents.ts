/**
 * The parents' block (FILIAÇÃO): its lines found again when the value-size test lost them, and a lone
 * line given to the father or the mother by where it stands under the label.
 *
 * Why the block was lost (final9 #30, #59, #35; dumped with the page's words): valueBelow takes a value
 * line when its box is 1.2 x the median label box. On blurred and scanned frames every box grows by the
 * blur's halo and some label boxes swallow marks beside them (final9 #59: FILIAÇÃO boxed 33 px, PERMISSÃO
 * 39, for a 13 px type), so the median label box (18-30 px) reached or passed the parents' lines (19-23
 * px) and both lines failed the test, or only the one with a taller accented word passed. A parent line
 * that lost its first word (ELIÉZER unread: final9 #35) also starts too far right for valueBelow's
 * column. Here the block is looked for with the label's own box as the size (the smaller of it and the
 * median), the lines as far right as a line missing a word or two, and no further down than the next
 * label under it.
 */
import type { FoundLabel } from './layout.js';
import { withContinuations } from './layout.js';
import { median, type OcrWord, type Phrase } from './words.js';

/** How far under the label (its type heights) the block's last line may start: the mother's line lies 2.4-4.8 under it. */
const BLOCK_REACH = 5.5;
/** A parent line's words are at least this share of the label's type height (blur lets values fall to ~1.05 x). */
const MIN_SIZE = 0.9;
/** How far right of the label (its type heights) a line that lost its first word or two may start. */
const MAX_INDENT = 15;
/** A lone line whose middle lies under this many of its type heights under the label's middle is the block's first line (loneParent). */
export const FIRST_LINE_BELOW = 2.4;
/** How far right of the label (its type heights) a parent's line starts at most with its first word read (valueBelow's 4). */
const START_KEPT = 4;

/** A word with letters, or the recogniser's noise beside a line (no letter, or unsure). */
const hasLetters = (w: OcrWord): boolean => /[A-Za-zÀ-ÿ]/.test(w.text);

/** Median height of a line's words with letters (the type, not a box a mark or a halo inflated). */
export function typeHeight(p: Phrase): number {
  const ws = p.words.filter(hasLetters);
  return median((ws.length ? ws : p.words).map((w) => w.y1 - w.y0));
}

/**
 * Whether a phrase reads as a name line: a word of three letters or more, and no sure word with a digit
 * (a registration number, a date) or with small letters after its first (running text, a misread label).
 */
function nameLike(p: Phrase): boolean {
  const sure = p.words.filter((w) => w.conf >= 0.5);
  return p.words.some((w) => w.text.replace(/[^A-Za-zÀ-ÿ]/g, '').length >= 3)
    && !sure.some((w) => /\d/.test(w.text) || /[a-zß-ÿ]{2}/.test(w.text.slice(1)));
}

/** Whether two phrases are one line: a word in common, or more than half the smaller one's height shared. */
const sameLine = (a: Phrase, b: Phrase): boolean =>
  a.words.some((w) => b.words.includes(w)) || Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5 * Math.min(a.h, b.h);

/**
 * The parents' lines under `label` (FILIAÇÃO, or the word standing for it) when `found` (valueBelow's)
 * has fewer than two: name lines whose words are at least MIN_SIZE x the label's type (the smaller of the
 * label's own box and `labelH`), starting from the label's middle to BLOCK_REACH label heights under it
 * and above the next label under it, from 8 label heights left of it to MAX_INDENT right; at most two
 * lines, top to bottom, with `found`'s. `extra`: the lines this search added (their values are surer to be
 * the parents' when valueBelow found them).
 */
export function parentLines(label: FoundLabel, found: Phrase[], phrases: Phrase[], labelPhrases: Set<Phrase>, labelH: number): { lines: Phrase[]; extra: Set<Phrase> } {
  const extra = new Set<Phrase>();
  if (found.length >= 2) return { lines: found, extra };
  const L = label.phrase;
  const lh = Math.max(4, Math.min(L.h, labelH || L.h));
  const labelsUnder = [...labelPhrases].filter((q) => q !== L && q.y0 > L.y1 && q.x0 < L.x0 + MAX_INDENT * lh && q.x1 > L.x0 - 8 * lh);
  const floor = Math.min(L.y1 + BLOCK_REACH * lh, ...labelsUnder.map((q) => q.y0));
  const taken = (p: Phrase): boolean => found.some((f) => sameLine(f, p));
  const cands = phrases
    .filter((p) => !labelPhrases.has(p) && !taken(p) && p.y0 > (L.y0 + L.y1) / 2 && p.y0 < floor
      && p.x0 > L.x0 - 8 * lh && p.x0 < L.x0 + MAX_INDENT * lh && typeHeight(p) >= MIN_SIZE * lh && nameLike(p))
    .sort((a, b) => a.y0 - b.y0);
  const lines = [...found];
  for (const c of cands) {
    if (lines.length >= 2) break;
    if (lines.some((l) => sameLine(l, c))) continue;
    const whole = withContinuations(c, phrases, labelPhrases, lh);
    extra.add(whole);
    lines.push(whole);
  }
  lines.sort((a, b) => a.y0 - b.y0);
  return { lines, extra };
}

/**
 * Which parent a lone line under `label` is. Both models print the father's line first, and a card
 * whose holder has no father on record prints the mother's alone on the first line (the CNH-e of the
 * reader's tests; common on real cards), so a lone first line is the mother's unless something was read
 * where the second line stands (words of the block under it, however unsure: the mother's line the
 * recogniser could not read as a name), and then it is the father's. Where it stands is measured from
 * the label's middle in the line's own type heights (final9 #3, #8, #30, #35, #59's two readings: fathers
 * 0.9-2.7, all but two <= 2.3; mothers 2.8-4.5, all but two >= 3.5): under FIRST_LINE_BELOW it is the
 * first line; from there on it is the second line or undecided (the value layer's own offset from the
 * labels, a tall accented box): the mother's, as before.
 */
export function loneParent(label: FoundLabel, line: Phrase, phrases: Phrase[], labelPhrases: Set<Phrase>): 'father' | 'mother' {
  const L = label.phrase;
  const h = Math.max(1, typeHeight(line));
  const r = ((line.y0 + line.y1) / 2 - (L.y0 + L.y1) / 2) / h;
  if (r >= FIRST_LINE_BELOW) return 'mother';
  const mid = (line.y0 + line.y1) / 2;
  const second = phrases.some((p) => !labelPhrases.has(p) && !p.words.some((w) => line.words.includes(w))
    && (p.y0 + p.y1) / 2 > mid + 0.8 * h && (p.y0 + p.y1) / 2 < mid + 2.6 * h
    && p.x0 < line.x1 && p.x1 > line.x0 && p.words.some((w) => /[A-Za-zÀ-ÿ]{2}/.test(w.text)));
  return second ? 'father' : 'mother';
}

/**
 * Whether a parent's line starts more than START_KEPT label heights right of `label` (its first word or
 * words unread: final9 #35's "JANDIR NASSIF HELOU" for ELIÉZER JANDIR NASSIF HELOU at 0.82).
 */
export function startLost(label: FoundLabel, line: Phrase, labelH: number): boolean {
  const L = label.phrase;
  return line.x0 > L.x0 + START_KEPT * Math.max(4, Math.min(L.h, labelH || L.h));
}
