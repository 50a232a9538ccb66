/**
 * A remark's E read as F, or its F read as E (issue #17, thirtieth round): both are remark codes, so no
 * check on the value can tell them apart ("E" at 0.7 for F, a scanned serif card: final28 #59; "E E" at
 * 0.5 for F, low light: #35; "FAR" at 0.56 for EAR, glare: final25 #29). The glyph's own ink does in any
 * type: an E has a bottom arm as long as its top one, an F ends at its stem's foot (bare in a sans, a
 * short serif each side in a serif or monospaced type). Pure functions on a gray page (glyph-i.ts Gray).
 */
import { glyphShape, wordGlyphs, type Gray } from './glyph-i.js';
import type { OcrWord, Phrase } from './words.js';

/**
 * An E's foot (its bottom arm) is at least this share of its top's width. Measured on the capitals set
 * at 16 pt in the 17 faces installed here (DejaVu and Liberation sans, serif, mono, bold, italic, light,
 * and TeX Gyre's Times-like DejaVu Math), sharp and blurred by a Gaussian of 1 and 2 px: E 0.93-1.11.
 */
export const E_FOOT_SHARE = 0.8;
/** An F's foot (its stem, with its serifs) is at most this share of its top's width: 0.20-0.60 there (a 2 px blur widens a sans F's stem most). */
export const F_FOOT_SHARE = 0.65;

/**
 * E or F from one glyph's top and foot widths (glyph-i.ts glyphShape, px): 'E' when the foot is at least
 * E_FOOT_SHARE of the top, 'F' when at most F_FOOT_SHARE, '?' between or for a glyph without a top.
 */
export function eOrF(s: { top: number; foot: number }): 'E' | 'F' | '?' {
  if (s.top <= 0) return '?';
  const share = s.foot / s.top;
  return share >= E_FOOT_SHARE ? 'E' : share <= F_FOOT_SHARE ? 'F' : '?';
}

/** A remark word whose first letter may be an E or F misread: a lone E or F, or EAR read FAR. */
const E_OR_F_WORD = /^(E|F|EAR|FAR)$/;

/**
 * The remark line `line` (its words among `words`) with every lone E or F, and the first letter of
 * EAR or FAR, set to what its glyph's ink says (eOrF). A word whose glyphs do not number its letters
 * (letters touching, a speck) is left as read; so is a glyph eOrF cannot tell. The word keeps its
 * confidence: its other letters and its box are as read. Only pixels are looked at.
 */
export function mendRemarkEF(g: Gray, words: OcrWord[], line: Phrase): OcrWord[] {
  const mended = new Map<OcrWord, OcrWord>();
  for (const w of line.words) {
    if (!E_OR_F_WORD.test(w.text)) continue;
    const glyphs = wordGlyphs(g, w);
    if (glyphs.length !== w.text.length) continue;
    const v = eOrF(glyphShape(g, glyphs[0]));
    if (v !== '?' && v !== w.text[0]) mended.set(w, { ...w, text: v + w.text.slice(1) });
  }
  return mended.size ? words.map((w) => mended.get(w) ?? w) : words;
}
