/**
 * A v over a vowel told a caron (háček) or a breve by its ink, and Pinyin's caron vowels written (issue #17,
 * twenty-eighth round). glyph-marks.ts markClass names any v opening up 'caron', and vLetter made the
 * caron's letter only within Latin Extended-A (U+0100-U+017F): over A, I, O, U, whose caron letters are in
 * Latin Extended-B (Ǎ U+01CD, Ǐ U+01CF, Ǒ U+01D1, Ǔ U+01D3: Hanyu Pinyin's third tone), it wrote the breve
 * (Ă Ĭ Ŭ). final26's single run wrote Ŭ for Ǔ 48 times and Ă for Ǎ 44 times, and left a v over an O read
 * "Ó" or plain as read (27 and 24 times). normalize.ts NAME_LETTERS holds Extended-B since the eighteenth
 * round, so the range no longer stands in the way.
 *
 * A caron is a V (two strokes meeting at a point at the bottom), a breve a bowl (a curve lowest across its
 * middle). On the cards' type a mark is 5-10 px wide and 3-5 px tall, and the clearest cue measured is how
 * the ink spreads across the columns below its centre of mass against above it (veeSpread): a V's lower
 * ink gathers at its point, a bowl's lies along its flat bottom. Measured on words drawn in the cards' seven
 * faces (test/ocr/drawn-word.ts CARD_FACES) at 20/24/28 px (capitals 13-21 px), over A, I, O, U (GUǍN,
 * ZHǍN, YǓTÓNG, KǑNG, SHǏ, ČERNÝ; BĂLAN, TĂNASE, DRĂGHICI, ŬLAN, ŎKIM, HĬM), marks markClass names 'caron':
 * clean, carons 0.52-0.60 (66 of 116 at 0.55 or under), breves 0.56-0.67 (none at 0.55 or under); blurred
 * 0.8 px at JPEG 40, carons 0.58-0.97 (2 of 99 at 0.55 or under), breves 0.61-0.83 (0 of 107); blurred 1.2 px,
 * both 0.64 and up. Under a blur the two are one shape: VEE_MAX_SPREAD names a caron only on sharp type.
 * The curvature of the column profile (its height at a third of the width against its ends) and the ink's
 * mass in the middle columns against the ends were measured too and told nothing on blurred type
 * (tools in /work/out29-r/tools: vstat.mts).
 *
 * So, for a v over a letter read as `c` (base A, I, O, U; the model reads the letter plain or with an
 * acute, a grave or a roof):
 * - its ink spreads like a V (veeSpread <= VEE_MAX_SPREAD): the caron's letter, Ǎ Ǐ Ǒ Ǔ;
 * - else over an I or U: the caron's letter as well: a v is a caron first (vLetter's rule), and the breve
 *   was written there only for want of the letter in the range;
 * - else over an A or O: left to glyph-foreign.ts's rules (a deep cup over an A a breve, Romanian Ă;
 *   else the word doubted).
 * Over a letter read with a tilde (Ã Õ; final26's BǍI, XIǍO, HǍIFĒNG read "BÃI", "XIÃO", "HÃIFĚNG" 30 times)
 * only the V's spread writes the caron: a tilde whose middle dips on a dim page fits a v too, but no tilde
 * spreads like a V (JOÃO, CONCEIÇÃO, SIMÕES, ABRAÃO, GUIMARÃES, LEÃO, MAGALHÃES drawn at 16-28 px in the seven
 * faces, clean and blurred: veeSpread 0.66 and over in all 215 marks, the 47 that markClass names 'caron'
 * among them).
 * For one mark over a letter read with a tilde see tildeOrCaron. Every letter written here is one the model
 * cannot write: the word is capped by the caller (glyph-foreign.ts mendForeignMarks, INK_LETTER_CAP). On type
 * under 18 px glyph-foreign.ts writes none of these letters (SMALL_KEPT). Pure functions on a gray page.
 */
import type { Blob, Gray } from './glyph-i.js';

/** A v whose ink spreads below its centre of mass at most this share of its spread above is a V: a caron. */
export const VEE_MAX_SPREAD = 0.55;

/**
 * A mark over a letter read with a tilde whose ink spreads under this is no tilde (drawn tildes 0.66 and
 * over, 215 of 215): the word is doubted where it does not spread like a V (VEE_MAX_SPREAD) either.
 */
