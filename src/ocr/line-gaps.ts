/**
 * The gaps between the words of a value's line and what they say of it (moved out of doubts.ts when it
 * passed 400 lines; behaviour unchanged): a gap as wide as a lost letter (wideGap), a gap that held a
 * whole word (lineHole), two pieces of one word closer than a printed space (tightGap), and the gaps
 * themselves (sideGaps). doubts.ts re-exports them for the modules that import them from there.
 */
import { median, type OcrWord, type Phrase } from './words.js';

/** A gap between a name's words this many times the median of its line's other gaps holds a lost letter (wideGap). */
export const WIDE_GAP = 2;

/**
 * Whether a name's line (`line`: four words or more with letters, left to right) has a gap between
 * two words over WIDE_GAP x the median of its gaps and over 0.6 of its type height: the card prints
 * one space between a name's words, so a gap that wide held a letter the recogniser lost, its word
 * read as two (final10 #6: "WOJ IK" for WOJCIK under a crease, 22 px against the line's 7-9).
 */
export function wideGap(line: Phrase): boolean {
  const ws = line.words.filter((w) => /[A-Za-zÀ-ÿ]/.test(w.text)).sort((a, b) => a.x0 - b.x0);
  if (ws.length < 4) return false;
  const gaps = ws.slice(1).map((w, i) => w.x0 - ws[i].x1);
  const m = median(gaps);
  return m > 0 && gaps.some((g) => g > WIDE_GAP * m && g > 0.6 * line.h);
}

/**
 * The gaps (px, negative where boxes overlap) between consecutive words of `ws` taken left to right that
 * stand side by side on one line (boxes overlapping vertically), not a word boxed inside the other.
 */
export function sideGaps(ws: OcrWord[]): number[] {
  const sorted = [...ws].sort((a, b) => a.x0 - b.x0);
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1], b = sorted[i];
    if (Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) <= 0 || b.x1 <= a.x1) continue;
    gaps.push(b.x0 - a.x1);
  }
  return gaps;
}

/** A gap between two words of a value's line narrower than this many type heights is no printed space (tightGap). */
export const TIGHT_GAP = 0.2;
/** ... and narrower than this share of the line's median gap between words. */
const TIGHT_GAP_SHARE = 0.35;

/**
 * Whether two lettered words of a name's or a town's line (`phrases`: the value's own, left to
 * right, words side by side on one line) stand closer than a printed space: under TIGHT_GAP x the
 * type height (the words' median height) and under TIGHT_GAP_SHARE x the median gap of the line.
 * The card prints one space between words (0.3-0.5 type heights); a word broken by the recogniser
 * leaves its two pieces almost touching (final11 #36: "KI UIPERS" for KUIPERS, 3 px apart at a
 * 40 px type, the line's spaces 14-15 px; #4: "AÍ REIA," for AREIA, 1 px apart, spaces 8-12 px).
 * Needs two other gaps to measure the line by.
 */
export function tightGap(phrases: Phrase[]): boolean {
  const ws = phrases.flatMap((p) => p.words).filter((w) => /[A-Za-zÀ-ÿ]/.test(w.text) && !/\d/.test(w.text));
  const h = median(ws.map((w) => w.y1 - w.y0));
  const gaps = sideGaps(ws);
  if (gaps.length < 3 || h <= 0) return false;
  const m = median(gaps);
  // Overlapping boxes (a negative gap) are a mark read with a word ("GERRIT|" over HENDRIK's first
  // px: final11 #14), not a word's two pieces.
  return gaps.some((g) => g >= 0 && g < TIGHT_GAP * h && g < TIGHT_GAP_SHARE * m);
}

/** A gap between a name's words this many type heights wide held a whole word or more (lineHole; spaces are 0.3-0.5). */
export const LINE_HOLE = 1.5;

/**
 * Whether a name's line (`line`) has a gap between two lettered words over LINE_HOLE type heights (the
 * line's median word height) and over WIDE_GAP x the median of its gaps: the recogniser dropped the
 * ink between them, and the word before the hole may be cut short too (final11 #57: "HO" for HOEKSTRA,
 * then 108 px of paper read as nothing at a 26 px type before VRIJMOED). The value is misread as it stands.
 * On a line of three words the narrower gap stands for the median (see below).
 */
export function lineHole(line: Phrase): boolean {
  const ws = line.words.filter((w) => /[A-Za-zÀ-ÿ]/.test(w.text)).sort((a, b) => a.x0 - b.x0);
  if (ws.length < 3) return false;
  const h = median(ws.map((w) => w.y1 - w.y0));
  const gaps = ws.slice(1).map((w, i) => w.x0 - ws[i].x1);
  // Three words have two gaps, whose median (their mean) no gap can pass twice over: the narrower
  // one is the line's space there (final22 #36: 20 and 95 px at a 45 px box, a word lost in the second).
  const m = gaps.length > 2 ? median(gaps) : Math.min(...gaps);
  return m > 0 && gaps.some((g) => g > WIDE_GAP * m && g > LINE_HOLE * h);
}
