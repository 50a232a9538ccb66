/**
 * A name's line that the value left words of out (issue #17, eighteenth round): text-level signs, on
 * the recogniser's positioned words, that a name read sure is shorter than its printed line. Called by
 * fields.ts (endHidden) with the name's line and every phrase of the page. Pure functions; no pixels.
 */
import { median, type OcrWord, type Phrase } from './words.js';

/** How far (in the line's type heights) after a name's last word a word of its type still belongs to it (wordLeftOut): a lost word of up to five letters and its two spaces. */
export const NAME_TAIL_REACH = 6;
/** Least height (share of the line's word height) of a word boxed inside a name's line band that wordLeftOut counts: a capital's ink boxed tight in a box grown by bleed (0.41 on final18 #55). */
const BAND_WORD_MIN = 0.35;

/** A word read from capitals into digits and marks: a capital first, then capitals, digits or "!" (three characters or more). */
const MISREAD_TAIL = /^[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ0-9!]{2,},?$/;

/**
 * Whether a word of capitals (two letters or more, a comma after them allowed) stands on a name's line
 * (`line`: its words left to right) after its last word, within NAME_TAIL_REACH type heights, at the
 * line's type height (0.75-1.3 x the median of the line's words) and centred on it (within 0.35 of the
 * height), and is no word of the line (or, shorter, boxed inside the line's band: BAND_WORD_MIN): a word of the name the value left out, and the name is shorter
 * than its print. The recogniser read it apart from the line, unsure, after a gap where a word was lost
 * under a pen mark (final16 #25: "ORSOLYA LIBUSE" at 0.913 for ORSOLYA LIBUŠE NĚMEC TAKÁCS, TAKÁCS read
 * at 0.50, 121 px after LIBUSE on a 27 px type, NĚMEC unread). Looked for among every phrase
 * (`phrases`); the card prints nothing else on a name's row that near (the next column's values start
 * 20 type heights or more to the right). Since the twenty-eighth round also a word of capitals misread
 * with digits or "!" (MISREAD_TAIL, as wide as the type is tall, at the line's type height only).
 */
export function wordLeftOut(line: Phrase, phrases: Phrase[]): boolean {
  const named = [...line.words].filter((w) => /[A-Za-zÀ-ÿ]{2}/.test(w.text)).sort((a, b) => a.x0 - b.x0);
  if (named.length < 2) return false;
  const h = median(named.map((w) => w.y1 - w.y0));
  const cy = median(named.map((w) => (w.y0 + w.y1) / 2));
  const end = named[named.length - 1].x1;
  const top = median(named.map((w) => w.y0)), bottom = median(named.map((w) => w.y1));
  // The line's own words after its last named one are short (a letter, a mark): counted as any other.
  return [...line.words, ...phrases.flatMap((p) => p.words)].some((w) => {
    // A capital followed by capitals, digits or an exclamation mark, as wide as the type is tall at least:
    // a word of the name misread into digits (twenty-eighth round: final27 #29's YOSHIMURA read "Y05!" at
    // 0.00 after MATSUMOTO, "YOSHIO MAISUMOTO" at 0.91 for four words). Taken only at the line's type.
    const misread = MISREAD_TAIL.test(w.text) && /[0-9!]/.test(w.text) && w.x1 - w.x0 >= h;
    const capitals = /^[A-ZÀ-ÖØ-Þ]{2,},?$/.test(w.text) || misread;
    // Small letters (the card prints capitals): ink after the name read as no capital, a blurred
    // word's end (final18 #74: ANGHELESCU read "ANGHELE" at 0.91, its SCU an "a" at 0.78 half the type's height).
    if (!capitals && !/^\p{Ll}+$/u.test(w.text)) return false;
    const wh = w.y1 - w.y0;
    const sameType = capitals && wh >= 0.75 * h && wh <= 1.3 * h;
    // Or boxed inside the line's band, shorter: the line's words boxed with the ink around their letters
    // (ink bled into the card, noise), the left-out word with its letters only (final18 #55: LUMINITA NEAGU
    // boxed 68 px tall, DUMITRESCU 28 px on the same row, "LUMINITA NEAGU" at 0.801).
    const inBand = !misread && wh >= BAND_WORD_MIN * h && w.y0 >= top && w.y1 <= bottom;
    return w.x0 > end && w.x0 - end < NAME_TAIL_REACH * h && (sameType || inBand) && Math.abs((w.y0 + w.y1) / 2 - cy) < 0.35 * h;
  });
}
