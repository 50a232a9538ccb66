/**
 * Signs that a value was misread although the recogniser is sure of most of it (issue #17 scope 2,
 * "never answer confidently with the wrong thing"): the value's weakest word, a name that stops at a
 * particle, and an identity number with more (or fewer) characters than its printed width holds.
 * Pure functions on positioned words (words.ts).
 */
import { normalizeName } from './normalize.js';
import { editDistance, fold, median, toPhrase, type OcrWord, type Phrase } from './words.js';

// The gaps between a line's words moved to line-gaps.ts; re-exported for the modules that import them from here.
export { LINE_HOLE, lineHole, sideGaps, TIGHT_GAP, tightGap, WIDE_GAP, wideGap } from './line-gaps.js';

/** The word holds a digit (dates, numbers: the words a numeric value is made of). */
export const hasDigit = (w: OcrWord): boolean => /\d/.test(w.text);
/** The word holds a name's letters and no digit (names, towns, issuing bodies). */
export const isNameWord = (w: OcrWord): boolean => !/\d/.test(w.text) && normalizeName(w.text) !== '';

/**
 * Confidence 0..1 of a value read from `phrases`: the mean of its words' confidences and its weakest
 * word's, half each. Only the words `part` accepts count (the value's own words: a date's, not its
 * town's on the same line; a junk mark the normaliser drops does not lower the name beside it); all
 * words when it accepts none; 0 without words. The weakest is taken among words of two characters or
 * more where there are any: tesseract is less sure of a lone glyph, right or wrong (the remark code A
 * after EAR reads 0.69-0.76, right on every seen part).
 *
 * Why not the mean alone: tesseract's LSTM gives each word its path's certainty, and a misread
 * character shows in its word only (XTMENES 0.53 in "ORLANDO DE PORTELA XTMENES", mean 0.84). Its
 * symbol confidences do not show it (98-99 % on the misread T and I of final3's wrong names, and they
 * cost the JSON output). The weakest word alone put too many right values under the low-confidence
 * line (final3 +13, final2 +16 right values under 0.8, against +7 and +10 for the half-half rule).
 */
export function valueConfidence(phrases: Phrase[], part: (w: OcrWord) => boolean = () => true): number {
  const all = phrases.flatMap((p) => p.words);
  const own = all.filter(part);
  const ws = own.length ? own : all;
  if (!ws.length) return 0;
  const mean = ws.reduce((s, w) => s + w.conf, 0) / ws.length;
  const long = ws.filter((w) => w.text.length > 1);
  return (mean + Math.min(...(long.length ? long : ws).map((w) => w.conf))) / 2;
}

/**
 * A name that ends in a particle (DA, DE, DO, DAS, DOS, E): particles join a given name to a surname
 * and never end a name, so the line was read short ("QUITÉRIA TELMA DO" for QUITÉRIA TELMA DOS
 * TRINDADE PASSOS, final3 part).
 */
export const TRAILING_PARTICLE = / (DA|DE|DO|DAS|DOS|E)$/;

/**
 * A name that starts with a particle (DA, DE, DO, DAS, DOS, E): a Brazilian name starts with its given
 * name, and a particle only ever follows one, so the line's first word(s) were lost (final11 #4, a thin
 * type in perspective: "DA KEUCHGUERIAN VAN ARKEL TEN CATE" at 0.92 for HILLEGONDA DA KEUCHGUERIAN ...).
 */
export const LEADING_PARTICLE = /^(DA|DE|DO|DAS|DOS|E) /;

/**
 * How far the characters a number was read with may be from what its box holds at the card's digit
 * pitch, as a share of them. Right identity numbers of the seen parts hold 0.957-1.012 of their
 * characters at the registration number's pitch; one with a character too many holds 0.867 (final3 #8,
 * "574055581]", a frame line read as a digit).
 */
const PITCH_TOLERANCE = 0.08;

/**
 * The card's digit pitch in px: the width of the registration number (one word of 11 digits, the
 * value under its label) over 11. Digits are tabular in the card's type (every digit one advance
 * wide), and all values are printed in one size. Undefined when no such word was read.
 */
export function digitPitch(phrases: Phrase[]): number | undefined {
  const w = phrases.flatMap((p) => p.words).find((x) => /^\d{11}$/.test(x.text));
  return w ? (w.x1 - w.x0) / 11 : undefined;
}

/**
 * False when `word`, read as `chars` characters, is too narrow or too wide for them at `pitch` px per
 * character (PITCH_TOLERANCE): a digit was read that is not printed (a frame line, a speck), or one
 * that is printed was lost. True otherwise.
 */
