/**
 * Marks under a capital, read from their ink (issue #17, nineteenth round). Latvian and Lithuanian names
 * carry a comma under a consonant (Ņ Ķ Ģ Ļ Ŗ: Unicode names them "with cedilla") and an ogonek under a
 * vowel (Ą Ę Į Ų); Romanian and Turkish ones a cedilla or comma under S and T (Ş Ţ). The Portuguese
 * model writes only Ç with a mark below and reads the others as their plain twins, sure of it (final17:
 * SKUJIŅA read "SKUJINA" at 0.913, KALNIŅŠ "KALNINS" at 0.905): ink under the baseline was never looked
 * at. This looks at each letter's glyph (glyph-i.ts wordGlyphs, paired with the word's letters by
 * glyph-marks.ts letterSpans) and at the ink just under the word's baseline:
 * - the baseline at a letter is the median foot of its neighbours (two each side), so a page's tilt does
 *   not put a plain letter's foot below it;
 * - a mark below hangs from the letter or starts just under it (its top at most BELOW_GAP of the
 *   letters' height under the baseline), reaches at least BELOW_MIN_DEPTH under it, ends within
 *   BELOW_REACH (the next line's letters and a table rule run on past it), is at most BELOW_MAX_WIDTH of
 *   the height wide and lies within its letter's columns (an underline or a rule runs across letters);
 * - a mark's shape there (a comma, a cedilla's hook, an ogonek's hook) is one small stroke: it is told
 *   from a rule or a letter of the next line by its size and place; which of the three it is the letter
 *   decides by Unicode, as no capital of Latin-1 or Latin Extended-A takes two of them (the consonants
 *   take U+0327, the vowels U+0328; composed by NFC and kept in U+00C0-U+017F, glyph-marks.ts withMark's
 *   range; normalize.ts NAME_LETTERS keeps them in a name).
 * Under an S or a T a mark standing apart from its letter is a comma below (Romanian Ș Ț, U+0218 U+021A,
 * twentieth round: final18's ȘTEFĂNESCU, ȚURCANU were written "ŞTEFĂNESCU", "ŢURCANU"); one drawn on
 * to it a cedilla (Ş Ţ) or a comma the blur joined, which the ink does not tell (COMMA_BELOW).
 * A small round blob standing apart from a vowel and centred under it is the Vietnamese dot below (Ạ Ệ Ọ,
 * twenty-second round: final20's PHẠM read "PHAM" at 0.895 or written "PHĄM"; dotBelowLetter), composed with
 * the mark the letter was read with (Ặ for "Ă"); where the capitals run together (glyph-marks.ts meanSpans)
 * only such a dot is taken. Since the twenty-seventh round (final25's Igbo Ị Ọ Ụ) a dot a blur joined to an O
 * is taken too (O takes no other mark below), and one joined to another vowel doubts a run-together word.
 * A letter given a mark here is one the model cannot write: the word's confidence is kept at most
 * INK_LETTER_CAP. A mark below a letter that takes none (or a C, whose Ç the model writes itself, read
 * plain) only doubts the word (confidence at most INK_LETTER_CAP). Pure functions on a gray page.
 */
import { INK_LETTER_CAP } from './glyph-accent.js';
import { blobs, otsu, wordGlyphs, type Blob, type Gray } from './glyph-i.js';
import { JUDGED_LETTER, letterSpans, meanSpans } from './glyph-marks.js';
import { mendForeignMarks } from './glyph-foreign.js';
import { mendFaintMarks } from './glyph-faint-mark.js';
import { flagPlainAo } from './glyph-plain-ao.js';
import { mendShortWords } from './word-tail-ink.js';
import { mendOwnLetters } from './glyph-own.js';
import { mendBodyLetters } from './glyph-body.js';
import { mendOpenLetters } from './glyph-open.js';
import { mendBarredI } from './glyph-barred-i.js';
import type { OcrWord } from './words.js';

