/**
 * A line's first word whose box swallowed the small label printed tight over it (issue #17, thirty-second
 * round). On the older card NOME sits a few pixels over the holder's name; the sparse page pass then reads
 * the label and the first name as one word, a box half a line taller than the name's other words and read
 * sure ("RAIMUNDINHA" at 0.92, final30 #45; "“GENTIL" at 0.61-0.67, #51), so the label is lost and with it
 * the whole name. rereadMergedLines (second-looks.ts) re-reads only unsure boxes twice the value type tall;
 * this looks at such a first word whatever its confidence, reading its box again as a block of lines.
 */
import { SEGMENTATION, type Recognizer } from './pool.js';
import type { PreparedImage } from './preprocess.js';
import { HAS_TEXT, paddedCut, placed } from './cuts.js';
import { editDistance, fold, groupPhrases, median, valueHeight, type OcrWord } from './words.js';

/** A first word whose top stands this share of its line's median word height over their median top... */
export const TALL_RISE = 0.5;
/** ...its foot within this share of that height of theirs. */
const FOOT_TOLERANCE = 0.25;
/** At most this many such words are read again per page (a card has one name under a tight label). */
export const MAX_TALL_REREADS = 2;
/** Words read in the cut under this confidence are left out. */
const FOUND_MIN_CONF = 0.3;
/** A label read over the word has at least this many letters (NOME; a mark read as a letter has one)... */
const LABEL_MIN_LETTERS = 3;
/** ...and this confidence. */
const LABEL_MIN_CONF = 0.5;

const letters = (s: string): string => fold(s).replace(/[^A-Z]/g, '');
/** How many letters of `s` carry a mark (Á, Ç, Ê...). */
const marked = (s: string): number => [...s].filter((c) => /\p{L}/u.test(c) && c.normalize('NFD').length > 1).length;

/**
 * The first words of the page's lines (groupPhrases) that rose over their line (TALL_RISE) with their foot
 * on it (FOOT_TOLERANCE), three letters or more, at most MAX_TALL_REREADS, the tallest rise first.
 */
export function tallFirstWords(words: OcrWord[]): OcrWord[] {
  const out: Array<{ w: OcrWord; rise: number }> = [];
  for (const p of groupPhrases(words)) {
    if (p.words.length < 2) continue;
    const [w, ...rest] = p.words;
    if (letters(w.text).length < 3) continue;
    const h = median(rest.map((o) => o.y1 - o.y0)), top = median(rest.map((o) => o.y0)), foot = median(rest.map((o) => o.y1));
    const rise = (top - w.y0) / h;
    if (h > 0 && rise >= TALL_RISE && Math.abs(w.y1 - foot) <= FOOT_TOLERANCE * h) out.push({ w, rise });
  }
  return out.sort((a, b) => b.rise - a.rise).slice(0, MAX_TALL_REREADS).map((x) => x.w);
}

/**
 * Each tall first word (tallFirstWords) cut out (its own box, grown sideways by half the value type,
 * padded with white) and read as a block of lines. When the words read there stand on two lines, the upper
 * one over the word's line holding a label (a word of LABEL_MIN_LETTERS or more at LABEL_MIN_CONF) and the
 * lower one the word's letters again (at most one letter changed: the same word), the label's words are
 * added to the page and the word takes its new reading, or keeps its own in the new box where the new one
 * lost a mark (a capital's mark stands over the line too: final29 #67's ÉRIKA, #77's ÁUREO rise as high);
 * otherwise it stays as read. One recognition of a small cut per such word, at most MAX_TALL_REREADS per page.
 */
export async function rereadTallWords(rec: Recognizer, prep: PreparedImage, words: OcrWord[]): Promise<OcrWord[]> {
  const ref = valueHeight(words);
  const tall = ref ? tallFirstWords(words) : [];
  let out = words;
  for (const w of tall) {
    const left = Math.max(0, Math.floor(w.x0 - ref / 2)), top = Math.max(0, Math.floor(w.y0));
    const box = { left, top, width: Math.min(prep.width - left, Math.ceil(w.x1 - w.x0 + ref)), height: Math.min(prep.height - top, Math.ceil(w.y1 - w.y0)) };
    if (box.width < 8 || box.height < 8) continue;
    const read = (await rec.words(await paddedCut(prep.png, box), SEGMENTATION.block)).filter((x) => HAS_TEXT.test(x.text) && x.conf >= FOUND_MIN_CONF);
    const found = read.map((x) => placed(x, box.left, box.top));
    if (found.length < 2) continue;
    const lowest = Math.max(...found.map((x) => x.y1));
    const lower = found.filter((x) => x.y1 >= lowest - 0.3 * (x.y1 - x.y0));
    const upper = found.filter((x) => !lower.includes(x) && x.y1 <= Math.min(...lower.map((l) => l.y0)) + 2);
    const same = lower.length === 1 && editDistance(letters(lower[0].text), letters(w.text)) <= 1 && letters(lower[0].text).length >= 3;
    // The label is a word (NOME), not a mark over the word's first capital read as a letter or two.
    const label = upper.filter((x) => letters(x.text).length >= LABEL_MIN_LETTERS && x.conf >= LABEL_MIN_CONF);
    if (!label.length || !same) continue;
    // The word read again, unless that reading lost a mark the first had (ÁUREO's acute stood over the line
    // too): then the first reading, without the label's specks at its ends ("“GENTIL"), in the box of its line.
    const [l] = lower;
    const kept = marked(w.text) > marked(l.text) ? { ...w, text: w.text.replace(/^[^\p{L}]+|[^\p{L},]+$/gu, ''), y0: l.y0, y1: l.y1 } : l;
    out = [...out.filter((x) => x !== w), ...label, kept];
  }
  return out;
}