export function widthFits(word: OcrWord, chars: number, pitch: number): boolean {
  const held = (word.x1 - word.x0) / pitch;
  return Math.abs(held / chars - 1) <= PITCH_TOLERANCE;
}

/**
 * False when the identity number `rg`'s word (the first word with a digit of the identity line's
 * phrases `idp`) is too narrow or too wide for it at the card's digit pitch (digitPitch of the phrases
 * under Nº REGISTRO, `registro`). Only a word read character for character as the number is measured
 * (no dots or dashes, which are narrower); true when nothing can be measured.
 */
export function rgWidthFits(rg: string, idp: Phrase[], registro: Phrase[]): boolean {
  const word = idp.flatMap((p) => p.words).find(hasDigit);
  const pitch = digitPitch(registro);
  return !word || !pitch || word.text.length !== rg.length || widthFits(word, rg.length, pitch);
}

/** Letters printed with a mark above them (acute, circumflex, tilde, grave, diaeresis). */
export const MARK_ABOVE = /[ÀÁÂÃÄÈÉÊËÌÍÎÏÒÓÔÕÖÙÚÛÜ]/;
/** Letters whose ink reaches under the baseline in the card's capitals (cedilla, J and Q in some types). */
const INK_BELOW = /[ÇJQ]/;
/**
 * A name word read in plain capitals whose box is this many times as tall as its line's other plain
 * words holds more ink above its letters than they do: a diacritic the recogniser did not read (an
 * acute over a capital adds a quarter to a third of the cap height; HELOÍSA read "HELOISA" in boxes
 * 1.18-1.24 x the line's plain words, final4 part; plain words of one line differ by under 10 %).
 */
export const LOST_MARK_HEIGHT = 1.12;