/** A mark below starts at most this share of the letters' height under their baseline (touching or just under)... */
export const BELOW_GAP = 0.2;
/** ...reaches at least this share (and 3 px) under it (a tilted page's foot dips 1-2 px)... */
export const BELOW_MIN_DEPTH = 0.15;
/** ...ends within this share under it (commas and ogoneks measured 0.2-0.4 of 18-34 px capitals)... */
export const BELOW_REACH = 0.5;
/** ...and is at most this share of the letters' height wide (an underline or a rule is wider). */
export const BELOW_MAX_WIDTH = 0.5;

/**
 * Under this letter height (px) nothing is looked at: a mark below is a few pixels, a speck's size
 * (values' capitals on the cards are 13-21 px high; a comma under 15 px capitals is 4-5 px tall).
 */
export const BELOW_MIN_LETTER_HEIGHT = 14;

/** Fewest letters of a word judged (belowReading): shorter ones are codes and particles. */
export const BELOW_MIN_LETTERS = 3;

/** The combining marks below, in the order they are tried: cedilla/comma (consonants), ogonek (vowels). */
const BELOW_MARKS = ['\u0327', '\u0328'];

/** The capital `base` with the one mark below Unicode gives it in Latin-1 or Extended-A, or undefined. */
export function belowLetter(base: string): string | undefined {
  for (const m of BELOW_MARKS) {
    const c = (base + m).normalize('NFC');
    if ([...c].length !== 1) continue;
    const code = c.codePointAt(0)!;
    if (code >= 0xc0 && code <= 0x17f) return c;
  }
  return undefined;
}

/**
 * The Romanian letters with a comma below (Latin Extended-B: Ș U+0218, Ț U+021A), by base: written for a
 * mark below an S or a T that stands apart from its letter (BelowMark `joined` false). A cedilla (Turkish
 * Ş, the old Romanian Ş Ţ) is drawn on to its letter, a comma below stands under it with paper between.
 * Measured on words drawn in eight DejaVu and Liberation faces at 22 and 28 px, plain and bold, clean and
 * blurred 0.8-1.2 px at JPEG 40: cedillas under S (ŞTEFAN, GÜNEŞ, ŞİMŞEK) joined in all 373 found;
 * under T (ŢURCANU) joined but in Liberation Mono, clean (4 of 96, its cedilla drawn apart); commas
 * (ȘTEFAN, ȚURCANU, DRAGOȘ) apart in 161 of 273, joined by the blur in the others (those keep the
 * cedilla: the two are not told apart then, and the word's confidence is capped all the same).
 */
export const COMMA_BELOW: Record<string, string> = { S: '\u0218', T: '\u021a' };

/** The ink under one letter: the blob hanging below its baseline (px inside the letter's columns). */
export interface BelowMark { letter: number; mark: Blob; depth: number; joined: boolean; dot?: boolean; dotJoined?: boolean }

/** A dot below is at most this share of the letters' height wide and tall (an ogonek's hook, a comma's tail reach 0.2-0.4 down)... */
export const DOT_BELOW_MAX_SIZE = 0.3;
/** ...at most this many times as wide as tall or as tall as wide, and centred in the middle DOT_BELOW_MIDDLE of its letter's columns. */
const DOT_BELOW_MAX_ASPECT = 2;
/** A dot below joined to its letter by a blur is at most this share of the letters' height tall (the bridge's rows counted). */
const DOT_JOINED_MAX_HEIGHT = 0.4;
/**
 * A letter read plain whose joined dot below the ink shows (twenty-seventh round: final25's Igbo Ọ): O takes
 * no ogonek or cedilla in Latin-1 or Extended-A, so a round mark centred under it is the dot (Ọ); under U,
 * I, E, A (Ų Į Ę Ą take an ogonek) it only doubts the word where the letters run together.
 */
const DOT_ONLY = 'O';
const DOT_BELOW_MIDDLE = 0.5;

/**
 * The Vietnamese vowels with a dot below (U+0323: Ạ Ặ Ậ Ẹ Ệ Ị Ọ Ộ Ợ Ụ Ự Ỵ), by the letter read (plain, or
 * with the breve, roof or horn the dot stacks under); undefined for any other letter.
 */