export const TILDE_MIN_SPREAD = 0.64;

/** Pinyin's vowels with the caron (Latin Extended-B), by base letter. */
export const PINYIN_CARON: Record<string, string> = { A: 'Ǎ', I: 'Ǐ', O: 'Ǒ', U: 'Ǔ' };

/**
 * How a mark's ink spreads across the columns below its centre of mass against above it: the standard
 * deviation of the columns of the ink below the mass centre's row over that of the ink above (each pixel
 * weighed by how much darker than the box's paper it is, less 20 levels, as glyph-i.ts inkCentres; the
 * box grown 1 px each way; the centre's own row shared between the halves). A V's two strokes meet at
 * its point (low), a bowl's bottom is a bar as wide as half the mark (higher). NaN when the box holds no ink.
 */
export function veeSpread(g: Gray, m: Pick<Blob, 'x0' | 'y0' | 'x1' | 'y1'>): number {
  const Y0 = Math.max(0, m.y0 - 1), Y1 = Math.min(g.height - 1, m.y1 + 1);
  const X0 = Math.max(0, m.x0 - 1), X1 = Math.min(g.width - 1, m.x1 + 1);
  let paper = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) paper = Math.max(paper, g.data[y * g.width + x]);
  const ink = (x: number, y: number): number => Math.max(0, paper - g.data[y * g.width + x] - 20);
  let W = 0, SY = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) { W += ink(x, y); SY += ink(x, y) * y; }
  if (!W) return NaN;
  const yb = SY / W;
  const spread = (below: boolean): number => {
    let w = 0, sx = 0, sxx = 0;
    for (let y = Y0; y <= Y1; y++) {
      const f = Math.min(1, Math.max(0, (below ? y - yb : yb - y) + 0.5));
      for (let x = X0; x <= X1; x++) { const v = f * ink(x, y); w += v; sx += v * x; sxx += v * x * x; }
    }
    return w ? Math.sqrt(Math.max(0, sxx / w - (sx / w) ** 2)) : 0;
  };
  const above = spread(false);
  return above ? spread(true) / above : NaN;
}

/**
 * The letter a v (blob `m`, which glyph-marks.ts markClass named 'caron') over a letter read as `c` of
 * base `base` makes, by the rules of this file's head: Ǎ Ǐ Ǒ Ǔ, or undefined where they leave it to
 * glyph-foreign.ts (another base, a letter read with a tilde or an A or O whose v does not spread like a V).
 */
export function caronVowel(g: Gray, c: string, base: string, m: Pick<Blob, 'x0' | 'y0' | 'x1' | 'y1'>): string | undefined {
  const letter = PINYIN_CARON[base];
  if (!letter) return undefined;
  const vee = veeSpread(g, m) <= VEE_MAX_SPREAD;
  // Over a letter read with a tilde only a V's spread writes the caron: no tilde measured spreads so.
  if (c.normalize('NFD').includes('\u0303')) return vee ? letter : undefined;
  return vee || 'IU'.includes(base) ? letter : undefined;
}

/**
 * The letter or doubt the one mark `m` over a letter read with a tilde (`c`: Ã Õ, base `base`) gives:
 * the caron's letter (Ǎ Ǒ) where it spreads like a V (veeSpread <= VEE_MAX_SPREAD), a doubt where it
 * spreads less than any tilde measured (TILDE_MIN_SPREAD) but not like a V (final26's BǍI read "BÃI" at
 * 0.8-0.9 on blurred type); undefined otherwise and for a mark under 5 px wide (too few columns).
 */
export function tildeOrCaron(g: Gray, c: string, base: string, m: Pick<Blob, 'x0' | 'y0' | 'x1' | 'y1'>): { letter?: string; doubt?: boolean } | undefined {
  if (!PINYIN_CARON[base] || !c.normalize('NFD').includes('\u0303') || m.x1 - m.x0 + 1 < 5) return undefined;
  const s = veeSpread(g, m);
  if (s <= VEE_MAX_SPREAD) return { letter: PINYIN_CARON[base] };
  return s < TILDE_MIN_SPREAD ? { doubt: true } : undefined;
}