/** Plain capitals: letters (apostrophe, hyphen, a trailing comma) without marks above or ink below. */
const plainCaps = (w: OcrWord): boolean => /^[A-Z'-]+,?$/.test(w.text) && !INK_BELOW.test(w.text);

/**
 * Words of `phrases` (a name's or a town's line) read in plain capitals (three letters or more; a word
 * of a second look against the other words of second looks, one of the page pass against the page
 * pass's) whose box is at least LOST_MARK_HEIGHT x the
 * median height of the same phrase's other plain words, with the extra height at least as much above
 * their tops as below their bottoms: a mark above a letter was printed and not read (a lost accent, or
 * a speck the recogniser took in). Needs two such other words in the phrase; none otherwise.
 */
export function lostMarkWords(phrases: Phrase[]): OcrWord[] {
  const out: OcrWord[] = [];
  for (const p of phrases) {
    const plain = p.words.filter((w) => plainCaps(w));
    for (const w of plain) {
      if (w.text.replace(/[^A-Z]/g, '').length < 3) continue;
      // A word of a second look is measured against the words read with it (a line read again whole,
      // final12 #35: ACUNA boxed 1.18 x its line's other words, its tilde unread, all four read again),
      // never against the page pass's boxes.
      const others = plain.filter((o) => o !== w && !o.reread === !w.reread);
      if (others.length < 2) continue;
      const h = median(others.map((o) => o.y1 - o.y0));
      const top = median(others.map((o) => o.y0)), bottom = median(others.map((o) => o.y1));
      // A second look's boxes are looser (a line read again may box a word down to a lower neighbour's
      // foot, or several words up to the line's highest ink: final10 #6's ZUBKO, #86's IRENA DANUTA):
      // its word must stand above every other one by a tenth of the type or more, its extra height above its letters.
      const loose = w.reread && (w.y0 > Math.min(...others.map((o) => o.y0)) - 0.1 * h || w.y1 - bottom > 0.25 * (w.y1 - w.y0 - h));
      if (w.y1 - w.y0 >= LOST_MARK_HEIGHT * h && top - w.y0 >= w.y1 - bottom && !loose) out.push(w);
    }
  }
  return out;
}

/** Particles a name is printed with (any case): short words whose case and width say little. */
const NAME_PARTICLE = /^(DA|DE|DO|DAS|DOS|E)$/i;
/**
 * A name word whose box gives each of its letters this many times the px that the line's other words
 * give theirs swallowed ink it did not read: letters or a whole word ("BERTOLUCC!" boxed over
 * BERTOLUCCI ABRAÃO, 30 px a letter where the line's other words take 16-17: final6 #24). Capitals of
 * one type differ by far less on a word's average (I and M are the extremes).
 */
export const WIDE_WORD = 1.5;
/**
 * A word with letters and a character no printed name holds (a trailing comma aside): capitals, accents,
 * apostrophes, hyphens and the "!" normalizeName reads as I are a name's; a colon, bracket, comma inside,
 * digit-like mark or symbol is ink read as something else (a stain read into it: "PANTO],", "NAS:", "JA€").
 */
export const markedNameWord = (t: string): boolean => /[A-Za-zÀ-ÿ]/.test(t) && /[^A-Za-zÀ-ÖØ-öø-ÿ'\-!]/.test(t.replace(/,$/, ''));

/** A digit between two letters of one word: no name is printed so (misreadNameWords). */
const INNER_DIGIT = /\p{L}\d+\p{L}/u;

/**
 * Words of a name's line (`phrases`) that say the name was misread though read sure: a word with a digit
 * between its letters (INNER_DIGIT), a word of three
 * letters or more read with small letters (the card prints names in capitals: RICCI read "RI cer",
 * final6 #47), or one whose box is WIDE_WORD x or more as wide per letter as the median of the line's
 * other words of three letters or more (needs two of them). Particles are not measured.
 */
export function misreadNameWords(phrases: Phrase[]): OcrWord[] {
  const out: OcrWord[] = [];
  for (const p of phrases) {
    // A digit between a word's letters: a letter read as a digit (Ə read 9: "MOMM9DOV" at 0.42, final21
    // #25, whose name then scored 0.913 on its other words, isNameWord leaving this one out).
    out.push(...p.words.filter((w) => INNER_DIGIT.test(w.text)));
    const ws = p.words.filter((w) => /[A-Za-zÀ-ÿ]/.test(w.text) && !/\d/.test(w.text) && !NAME_PARTICLE.test(w.text));
    const letters = (w: OcrWord): number => w.text.replace(/[^A-Za-zÀ-ÿ!|]/g, '').length;
    for (const w of ws) {
      if (letters(w) >= 3 && /[a-zß-ÿ]/.test(w.text)) { out.push(w); continue; }
      // A mark no name is printed with, inside or after its letters ("NAS:" for NASSAR at a stain's
      // edge, 0.96: final8 #76; "PANTO]," for PANTOJA RIOS): ink the word did not read as letters.
      if (markedNameWord(w.text)) { out.push(w); continue; }
      const others = ws.filter((o) => o !== w && letters(o) >= 3);
      if (others.length < 2 || letters(w) < 3) continue;
      const per = median(others.map((o) => (o.x1 - o.x0) / letters(o)));
      if ((w.x1 - w.x0) / letters(w) >= WIDE_WORD * per) out.push(w);
    }
  }
  return out;
}

/**
 * Words of a name value with no vowel (A E I O U Y, with or without a mark): no name part is spelt
 * without one (particles included), so such a word is what is left of a word that lost letters under
 * a fold or a speck, its rest read as another word ("KR PA" for KRUPA, the U under a crease: final10
 * #73; "K LOWSKI" for KOSLOWSKI, #6).
 */
export function vowellessWords(valor: string): string[] {
  return valor.split(/[\s,]+/).filter((t) => /[A-Z]/.test(fold(t)) && !/[AEIOUY]/.test(fold(t)));
}

/**
 * Words of a name value that open with a liquid (L, R) before another consonant ("LDIKÓ" for ILDIKÓ at
 * 0.908, the narrow I lost in a screenshot's serif type: final16 #38). A syllable's sounds rise in
 * sonority to its vowel, so a word does not open with L or R and then a stop or a fricative; the
 * spellings that do (LL, LH, LJ, LV as in LLOYD, LJUBICA, LVOV; RH as in RHODES) are left out. Such a
 * word lost its first letter (an I, a J, a vowel): its name is in doubt. Georgian names that open so
 * (RTVELADZE) only come back under the low line.
 */
export function headlessWords(valor: string): string[] {
  return valor.split(/[\s,]+/).filter((t) => /^(L[^AEIOUYLHJV\s]|R[^AEIOUYH\s])/.test(fold(t)));
}

/**
 * Letters from which a name word is taken for two words whose space was lost. The longest surnames in
 * use run to about 14 letters (KHATCHADOURIAN, SCHWARZENBERG, KYRIAKOPOULOS); two surnames read as one
 * word (final10 #69: "WYSOCKIBOHATCHUK", 16, read at 0.85 once the stamp over it was lifted) are longer.
 * A rare long name (a Greek -OPOULOS of 16 letters or more) only comes back under the low line.
 */
export const JOINED_WORD_LETTERS = 16;

/** Words of a name value of JOINED_WORD_LETTERS letters or more: two words read as one, in doubt. */
export function joinedWords(valor: string): string[] {
  return valor.split(/[\s,]+/).filter((t) => fold(t).replace(/[^A-Z]/g, '').length >= JOINED_WORD_LETTERS);
}

/** A name's last word boxed this many times as tall as the name's other words is no type of the name (tallStray). */
export const STRAY_HEIGHT = 1.5;

/**
 * The last word of a name's row (`ps`) when it is a mark read as letters, not a word of the name: one
 * or two letters boxed STRAY_HEIGHT x or more as tall as the median of the row's other words (two or
 * more) and apart from them by more than its own height (final12 #47: "NS" at 0.65, 39 px high after
 * VILLANUEVA's 21, 76 px right of it: the photo's or a stamp's edge). A name's short words (XU, WU,
 * DA) are printed in the name's type, a space apart.
 */
export function tallStray(ps: Phrase[]): OcrWord | undefined {
  const ws = ps.flatMap((p) => p.words).sort((a, b) => a.x0 - b.x0);
  if (ws.length < 3) return undefined;
  const last = ws[ws.length - 1], others = ws.slice(0, -1);
  const h = median(others.map((w) => w.y1 - w.y0)), lh = last.y1 - last.y0;
  const short = last.text.replace(/[^A-Za-zÀ-ÿ]/g, '').length <= 2;
  return short && lh >= STRAY_HEIGHT * h && last.x0 - others[others.length - 1].x1 > lh ? last : undefined;
}

/**
 * A name's phrases `ps` without their stray mark (tallStray), phrases left empty dropped; `dropped`: a mark
 * was found and left out (the caller keeps the name under the low-confidence line: it may hide letters).
 */
export function withoutStray(ps: Phrase[]): { phrases: Phrase[]; dropped: boolean } {
  const stray = tallStray(ps);
  if (!stray) return { phrases: ps, dropped: false };
  return { phrases: ps.map((p) => (p.words.includes(stray) ? toPhrase(p.words.filter((w) => w !== stray)) : p)).filter((p) => p.words.length), dropped: true };
}

/**
 * Whether a name's line (`line`) ends in a lone capital read as a letter of the name: one letter (other
 * than the particles E, A, O, which normalize.ts keeps), sized like the line's other words (0.8-1.25 x
 * their median height) and a space after the last of them (at most one type height): the first letter
 * of a word whose rest was not read (final12 #57: "YUNA MILAGROS C" at 0.91, CASTILLO KANG printed; the
 * lone C is dropped as a stray letter and the name read sure). The name lost its end.
 */
export function cutAtEnd(line: Phrase): boolean {
  const ws = [...line.words].sort((a, b) => a.x0 - b.x0);
  if (ws.length < 3) return false;
  const last = ws[ws.length - 1], others = ws.slice(0, -1);
  if (!/^[B-DF-NP-Z]$/.test(last.text)) return false;
  const h = median(others.map((w) => w.y1 - w.y0)), lh = last.y1 - last.y0;
  return lh >= 0.8 * h && lh <= 1.25 * h && last.x0 - others[others.length - 1].x1 <= h;
}

/** A mark this many times as tall as a name's line that spans its middle covers it, wherever its own middle is (markOverName). */
const SPANNING_MARK = 2;
/** How far (in the line's type heights) after a name's word a mark still touches its end (about one letter's advance and a space). */
const END_MARK_REACH = 1.5;

/**
 * Whether an unsure word (under 0.5) taller than the type (1.2 x the line's) stands on a name's line
 * (`line`) from its first word's end to END_MARK_REACH type heights after its last: a mark over the
 * name (a stamp's border, a crease) that hid letters of it (final10 #25: "SZYMANS" for SZYMANSKI, the
 * stamp's border read "!" at 0.14, 1.85 x the type, 27 px after it). Looked for among the line's own
 * words and those of every phrase (`phrases`). The name is in doubt.
 */
export function markOverName(line: Phrase, phrases: Phrase[]): boolean {
  const named = line.words.filter((w) => /[A-Za-zÀ-ÿ]{2}/.test(w.text));
  if (!named.length) return false;
  const h = line.h, cy = (line.y0 + line.y1) / 2;
  const from = named[0].x1 - 0.2 * h, to = named[named.length - 1].x1 + END_MARK_REACH * h;
  // Centred on the line, or a mark far taller than it spanning its middle (final14 #25: "sic" at 0.16,
  // 88 px tall over a 22 px name whose end, KNAPPE LEHMKUHL, it hid; "KNA" read at 0.92).
  const over = (w: OcrWord): boolean => Math.abs((w.y0 + w.y1) / 2 - cy) < 0.5 * h || (w.y1 - w.y0 > SPANNING_MARK * h && w.y0 < cy && w.y1 > cy);
  return [...line.words, ...phrases.flatMap((q) => q.words)].some((w) => w.conf < 0.5 && w.y1 - w.y0 > 1.2 * h && w.x0 > from && w.x0 < to && over(w));
}

/**
 * A name word read in plain capitals whose box is this many times as tall as the line's other plain
 * words took in ink above and below its letters: a blurred word read together with what lies over or
 * under it, its letters in doubt (final11 #79: "MULE" for MULDER boxed 36 px on a line of 21-23 px
 * words, read at 0.78, the name at 0.831). A lost accent makes a word 1.12-1.25 x as tall
 * (LOST_MARK_HEIGHT); a mark above and a cedilla below are not plain capitals.
 */
export const TALL_WORD = 1.4;
/**
 * ... when read under this: a tall box alone happens to words read right (final11 #57's BERENDINA, 0.92,
 * boxed with a shadow under it at 1.8 x its line); tall and unsure, the word's letters are in doubt.
 */
export const TALL_WORD_SURE = 0.85;

/**
 * Words of `phrases` (a name's line) in plain capitals of three letters or more, read under
 * TALL_WORD_SURE, whose box is at least TALL_WORD x the median height of the line's other plain words (two of them needed). Second looks'
 * words are measured too: those boxed as their line (second-looks.ts) are never taller than it.
 */
export function tallNameWords(phrases: Phrase[]): OcrWord[] {
  const plain = phrases.flatMap((p) => p.words).filter(plainCaps);
  return plain.filter((w) => {
    const others = plain.filter((o) => o !== w);
    return w.conf < TALL_WORD_SURE && w.text.replace(/[^A-Z]/g, '').length >= 3 && others.length >= 2 && w.y1 - w.y0 >= TALL_WORD * median(others.map((o) => o.y1 - o.y0));
  });
}

/** Words a Dutch or German DER follows in a name (VAN DER MEER, VON DER LEYEN, IN DER SMITTEN, OP DER BEEK, UIT DER ...). */
const BEFORE_DER = /^(VAN|VON|IN|OP|UIT|AUF|AAN|VOR|VOM|UNTER|ZUR|AM)$/;

/**
 * Whether a name value holds DER not after the word it follows in names (BEFORE_DER): DER is the
 * article of a compound particle and does not stand alone in Dutch or German names, so the word before
 * it was lost (final11 #80: "JANNA MARGRIET DER VINNE TCHAKERIAN" for VAN DER VINNE, 0.908; VAN was
 * read, boxed inside MARGRIET's box). DEN is not looked at: it stands alone in Dutch names (DEN UYL,
 * DEN HARTOG).
 */
export function orphanDer(valor: string): boolean {
  const t = fold(valor).split(/\s+/);
  return t.some((w, i) => w === 'DER' && !BEFORE_DER.test(t[i - 1] ?? ''));
}

/** A number's word boxed this many times as tall as its line's other words holds a mark taller than the type (edgeMarkedNumber). */
export const EDGE_MARK_HEIGHT = 1.5;

/**
 * Whether the identity line's number (the first word with a digit of `idp`) starts with a bar or
 * bracket ("|", "[", "]", "!": normalize.ts reads it as a 1) glued to its digits: 'tall' when the word
 * is boxed EDGE_MARK_HEIGHT x the median height of the line's other words or more (the mark reaches far
 * past the type: a frame line or the card's edge, final14 #13 "[446131280" boxed 51 px beside "SSP SC"
 * of 21, the number 446131280), 'type' when not (a 1 or a mark, the ink cannot tell), undefined when
 * the number starts otherwise.
 */
export function edgeMarkedNumber(idp: Phrase[]): 'tall' | 'type' | undefined {
  const ws = idp.flatMap((p) => p.words);
  const word = ws.find(hasDigit);
  if (!word || !/^[|[\]!]\d/.test(word.text)) return undefined;
  const others = ws.filter((w) => w !== word).map((w) => w.y1 - w.y0);
  return others.length && word.y1 - word.y0 >= EDGE_MARK_HEIGHT * median(others) ? 'tall' : 'type';
}