export function dotBelowLetter(c: string): string | undefined {
  const base = c.normalize('NFD')[0];
  if (!'AEIOUY'.includes(base)) return undefined;
  const d = (c + '\u0323').normalize('NFC');
  return [...d].length === 1 ? d : undefined;
}

/** Least pixels of a loose speck counted as grain under a word (belowMarks `specks`). */
const SPECK_MIN_PX = 2;

/**
 * The marks hanging under a capital word's letters (`n` letters), by letter index; undefined when the
 * word's glyphs do not pair with its letters or its type is under BELOW_MIN_LETTER_HEIGHT. Also the letters'
 * height, whether the letters were placed by meanSpans (`byMean`), and `specks`: loose ink in the same band (touching neither the letters nor the band's floor, at
 * least SPECK_MIN_PX, within the word and not its trailing punctuation) that is no mark (under no letter, or
 * of no mark's size or place): a noisy or dark frame's grain, where ink under a letter is no evidence of a
 * mark (final12 #57, low light: grain under FACUNDO and LIMACHI read as an ogonek and commas).
 */
export function belowMarks(g: Gray, w: Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'>, n: number): { marks: BelowMark[]; letterH: number; specks: number; byMean: boolean } | undefined {
  const glyphs = wordGlyphs(g, w);
  const paired = glyphs.length ? letterSpans(glyphs, n) : undefined;
  const spans = paired ?? (glyphs.length ? meanSpans(glyphs, n) : undefined);
  if (!spans) return undefined;
  const heights = glyphs.map((b) => b.y1 - b.y0 + 1).sort((a, b) => a - b);
  const letterH = heights[Math.floor(heights.length / 2)];
  if (letterH < BELOW_MIN_LETTER_HEIGHT) return undefined;
  const feet = glyphs.map((b) => b.y1);
  // The baseline at glyph k: the median foot of up to two neighbours each side (its own left out: an
  // ogonek joined to its letter lowers its foot).
  const baseAt = (k: number): number => {
    const near = feet.filter((_, j) => j !== k && Math.abs(j - k) <= 2).sort((a, b) => a - b);
    return near.length ? near[Math.floor(near.length / 2)] : feet[k];
  };
  const bases = glyphs.map((_, k) => baseAt(k));
  const x0 = Math.max(0, glyphs[0].x0 - 1), x1 = Math.min(g.width - 1, glyphs[glyphs.length - 1].x1 + 1);
  const top = Math.min(...bases) + 1, bottom = Math.min(g.height - 1, Math.max(...bases) + Math.ceil(BELOW_REACH * letterH) + 1);
  if (bottom - top < 3) return undefined;
  const t = otsu(g, x0, Math.min(...glyphs.map((b) => b.y0)), x1, bottom);
  const minDepth = Math.max(3, BELOW_MIN_DEPTH * letterH);
  const out: BelowMark[] = [];
  const last = spans[spans.length - 1];
  // One blob of the band: pushed to `out` when it is a mark under a letter; else true when it is a loose speck.
  const markOf = (b: Blob): boolean => {
    const cx = (b.x0 + b.x1) / 2;
    const loose = b.y0 > top && b.y1 < bottom && b.px.length >= SPECK_MIN_PX && cx < last.x1 - (last.x1 - last.x0) / 4;
    if (b.px.length < 5 || b.y1 >= bottom) return loose;
    const i = spans.findIndex((s) => s.x0 <= cx && cx <= s.x1);
    if (i < 0) return loose;
    const s = spans[i], base = bases[s.glyph];
    // Only the ink under this letter's baseline counts: a blob cut at the band's top whose rows lie at
    // or above it is the letter's own foot.
    const depth = b.y1 - base;
    if (depth < minDepth || b.y0 - base > BELOW_GAP * letterH || b.y1 - base > BELOW_REACH * letterH) return loose;
    if (b.x1 - b.x0 + 1 > BELOW_MAX_WIDTH * letterH || b.x0 < s.x0 - 2 || b.x1 > s.x1 + 2) return loose;
    // Ink centred in the last letter's right quarter is taken for the word's own punctuation (a town's
    // comma before its state, set tight, whose head stands beside the letter: final16 #24's
    // "MASSARANDUBA," made "MASSARANDUBĄ," before this); an ogonek at a word's end (rare in names) is lost.
    if (i === spans.length - 1 && cx >= s.x1 - (s.x1 - s.x0) / 4) return false;
    // Joined: its top row touches ink right above it (an ogonek or cedilla drawn on to its letter, and a
    // J's or Q's own tail in DejaVu Sans).
    const joined = b.px.some((p) => {
      const y = Math.floor(p / g.width), x = p % g.width;
      return y === b.y0 && y > 0 && [-1, 0, 1].some((dx) => x + dx >= 0 && x + dx < g.width && g.data[(y - 1) * g.width + x + dx] <= t);
    });
    // A dot below (Vietnamese Ạ Ệ Ọ): a small round blob standing apart from its letter, centred under it
    // (an ogonek hangs from the letter's right foot, a comma's and a cedilla's tail are taller than wide).
    const mw = b.x1 - b.x0 + 1, mh = b.y1 - b.y0 + 1, side = (1 - DOT_BELOW_MIDDLE) / 2 * (s.x1 - s.x0);
    const dot = !joined && mw <= DOT_BELOW_MAX_SIZE * letterH && mh <= DOT_BELOW_MAX_SIZE * letterH && mw <= DOT_BELOW_MAX_ASPECT * mh
      && mh <= DOT_BELOW_MAX_ASPECT * mw && cx >= s.x0 + side && cx <= s.x1 - side;
    // The same dot that a blur joined to its letter (Ọ Ụ drawn at 20-28 px blurred 0.8-1.2 px: 3-6 px wide,
    // 3-6 tall, centred): one shape with an ogonek joined to a U or an I, which no size tells.
    const dotJoined = joined && mw <= DOT_BELOW_MAX_SIZE * letterH && mh <= DOT_JOINED_MAX_HEIGHT * letterH && mw <= DOT_BELOW_MAX_ASPECT * mh
      && mh <= DOT_BELOW_MAX_ASPECT * mw && cx >= s.x0 + side && cx <= s.x1 - side;
    out.push({ letter: i, mark: b, depth, joined, dot, dotJoined });
    return false;
  };
  let specks = 0;
  for (const b of blobs(g, x0, top, x1, bottom, t)) if (markOf(b)) specks++;
  return { marks: out, letterH, specks, byMean: !paired };
}

