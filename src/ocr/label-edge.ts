/**
 * A label's own left edge, without the unsure marks the recogniser put in front of it.
 *
 * value-place.ts valueBelow aligns a value line with its label's left edge (the label phrase's x0). The
 * recogniser often reads a speck, the card's security print or the field number's ink in front of a label
 * as a short word read unsure ("e" at 0.27, "4c" at 0.26) and words.ts groupPhrases joins it to the label's
 * phrase: the phrase's x0 then lies a few label heights left of the label's type, and a value printed
 * right under the label's words falls outside the alignment window (final26 #10, a photocopied card read
 * twice: "e 4c DOC. IDENTIDADE / ÓRG. EMISSOR / UF" boxed from x 293, its value line "038509726 SSP MS"
 * at 0.93 starting at x 361, 68 px right of the phrase for a 4-label-height window of 56 px: rg and
 * orgao_expedidor both empty).
 *
 * Algorithm: drop the phrase's leading words read under LEAD_UNSURE while a word read at least that sure
 * remains after them; the phrase of what is left (words.ts toPhrase), or undefined when nothing was
 * dropped. Pure; no pixels. Used only as a fall-back by valueBelow when the whole phrase finds no value,
 * so a value found before is found as before.
 */
import { fold, toPhrase, type Phrase } from './words.js';

/**
 * Confidence under which a word leading a label phrase counts as an unsure mark. The label words
 * themselves come back at 0.7-0.96 on the pages looked at (final26 #10: DOC. 0.74, IDENTIDADE 0.92); the
 * marks before them at 0.00-0.38.
 */
export const LEAD_UNSURE = 0.5;

/**
 * `label` without its leading words read under LEAD_UNSURE, or undefined when it has none or is
 * nothing but such words. Shapes: a Phrase in, a Phrase (same words, fewer) out; throws nothing.
 */
export function labelWithoutUnsureLead(label: Phrase): Phrase | undefined {
  const ws = [...label.words].sort((a, b) => a.x0 - b.x0);
  let k = 0;
  while (k < ws.length && ws[k].conf < LEAD_UNSURE) k++;
  if (k === 0 || k === ws.length) return undefined;
  return toPhrase(ws.slice(k));
}

/**
 * Label heights left of IDENTIDADE within which the identity label's DOC. (and the 2022 model's 4c) is
 * printed: "DOC. " is about 3.5 label heights wide; a word read there is the label's start.
 */
export const DOC_REACH = 5;
/**
 * Label heights left of IDENTIDADE that an identity number starts at least when its own start was read:
 * the number is printed under the label's start (DOC.), about 3.5 label heights left of IDENTIDADE.
 */
export const NUMBER_LEAD = 1.5;

/**
 * Whether the identity line's start was lost with its label's: `label` (the identidade label's phrase)
 * begins at IDENTIDADE, nothing was read in `phrases` on its line within DOC_REACH of its heights left of
 * it, and the number's first word `numberWord` starts less than NUMBER_LEAD label heights left of it.
 * A shadow's hard edge, a fold or the crop's edge that takes DOC. off the label takes the number's
 * first digits off the value line under it alike, and the rest reads as a sure, well-formed number
 * (final32 #49: "IDENTIDADE / ÓRG. EMISSOR / UF" over "058374" read at 0.952 for 692058374). Shapes:
 * phrases and a word in px of one page; pure.
 */
export function identityStartLost(label: Phrase, phrases: Phrase[], numberWord: { x0: number } | undefined): boolean {
  const ws = [...label.words].sort((a, b) => a.x0 - b.x0);
  const first = ws.find((w) => /[\p{L}\p{N}]/u.test(w.text));
  if (!first || !/^IDENTIDADE/.test(fold(first.text).replace(/[^A-Z0-9]/g, ''))) return false;
  const h = Math.max(4, label.h);
  const mid = (first.y0 + first.y1) / 2;
  const before = phrases.some((p) => p.words.some((w) => w !== first && w.y0 < mid && w.y1 > mid && w.x1 <= first.x0 + 1 && w.x1 > first.x0 - DOC_REACH * h && /[\p{L}\p{N}]/u.test(w.text)));
  if (before) return false;
  return !numberWord || numberWord.x0 > first.x0 - NUMBER_LEAD * h;
}
