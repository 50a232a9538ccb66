/**
 * Doubts a second look raises about values the page pass read sure (second-looks.ts rereadSuspects):
 * an identity number that reads otherwise enlarged, a name line whose ink goes on past its last word.
 * Neither replaces a value: each lowers its confidence under the low-confidence line.
 */
import { blobs, darkerLevel, lighterLevel, type Gray } from './glyph-i.js';
import { enlarged, grownBox, paddedCut } from './cuts.js';
import { findLabels, labelCapHeight, labelHeight, valueBelow } from './layout.js';
import { SEGMENTATION, type Recognizer } from './pool.js';
import type { PreparedImage } from './preprocess.js';
import { groupPhrases, type OcrWord } from './words.js';

/**
 * Identity numbers (the first words with digits under DOC. IDENTIDADE) whose words were read at least
 * this sure are read a second time: a value under it already ends under the low-confidence line
 * (0.6 x 0.66 + 0.4 = 0.8 after its passed shape check).
 */
const ID_CHECK_CONF = 0.66;
/** Enlargement of the identity number's second reading (ID_CHECK_CONF). */
const ID_CHECK_SCALE = 2;
/** A digit's advance is at most this share of its box's height in the card's types (0.8-0.85 seen). */
const DIGIT_ADVANCE = 0.9;
/** Confidence given to the words of an identity number two readings disagree on (0.6 x 0.5 + 0.4 = 0.7). */
const ID_DOUBT_CONF = 0.5;

/**
 * An identity number read sure (its words at ID_CHECK_CONF or over) is read again from its own box (at
 * most DIGIT_ADVANCE x its height per digit wide, grown 30 % and padded), enlarged ID_CHECK_SCALE times,
 * held to digits. It has no check digit, and a digit misread or one too many is read at 0.8-0.9
 * ("82386317" for 82356317, "5403196854" for 540319854, "99813084" for 09813084: final6 #24, #7, #47,
 * each read otherwise enlarged). Readings that differ in their digits leave the number's words at
 * ID_DOUBT_CONF: the value ends under the low-confidence line. The second reading is never taken
 * (it reads less sure, 0.56-0.93). One small recognition per page with a sure identity number.
 */
export async function doubtIdentityNumber(rec: Recognizer, prep: PreparedImage, words: OcrWord[]): Promise<OcrWord[]> {
  const phrases = groupPhrases(words);
  const labels = findLabels(phrases);
  const id = labels.get('identidade');
  if (!id) return words;
  const labelPhrases = new Set([...labels.values()].map((l) => l.phrase));
  const line = valueBelow(id, phrases, labelPhrases, 1, labelHeight(labels), labelCapHeight(labels)).flatMap((p) => p.words);
  const first = line.findIndex((w) => /\d/.test(w.text));
  if (first < 0) return words;
  const num: OcrWord[] = [];
  for (let i = first; i < line.length && /\d/.test(line[i].text); i++) num.push(line[i]);
  const digits = (t: string): string => t.replace(/\D/g, '');
  const old = digits(num.map((w) => w.text).join(''));
  if (old.length < 4 || num.some((w) => w.conf < ID_CHECK_CONF)) return words;
  const x0 = Math.min(...num.map((w) => w.x0)), y0 = Math.min(...num.map((w) => w.y0)), y1 = Math.max(...num.map((w) => w.y1));
  const x1 = Math.min(Math.max(...num.map((w) => w.x1)), x0 + DIGIT_ADVANCE * (y1 - y0) * old.length);
  const box = grownBox({ x0, y0, x1, y1 }, prep);
  if (box.width < 8 || box.height < 8) return words;
  const found = await rec.words(await enlarged(await paddedCut(prep.png, box), ID_CHECK_SCALE), SEGMENTATION.line, '0123456789');
  if (digits(found.map((w) => w.text).join('')) === old) return words;
  return words.map((w) => (num.includes(w) ? { ...w, conf: Math.min(w.conf, ID_DOUBT_CONF) } : w));
}