/**
 * Each letter of a capital word (a trailing comma left out) given the mark below its ink shows
 * (belowLetter of its base), by index, and whether ink of a mark's size and place hangs under a letter
 * that takes no such mark or that the model could have written with it (C, read plain: Ç): `doubt`.
 */
export function belowReading(g: Gray, w: OcrWord): { letters: Map<number, string>; doubt: boolean } {
  const out = new Map<number, string>();
  const chars = [...w.text.replace(/,$/, '')];
  // Words of one or two letters are the card's codes (a category AC, a state SC) or a name's particle:
  // no mark below is written or doubted on them (final13 #69: category "AC" doubted by ink under its C,
  // then read "A").
  if (chars.length < BELOW_MIN_LETTERS || chars.some((c) => !JUDGED_LETTER.test(c))) return { letters: out, doubt: false };
  // A word read with a trailing comma: its last letter's ink below may be that comma.
  const found = belowMarks(g, w, chars.length);
  if (!found) return { letters: out, doubt: false };
  // Letters placed by meanSpans (capitals run together): only a dot below is taken there, nothing doubted.
  if (found.byMean) {
    let doubt = false;
    if (found.specks === 0) for (const m of found.marks) {
      const c = chars[m.letter], d = m.dot || (m.dotJoined && DOT_ONLY.includes(c)) ? dotBelowLetter(c) : undefined;
      if (d) out.set(m.letter, d);
      // A joined round mark under another vowel (Ụ or Ų: the blur joined it) doubts the word.
      else if (m.dotJoined && dotBelowLetter(c)) doubt = true;
    }
    return { letters: out, doubt };
  }
  // Grain under the word: ink under a letter may be more of it; a mark found there only doubts the word
  // (ink drawn on to a letter that takes no mark below is still its own tail).
  if (found.specks > 0) return { letters: out, doubt: found.marks.some((m) => !m.joined || belowLetter([...chars[m.letter].normalize('NFD')][0]) !== undefined) };
  let doubt = false;
  for (const { letter: i, joined, dot } of found.marks) {
    if (i === chars.length - 1 && /,$/.test(w.text)) continue;
    const c = chars[i], base = c.normalize('NFD')[0];
    // A dot below a vowel (read plain or with the mark it stacks under: ĐẶNG read "DĂNG", PHẠM "PHAM").
    const under = dot || (found.marks.find((m) => m.letter === i)?.dotJoined && DOT_ONLY.includes(c)) ? dotBelowLetter(c) : undefined;
    if (under) { out.set(i, under); continue; }
    // A letter read with its mark below already (Ç, or given here) keeps it.
    if (/[\u0326-\u0328]/.test(c.normalize('NFD'))) continue;
    const letter = c === base && base !== 'C' ? (!joined && COMMA_BELOW[base]) || belowLetter(base) : undefined;
    if (letter) out.set(i, letter);
    // Ink drawn on to a letter that takes no mark below is its own (a J's or Q's tail); a C read plain
    // with a cedilla on it is the model's to read.
    else if (!joined) doubt = true;
  }
  return { letters: out, doubt };
}

