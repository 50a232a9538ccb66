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
import { toPhrase, type Phrase } from './words.js';

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