/** A name line's glyph-sized ink is looked for this many of its type heights right of its last word. */
const LINE_END_REACH = 2.5;
/** Confidence given to the last word of a name line whose ink goes on past it (lostLineEnds). */
const LINE_END_CONF = 0.5;

/**
 * Names (under NOME and FILIAÇÃO) whose line goes on in ink right of the last word read: a glyph-sized
 * blob (0.6-1.4 x the line's type height tall, at most 1.5 x wide, within the line's band, ink at a level
 * half-way from the line's own ink split to its paper: glyph-i.ts lighterLevel; or, for a stain under the line's
 * end, half-way from its ink to that split: glyph-i.ts darkerLevel) starting within LINE_END_REACH type heights after it, where no other word was read
 * ("JUVENAL RAMIRO DE NEPOMUCEN" at 0.915, the O and CHAVES under a glare's veil unread: final5 #72;
 * "IDALINA EUFRÁSIA DE BERTOLUCCI" for ... ABRAÃO). The last word falls to LINE_END_CONF, so the name
 * ends under the low-confidence line. Frame lines and the photo's edge reach past the band and are
 * not glyphs. No recognition: the page's pixels only.
 */
export function lostLineEnds(g: Gray, words: OcrWord[]): OcrWord[] {
  const phrases = groupPhrases(words);
  const labels = findLabels(phrases);
  const labelPhrases = new Set([...labels.values()].map((l) => l.phrase));
  const lh = labelHeight(labels), ch = labelCapHeight(labels);
  const lines = [
    ...(labels.get('nome') ? valueBelow(labels.get('nome')!, phrases, labelPhrases, 1, lh, ch) : []),
    ...(labels.get('filiacao') ? valueBelow(labels.get('filiacao')!, phrases, labelPhrases, 2, lh, ch) : []),
  ];
  const lowered = new Set<OcrWord>();
  for (const p of lines) {
    const h = p.h;
    const last = p.words[p.words.length - 1];
    if (h < 8 || p.words.length < 2 || !/^[A-ZÀ-Ý'-]+$/.test(last.text)) continue;
    const x0 = Math.ceil(p.x1 + 1), x1 = Math.min(g.width - 1, Math.floor(p.x1 + LINE_END_REACH * h));
    const y0 = Math.max(0, Math.floor(p.y0 - 0.5 * h)), y1 = Math.min(g.height - 1, Math.ceil(p.y1 + 0.5 * h));
    if (x1 - x0 < 4) continue;
    // Ink that is read text (another value on the line) says nothing.
    if (words.some((w) => !p.words.includes(w) && w.x1 > x0 && w.x0 < x1 && w.y1 > p.y0 && w.y0 < p.y1)) continue;
    const glyphAt = (t: number): boolean => blobs(g, x0, y0, x1, y1, t).some((b) => {
      const bh = b.y1 - b.y0 + 1, bw = b.x1 - b.x0 + 1;
      // A sliver at the region's edge is the last letter's own antialiased edge.
      return (b.x0 > x0 || bw >= 0.3 * h) && bh >= 0.6 * h && bh <= 1.4 * h && bw <= 1.5 * h && b.y0 > y0 && b.y1 < y1 && b.y0 >= p.y0 - 0.25 * h && b.y1 <= p.y1 + 0.25 * h;
    });
    // At a level half-way from the line's ink split to its paper: a glare's veil fades the line's end first.
    // Else at the line's own ink (darkerLevel): a stain under the line's end is ink at the lighter level
    // and joins the letters on it into one blob too large for a glyph.
    if (glyphAt(lighterLevel(g, p)) || glyphAt(darkerLevel(g, p))) lowered.add(last);
  }
  return lowered.size ? words.map((w) => (lowered.has(w) ? { ...w, conf: Math.min(w.conf, LINE_END_CONF) } : w)) : words;
}