/**
 * Words with each letter whose ink shows a mark below written with it (belowReading: SKUJIŅA for
 * "SKUJINA", ĄŽUOLAS for "AŽUOLAS"), their confidence kept at most INK_LETTER_CAP, and words with ink of
 * a mark's size under a letter that takes none kept at most INK_LETTER_CAP too, among the words `judged`
 * accepts (the caller's: value-size words); every other word as it was. Nothing is read again.
 */
export function mendBelowMarks(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!/[A-ZÀ-Þ]/.test(w.text) || !judged(w)) return w;
    const { letters, doubt } = belowReading(g, w);
    if (!letters.size && !doubt) return w;
    const comma = /,$/.test(w.text) ? ',' : '';
    const chars = [...w.text.replace(/,$/, '')];
    for (const [i, c] of letters) chars[i] = c;
    return { ...w, text: chars.join('') + comma, conf: Math.min(w.conf, INK_LETTER_CAP) };
  });
}

/**
 * The marks over and under capitals the model cannot write, read from the ink: glyph-faint-mark.ts
 * mendFaintMarks (a mark under the threshold over a plain vowel doubts its word; before it word-tail-ink.ts
 * mendShortWords: print running on past a word's box doubts it), glyph-plain-ao.ts flagPlainAo (a word
 * read -AO with blank paper over its A: printed without the tilde), glyph-foreign.ts
 * mendForeignMarks, then glyph-body.ts mendBodyLetters (a hook, tail or bar drawn into the letter: Ɓ Ɗ Ƙ
 * Ŋ Ŧ; before the marks below, so an eng's tail is not taken for a comma under an N), then glyph-barred-i.ts
 * mendBarredI (the barred Ɨ read I, E or T; before glyph-open.ts, which took such an E for an Ɛ), then glyph-open.ts
 * mendOpenLetters (letters of their own shape read as their Latin twin: Ɛ Ɔ, Ľ's stroke), then
 * mendBelowMarks, then glyph-own.ts mendOwnLetters (letters of their own: Ø Ł Ð Þ Æ),
 * among the words `judged` accepts (the page pass, a suspect's re-reading and a row's re-reading all mend
 * these, in this order).
 */
export function mendInkMarks(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return INK_MENDERS.reduce((ws, mend) => mend(g, ws, judged), words);
}

/** mendInkMarks's steps, in the order they run (each takes the words the one before it gave). */
const INK_MENDERS: ReadonlyArray<(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean) => OcrWord[]> = [
  mendShortWords, mendFaintMarks, flagPlainAo, mendForeignMarks, mendBodyLetters, mendBarredI, mendOpenLetters, mendBelowMarks, mendOwnLetters,
];
