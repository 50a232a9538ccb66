/**
 * Marks the Portuguese model cannot write, read from their ink over letters it read plain or with another
 * mark (issue #17, fifteenth round). The model's LSTM unicharset (tessdata 4.0.0 por, the npm package
 * @tesseract.js-data/por) holds these capitals with a mark and no others: Á À Â Ã Ç É Ê Í Ó Ô Õ Ú. Names
 * from abroad on a CNH carry more: a grave (È Ì Ò Ù: final13's MARIÈME, NADÈGE, YOLÈNE), two dots (Ä Ë
 * Ï Ö Ü Ÿ), a ring (Å), a tilde over an N (Ñ: glyph-tilde-n.ts). The recogniser gives the nearest letter
 * it has (YOLÈNE read "YOLENE" at 0.913) and is sure of it. glyph-accent.ts mends a mark read as another
 * (MARIÈME read "MARIÊME"); this looks at each letter's glyph, paired one to one with the word's letters
 * (glyph-i.ts wordGlyphs), and at the blobs of ink just above it (glyph-accent.ts markInk):
 * - one stroke of an acute's size falling to the right (markSlant <= -SLANT_CLEAR) over a plain E, I, O,
 *   U: a grave (È Ì Ò Ù; À the model writes);
 * - two dots side by side (each small, about as wide as tall, not slanted, at one height) over a vowel
 *   or Y, read plain or with any mark: a diaeresis;
 * - one round blob with a hole over an A, or joined to its apex (ringOnTop): a ring (Å);
 * - since the eighteenth round, any mark glyph-marks.ts markClass names by its shape (a caron's v, a ring,
 *   a double acute's two leaning strokes, an acute over a letter the model writes no acute on, a dot, a
 *   macron, a roof over a letter the model writes none on), composed with the letter by Unicode: final16's
 *   DOLEŽAL, ČERNÝ, DVOŘÁK, RŮŽIČKA, KŐRÖSI read "DOLEZAL", "CERNY", "DVORÁK", "RÚZICKA", "KÓRÖSI" at
 *   0.81-0.93. Over a letter read with a mark only a letter the model cannot write, of a class it has no
 *   mark for (caron, breve, ring, double acute: Ě for "É", Ů for "Ú", Ő for "Ó" or "Ö"); a flat bar over
 *   A, O or N (a tilde's too) gives none. Glyphs are paired with letters by letterSpans (two touching
 *   capitals, one blob twice as wide, hold two letters).
 * Every blob over the word must belong to a letter read with a mark or given one here, or be a mark
 * whose class its shape does not tell standing clear of and centred over a plain letter (the word is then
 * doubted): other ink over a plain letter is print or dirt, not marks, and nothing is taken then. No mark (none above) is never
 * taken to strip a read one: a mark can merge with its letter or fade under the threshold. A letter
 * written here is one the model cannot write, so the ink's word alone does not make it sure: the word's
 * confidence is kept at most INK_LETTER_CAP. Since the twenty-second round: an E read with a mark (or a
 * G under ink) whose body is a C's (cBody) is judged as a C (Ć Č read "É", "Ğ"; "ÉÓ" over one glyph too,
 * oneGlyphPair), a tone mark stacked on a roof or a breve is composed (stackedOver, stackedInk: Ầ Ấ Ề Ế
 * Ồ Ố Ằ Ắ), and where most capitals run together their letters are placed by the mean width
 * (glyph-marks.ts meanSpans), only marks over a letter with a glyph of its own judged. Pure functions on
 * a gray page. Since the twenty-third round: a dot over a G, C, Z or E read plain is written on small type too
 * (SMALL_DOTTED: Maltese Ġ Ċ Ż), a round level blob too big for a dot over an I read "Í" makes İ (a bold face's
 * dot, BIG_DOT), and over letters placed by the mean width a mark must stand over its glyph's middle half.
 * Since the twenty-fourth round: on small type a mark seen over a letter read plain and not written there
 * doubts the word (a mark the reading dropped: NHAMUNDÁ read "NHAMUNDA," sure); cBody moved to glyph-c-body.ts.
 * Since the twenty-fifth round: one blob that is a wave by its gray levels (glyph-tilde.ts) over a letter read
 * plain or with a roof gives its base with a tilde (KUARAHỸ read "KUARAHY"), on small type too.
 */
import {
  ACUTE_MAX_ASPECT, ACUTE_MAX_WIDTH, BASE_OF, GRAVE, INK_LETTER_CAP, MARK_MAX_HEIGHT, MIN_LETTER_HEIGHT, MODEL_MARKED, SLANT_CLEAR, SLANT_FLAT,
  markInk, markSlant, type MarkInk,
} from './glyph-accent.js';
import { wordGlyphs, type Blob, type Gray } from './glyph-i.js';
import { dotsReading } from './glyph-dots.js';
import { cBody, openRight } from './glyph-c-body.js';
import { BREVE_MIN_DEPTH, JUDGED_LETTER, NEAR, binarySlant, meanSpans, cupDepth, flatBar, holed, letterSpans, markClass, markSized, markedLetter, ringSized, vLetter } from './glyph-marks.js';
import { isWave, risesLikeStack, tildeLetter } from './glyph-tilde.js';
import { caronVowel, tildeOrCaron } from './glyph-caron.js';
import type { OcrWord } from './words.js';

// cBody and openRight moved to glyph-c-body.ts; re-exported for the modules that import them from here.
export { cBody, openRight };

/** Capitals with two dots above, by base letter. */
const DIAERESIS: Record<string, string> = { A: 'Ä', E: 'Ë', I: 'Ï', O: 'Ö', U: 'Ü', Y: 'Ÿ' };
/** Capitals with a ring above, by base letter. */
const RING: Record<string, string> = { A: 'Å' };
/** The letters read for a base letter with a mark: the base itself, with the model's marks or these. */
const BASE: Record<string, string> = {
  ...Object.fromEntries(Object.entries(BASE_OF).map(([c, { base }]) => [c, base])),
  ...Object.fromEntries([GRAVE, DIAERESIS, RING].flatMap((t) => Object.entries(t).map(([b, c]) => [c, b]))),
};
const baseOf = (c: string): string => BASE[c] ?? c.normalize('NFD')[0];

/** A dot is at most this share of its letter's height wide or tall (measured: 0.1-0.2 at 24-34 px)... */
const DOT_MAX_SIZE = 0.3;
/** ...at most this many times as wide as tall, or as tall as wide... */
const DOT_MAX_ASPECT = 2;
/** ...and the two dots' centres are at most this share of the letter's height apart in height. */
const DOTS_MAX_RISE = 0.15;

/**
 * The mark the ink over one glyph shows that the model cannot write, for a letter read as `c`, from the
 * blobs above that glyph (`mine`, left to right) over letters `letterH` px high whose top is `top`
 * (`letter`), and whether the ink over a plain E, I, O, U is a stroke of a grave's size that leans down
 * to the right but not clearly (markSlant between -SLANT_CLEAR and -SLANT_FLAT): `doubt`, the word not
 * to be read sure (final13 #56: YOLÈNE's grave at -0.24 on a low-light page's second reading, "YOLENE"
 * at 0.92).
 */
function foreignInk(g: Gray, c: string, mine: Blob[], letterH: number, top: number, small = false): { letter?: string; doubt?: boolean } {
  const base = baseOf(c);
  const size = (b: Blob): [number, number] => [b.x1 - b.x0 + 1, b.y1 - b.y0 + 1];
  // One blob that is a wave by its gray levels (glyph-tilde.ts isWave) over a letter read plain or with
  // another mark: its base with a tilde (twenty-fifth round: Guarani's KUARAHỸ read "KUARAHY" at 0.833,
  // TAJẼ made "TAJĒ" where a 2-row tilde's threshold reads level); the word is capped by the caller.
  // Not over an N: Ñ is glyph-tilde-n.ts's (mendTildeN runs after this), and other ink over a plain
  // letter beside it still leaves the word as read here (MUÑOZ read MUNOZ under a stray grave).
  // Over a letter read with a mark, not where the blob rises like a roof with a tone stacked on it (Ế run
  // into one blob: glyph-tilde.ts risesLikeStack), and under an acute or a grave read only over a letter
  // that takes no double acute (a double acute run into one blob, KŐRÖSI read "KÓRÖSI", leaves a wave too).
  const markRead = c !== base && (BASE_OF[c]?.mark === 'circumflex' || !markedLetter(base, 'doubleAcute'));
  // A v over a letter read with a tilde (Pinyin's Ǎ read "Ã"): glyph-caron.ts, before the wave's test
  // (twenty-eighth round).
  const vee = mine.length === 1 ? tildeOrCaron(g, c, base, mine[0]) : undefined;
  if (vee) return vee;
  const waved = base !== 'N' && mine.length === 1 && (c === base || (markRead && !risesLikeStack(g, mine[0]))) && isWave(g, mine[0], letterH) ? tildeLetter(base) : undefined;
  if (waved) return waved === c ? {} : { letter: waved };
  // A dot over an I read "Í", and any dot on small type, must lie level by the gray levels
  // (SMALL_DOT_MAX_SLANT): a 3 x 3 px acute blurred leans as little as 0.09 (final7 #74: URUÇUÍ made
  // "URUÇUİ" before this).
  if ((small || c === 'Í') && markClass(g, mine, letterH, top) === 'dot' && markSlant(g, mine[0], top) >= SMALL_DOT_MAX_SLANT) return {};
  // The mark's class by its shape (glyph-marks.ts), and the letter it makes with the glyph's base: over a
  // letter read plain any letter Unicode has (DOLEŽAL for "DOLEZAL", ČERNÝ for "CERNY"); over one read
  // with a mark only a letter the model cannot write, of a class it has no mark for (Ě for "VANÉK", Ů for
  // "RÚZICKA", Ő for "KÓRÖSI"): the marks it writes are glyph-accent.ts's.
  const cls = markClass(g, mine, letterH, top);
  const letter = cls ? markedLetter(base, cls) : undefined;
  // Two dots keep the fifteenth round's test whatever markClass says, unless it saw a double acute
  // (final14's STRÖHER read "STRÔHER" was lost when the diaeresis waited on markClass).
  if (mine.length === 2 && DIAERESIS[base] && cls !== 'doubleAcute') {
    // Two dots keep glyph-foreign's own test (each level by the gray levels too).
    const dot = (b: Blob): boolean => {
      const [w, h] = size(b);
      return w <= DOT_MAX_SIZE * letterH && h <= DOT_MAX_SIZE * letterH && w <= DOT_MAX_ASPECT * h && h <= DOT_MAX_ASPECT * w
        && Math.abs(markSlant(g, b, top)) < SLANT_CLEAR;
    };
    const [a, b] = mine;
    const rise = Math.abs((a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
    return dot(a) && dot(b) && a.x1 < b.x0 && rise <= DOTS_MAX_RISE * letterH ? { letter: DIAERESIS[base] } : {};
  }
  // A flat bar over an A, O or N is a tilde as well as a macron (a 2-row wave reads level): no letter,
  // unless its gray levels lie on one line too (flatBar: no drawn tilde did; LĀCIS read "LÃCIS" at 0.897).
  if (cls === 'macron' && 'AON'.includes(base) && !flatBar(g, mine[0], letterH)) return {};
  // A roof over a plain letter that takes a caron too is a v blurred or small as often (final17: ČEPONIS,
  // LIEPIŅŠ made "ĈEPONIS", "LIEPINŜ"): the word is doubted, no letter given.
  if (cls === 'circumflex' && c === base && vLetter(base)) return { doubt: true };
  // A wave whose middle dips on a dim page fits a v (tuning #13: CONCEIÇÃO made "CONCEIÇĂO" at 0.44): over
  // an A or O, letters the model writes with a tilde, a v is a breve or a tilde; read with a tilde it is
  // left as read, read plain it is doubted.
  // A v that is a deep level cup (glyph-marks.ts cupDepth >= BREVE_MIN_DEPTH) over an A read plain, with
  // an acute, a grave or a roof is a breve, the class markedLetter composes (final18: BĂLAN, TĂNASE read
  // "BÁLAN" at 0.883, "TÂNASE"): no acute's or roof's ink is such a cup; over an A read with a tilde
  // (right in JOÃO) it is left as read.
  // A v over A, I, O, U: Pinyin's caron vowel (Ǎ Ǐ Ǒ Ǔ) where glyph-caron.ts tells it (twenty-eighth round:
  // final26's Ǔ Ǎ written Ŭ Ă, its Ǒ left "Ó").
  const caron = cls === 'caron' && mine.length === 1 ? caronVowel(g, c, base, mine[0]) : undefined;
  if (caron) return caron === c ? {} : { letter: caron };
  if (cls === 'caron' && base === 'A' && c !== 'Ã' && cupDepth(g, mine[0]) >= BREVE_MIN_DEPTH) return { letter: markedLetter(base, 'breve') };
  if (cls === 'caron' && 'AO'.includes(base)) return c === base ? { doubt: true } : {};
  // A ring seen only in the gray levels over a letter read with a roof or a wave is that roof blurred
  // (ÂNGELO made "ÅNGELO" in Liberation Serif Bold, blurred): a ring there needs its eye in the threshold.
  if (cls === 'ring' && 'ÂÊÔÃÕ'.includes(c) && !holed(g, mine[0])) return {};
  // A flat bar or a dot over a letter read with an acute or a roof is neither (measured on eleven words
  // drawn 144 ways each, ÁLVARO, ÂNGELO, ESTÊVÃO, JOSÉ, LUÍS, ÚRSULA...: no acute or roof was named a
  // macron, none over an E a dot): Ā Ē Ī Ū Ė for "Á", "É", "Í", "Ú", "Â", "Ê" (final17's MĀRA "MÁRA",
  // GIEDRĖ "GIEDRÉ", ĶĪSIS "KÍSIS").
  if (letter && (c === base || (!MODEL_MARKED.includes(letter) && ['caron', 'breve', 'ring', 'doubleAcute', 'macron', 'dot'].includes(cls!)))) return { letter };
  if (mine.length !== 1) return {};
  const m = mine[0], [w, h] = size(m);
  // A round level blob over an I read "Í", too big for markClass's dot: a bold face's dot, blurred (final21
  // #49: NİGAR read "NÍGAR" at 0.891, Liberation Serif Bold, a 5 x 6 px blob over 18 px capitals, markSlant
  // 0.02). An acute leans (0.09 or more, SMALL_DOT_MAX_SLANT) and is longer than tall by more than a third.
  if (c === 'Í' && !cls && w <= BIG_DOT * letterH && h <= BIG_DOT * letterH && w <= 1.35 * h && h <= 1.35 * w
    && Math.abs(markSlant(g, m, top)) < SMALL_DOT_MAX_SLANT) return { letter: 'İ' };
  // One blob leaning right but not clearly, wider than most acutes, over an O or U: an acute or a double
  // acute whose strokes ran together (final16: ENIKŐ and EMŐKE read "ENIKÓ", "EMÓKE" at 0.92, their marks
  // 8-9 x 5 px over 20 px capitals, slant 0.22-0.26; acutes slant 0.31-0.82): doubted.
  const slant = markSlant(g, m, top);
  if (markedLetter(base, 'doubleAcute') && !cls && w >= 0.3 * letterH && slant >= SLANT_FLAT && slant < SLANT_CLEAR) return { doubt: true };
  if (c === base && GRAVE[base] && base !== 'A' && w <= ACUTE_MAX_WIDTH * letterH && w <= ACUTE_MAX_ASPECT * h
    && h <= MARK_MAX_HEIGHT * letterH && h >= 2) {
    if (slant <= -SLANT_FLAT && slant > -SLANT_CLEAR) return { doubt: true };
  }
  return {};
}

/**
 * On type from this height (px) up to MIN_LETTER_HEIGHT only the letters in SMALL_KEPT are written from
 * the ink (values' capitals on the cards are 13-21 px high; final18's EMİNE, ÇETİN, BĂLAN read "EMÍNE",
 * "ÇETÍN", "BÁLAN" at 0.74-0.92 on such type).
 */
export const SMALL_MIN_HEIGHT = 13;
/**
 * The letters written on small type, over a letter read with a mark only: a dot over an I (a round level blob of 2-4 px where an acute is a
 * stroke leaning right) and a breve's cup over an A (glyph-marks.ts cupDepth: deeper than any acute's,
 * roof's or, over an A read with a tilde, left alone).
 */
const SMALL_KEPT = 'İĂĆČ';
/**
 * The letters written on small type over a letter read plain (only there: an acute blurred round over a
 * read É stays É): a dot over G, C, Z, E (Maltese Ġ Ċ Ż,
 * Lithuanian Ė; final21's ĠUŻEPPI, BONNIĊI ĊASSAR read "GUZEPPI" 0.875, "BONNICI CASSAR" 0.913), a round
 * level blob centred over a letter with no dot of its own (an I's speck is left out: its tittle is the
 * noise a page most often shows there). The dot's level is SMALL_DOT_MAX_SLANT's, its class glyph-marks.ts's.
 */
const SMALL_DOTTED = 'ĠĊŻĖ';
/**
 * A dot over an I read "Í", and any dot on small type, has a markSlant under this. Measured on words drawn
 * in eight DejaVu and Liberation faces at 22 px (capitals 14-17 px), plain and bold, clean and blurred
 * 0.8-1.2 px at JPEG 40: dots over I (EMİNE, ÇETİN, ELİF, DİLEK) -0.11..0.11, 93 % under 0.06; acutes
 * (LUÍS, ÍRIS, URUÇUÍ, JOSÉ, MÁRIO, ÚRSULA, LÚCIA...) 0.09 or more. At 26-32 px 262 of 268 dots over I
 * read "Í" (EMİNE, ÇETİN) still make İ.
 */
const SMALL_DOT_MAX_SLANT = 0.06;
/** Whether a letter carries a tilde (Ã Ẽ Ñ Ỹ...): written on small type too, its wave told by isWave's gray levels. */
const isTilded = (c: string): boolean => c.normalize('NFD').includes('\u0303');
/** A bold dot over an I is at most this share of the letters' height wide and tall (markClass's dot: 0.25). */
const BIG_DOT = 0.36;

/** A stacked tone mark's own pixels lean at least this much (binarySlant) to be named an acute or a grave. */
const STACK_SLANT = 0.3;
/** The Vietnamese roofs and breves a tone mark stacks on (read by the model or written by the breve's rule). */
const STACK_BASES = 'ÂÊÔĂ';

/**
 * Whether the two blobs over a letter read with a roof or a breve are two marks stacked (Vietnamese Ầ Ấ Ề
 * Ế Ồ Ố Ằ Ắ: final20's TRẦN read "TRÂN" at 0.852): a smaller blob standing higher than the other's middle
 * (its foot above it), beside or over it. Two dots stand level; a stroke and a roof one over the other are
 * no Portuguese mark.
 */
function stackedOver(c: string, mine: Blob[]): boolean {
  if (!STACK_BASES.includes(c) || mine.length !== 2) return false;
  const [low, high] = [...mine].sort((a, b) => (b.y0 + b.y1) - (a.y0 + a.y1));
  const size = (b: Blob): number => (b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1);
  return high.y1 < (low.y0 + low.y1) / 2 && size(high) < size(low);
}

/**
 * The letter two stacked marks make over a letter read with a roof or a breve (stackedOver): the upper
 * one leaning up to the right by its own pixels (binarySlant >= STACK_SLANT) an acute, down to the right
 * (<= -STACK_SLANT) a grave, composed on the letter read (Ấ for "Â" under an acute); a tone mark whose lean
 * is not clear (a hook above, a tilde, a speck) only doubts the word.
 */
function stackedInk(g: Gray, c: string, mine: Blob[]): { letter?: string; doubt?: boolean } {
  const high = [...mine].sort((a, b) => (a.y0 + a.y1) - (b.y0 + b.y1))[0];
  // Its own pixels' slant (glyph-marks.ts binarySlant): the gray levels around it take in the roof's ink
  // (final20 #69's grave over TRẦN's roof, 3 x 4 px: markSlant +0.16, binarySlant -0.43).
  const slant = binarySlant(high, g.width);
  const tone = slant >= STACK_SLANT ? '\u0301' : slant <= -STACK_SLANT ? '\u0300' : undefined;
  const letter = tone && (c + tone).normalize('NFC');
  return letter && [...letter].length === 1 ? { letter } : { doubt: true };
}

/** A ring joined to an A's apex is looked at down to this share of the letters' height under their top. */
const RING_FOOT = 0.15;

/**
 * Whether a glyph carries a ring joined to its top (Å in DejaVu and Liberation: the ring touches the A's
 * apex, so the two are one blob): it rises above the word's capitals (`capTop`, the median glyph top) by
 * at least 0.15 of their height, and its ink above that line is a ring's: of a ring's size (glyph-marks.ts
 * ringSized: at most RING_MAX_SIZE of the height tall and wide, neither side over 1.6 times the other),
 * and holed down to RING_FOOT of the height under the capitals' top.
 */
function ringOnTop(g: Gray, b: Blob, capTop: number, letterH: number): boolean {
  if (capTop - b.y0 < 0.15 * letterH) return false;
  // The ring's foot closes on the apex, under the capitals' top: its ink is taken down to RING_FOOT of
  // the height under it (above the A's own counter).
  const foot = capTop + Math.round(RING_FOOT * letterH);
  const px = b.px.filter((p) => Math.floor(p / g.width) < foot);
  if (!px.length) return false;
  let x0 = Infinity, x1 = -Infinity;
  for (const p of px) if (Math.floor(p / g.width) < capTop) { x0 = Math.min(x0, p % g.width); x1 = Math.max(x1, p % g.width); }
  const top: Blob = { ...b, px, x0: b.x0, x1: b.x1, y1: foot - 1 };
  const w = x1 - x0 + 1, h = capTop - b.y0;
  return ringSized(w, h, letterH) && holed(g, top);
}

/**
 * The letters of a capital word (a trailing comma left out) whose ink shows a mark the model cannot
 * write (foreignInk), by index into its letters; empty when its glyphs do not pair one to one with
 * its letters, its type is under 18 px (glyph-accent.ts MIN_LETTER_HEIGHT), or a blob above it lies over
 * no letter or over a plain letter given no mark.
 */
export function foreignMarks(g: Gray, w: OcrWord): Map<number, string> {
  return foreignReading(g, w).letters;
}

/**
 * foreignMarks, and whether a plain vowel's ink leans like a grave without showing one clearly
 * (foreignInk's doubt), under the same conditions (glyphs paired, no stray ink).
 */
export function foreignReading(g: Gray, w: OcrWord): { letters: Map<number, string>; doubt: boolean } {
  const out = new Map<number, string>(), none = { letters: new Map<number, string>(), doubt: false };
  let doubt = false;
  const chars = [...w.text.replace(/,$/, '')];
  if (!chars.length || chars.some((c) => !JUDGED_LETTER.test(c))) return none;
  const ink = withoutPrintAbove(g, markInk(g, w));
  const paired = ink && letterSpans(ink.glyphs, chars.length);
  const spans = paired || (ink && meanSpans(ink.glyphs, chars.length));
  if (!ink || !spans || ink.letterH < SMALL_MIN_HEIGHT) return none;
  const small = ink.letterH < MIN_LETTER_HEIGHT;
  const over = ink.marks.map((m) => spans.findIndex((b) => b.x0 <= (m.x0 + m.x1) / 2 && (m.x0 + m.x1) / 2 <= b.x1));
  // Letters placed by meanSpans (most capitals run together: final20 #68's MARIĆ, "MARI" one blob): only
  // marks over a letter with a glyph of its own are judged; a mark over a run's letter leaves the word.
  // There the letters' edges are guessed, so a mark must also stand over its glyph's middle half (final11
  // #25: ARIE's "ARI" one blob, a speck over the I-E junction, 2 px into the E's glyph, made "ARIÉ").
  const centred = (k: number, i: number): boolean => {
    const m = ink.marks[k], s = spans[i], cx = (m.x0 + m.x1) / 2, q = (s.x1 - s.x0) / 4;
    return cx >= s.x0 + q && cx <= s.x1 - q;
  };
  if (!paired && over.some((i, k) => i < 0 || !spans[i].whole || !centred(k, i))) return none;
  // A round letter read with a mark inside a word whose body is a C's (openRight): a C with a mark
  // (Č read "Ó"), its mark's class judged over a plain C; a C left without one is doubted.
  const mouths = new Set<number>(), eMouths = new Set<number>(), read = [...chars];
  for (let i = 1; i < chars.length; i++) {
    if (!small && 'ÓÒÔÕÖ'.includes(chars[i]) && spans[i].whole && openRight(g, ink.glyphs[spans[i].glyph])) { chars[i] = 'C'; mouths.add(i); }
    // An E read with a mark, or a G under ink, whose body is a C's (cBody: no middle arm, a round side, no
    // G's bar): Ć read "É", Č read "Ğ" (final20's KOVAČEVIĆ "KOVAĞEVIÉ": a caron's v over a G is a breve).
    else if (('ÉÈÊË'.includes(chars[i]) || ('GĞ'.includes(chars[i]) && over.includes(i))) && spans[i].whole && cBody(g, ink.glyphs[spans[i].glyph], ink.top)) { chars[i] = 'C'; mouths.add(i); eMouths.add(i); }
  }
  for (let i = 0; i < chars.length; i++) {
    const mine = ink.marks.filter((_, k) => over[k] === i), ring = markedLetter(baseOf(chars[i]), 'ring');
    const seen = ring && spans[i].whole && ringOnTop(g, ink.glyphs[spans[i].glyph], ink.top, ink.letterH) ? { letter: ring }
      : stackedOver(chars[i], mine) ? stackedInk(g, chars[i], mine)
        : mine.length ? foreignInk(g, chars[i], mine, ink.letterH, ink.top, small) : {};
    if (seen.letter && seen.letter !== chars[i]) out.set(i, seen.letter);
    if (seen.doubt) { doubt = true; out.set(i, chars[i]); }
  }
  // Ink of a mark's size and place over a plain letter whose shape does not tell (a caron blurred into a
  // 9 x 5 px blob, final16 #37's BOŽENA read "BOZENA" at 0.7): the letter may carry a mark the model
  // cannot write, so the word is doubted. Only a blob standing clear of its letter (1 px or more above the
  // capitals' top, at most NEAR of their height), 3 x 3 px and 6 px of ink or more, centred over it (its
  // centre in the middle half of the letter's columns) and within its columns; any other ink is print,
  // dirt or noise and leaves the word as read.
  const markLike = (k: number): boolean => {
    const m = ink.marks[k], s = spans[over[k]], cx = (m.x0 + m.x1) / 2, q = (s.x1 - s.x0) / 4;
    return markSized(m, ink.letterH) && m.x1 - m.x0 >= 2 && m.y1 - m.y0 >= 2 && m.px.length >= 6 && m.y1 < ink.top - 1 && ink.top - m.y1 <= NEAR * ink.letterH && m.x0 >= s.x0 - 2 && m.x1 <= s.x1 + 2 && cx >= s.x0 + q && cx <= s.x1 - q;
  };
  const unclear = over.map((i, k) => i >= 0 && !out.has(i) && baseOf(chars[i]) === chars[i] && markLike(k));
  if (unclear.some(Boolean)) doubt = true;
  for (const i of mouths) if (!out.has(i)) { out.set(i, 'C'); doubt = true; }
  const stray = over.some((i, k) => i < 0 || (!out.has(i) && baseOf(chars[i]) === chars[i] && !unclear[k]));
  if (stray) return none;
  for (const [i, c] of out) if (c === read[i]) out.delete(i);
  // Small type: only the letters whose marks stay told there (SMALL_KEPT), over a letter the model read
  // with a mark (it saw one), or a dot over a plain G, C, Z, E (SMALL_DOTTED), are written; a mark seen
  // over another letter read plain only doubts the word (since the twenty-fourth round).
  if (small) {
    // A C's body read as an E with a mark whose mark's class is not told: the word doubted (not Ć's letter).
    const cLeft = [...eMouths].some((i) => out.get(i) === 'C');
    // A mark the ink's shape names over a letter read plain, left unwritten here, or mark-like ink whose
    // class is not told (unclear): the reading dropped a mark, so the word is doubted (twenty-fourth round:
    // final22 #24's NHAMUNDÁ read "NHAMUNDA," at 0.922, #36's AKÍNDÉLÉ read "AKINDÉLÉ"; Welsh Ŵ Ŷ read W, Y),
    // whatever the alphabet. The letter is not written: a few pixels do not tell its class surely enough.
    let dropped = unclear.some(Boolean);
    for (const [i, c] of out) {
      const plain = read[i] === baseOf(read[i]);
      if (!(SMALL_DOTTED.includes(c) && plain) && (!SMALL_KEPT.includes(c) || plain) && !isTilded(c)) { out.delete(i); if (plain) dropped = true; }
    }
    return { letters: out, doubt: cLeft || dropped };
  }
  return { letters: out, doubt };
}

/**
 * `ink` without the blobs above the word too large for a mark (glyph-marks.ts markSized) that run on over the
 * top of the band where marks are looked for (markInk): the row over the blob's top holds, in its columns, a
 * pixel as dark as its lightest. Such ink is the foot of print over the word, a label printed tight over the
 * value, not a mark, which stands whole under that top or is a mark's size (a tone stacked on a roof rises
 * over it) (final30 #45: FILIAÇÃO's "ÇÃO", cut by the band's top, stood over CONDURÚ's C and O
 * as stray ink, so the Ú's acute was not judged: "CONDURU" at 0.92; final29 #77's Á, whose acute lies within
 * NOME's box but whole in the band, keeps it).
 */
function withoutPrintAbove(g: Gray, ink: MarkInk | undefined): MarkInk | undefined {
  if (!ink || !ink.marks.length) return ink;
  const runsOn = (m: Blob): boolean => {
    const y = m.y0 - 1;
    if (y < 0) return false;
    let lightest = 0;
    for (const p of m.px) lightest = Math.max(lightest, g.data[p]);
    for (let x = m.x0; x <= m.x1; x++) if (g.data[y * g.width + x] <= lightest) return true;
    return false;
  };
  const marks = ink.marks.filter((m) => markSized(m, ink.letterH) || !runsOn(m));
  return marks.length === ink.marks.length ? ink : { ...ink, marks };
}

/** Two letters read with a mark where one glyph stands: an E's mark then a round letter's ("ÉÓ"). */
const PAIR_READ = /[ÉÈÊ][ÓÒÔÕ]/g;

/**
 * `w` with two letters read with a mark over one glyph taken as the first alone, where that gives a C with
 * a mark the model cannot write (final20: STOJANOVIĆ, KOVAČEVIĆ read "STOJANOVIÉÓ", "KOVACEVIÉÓ": the
 * recogniser wrote its two nearest letters for Ć); `w` itself otherwise (one such pair per word looked at).
 */
function oneGlyphPair(g: Gray, w: OcrWord): OcrWord {
  const pairs = [...w.text.matchAll(PAIR_READ)];
  if (pairs.length !== 1) return w;
  const at = [...w.text.slice(0, pairs[0].index)].length;
  const chars = [...w.text];
  chars.splice(at + 1, 1);
  const one = { ...w, text: chars.join('') };
  const c = foreignReading(g, one).letters.get(at);
  return c === 'Ć' || c === 'Č' ? one : w;
}

/**
 * Words with each letter whose ink shows a mark the model cannot write (foreignMarks: YOLÈNE for
 * "YOLENE", MÜLLER for "MULLER") written with it, their confidence kept at most INK_LETTER_CAP, among the
 * words `judged` accepts (the caller's: value-size words); every other word as it was. Nothing is read
 * again: only the page's pixels over capital words with a vowel are looked at.
 */
export function mendForeignMarks(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w0) => {
    if (!/[A-ZÀ-Þ]/.test(w0.text) || !judged(w0)) return w0;
    const w = oneGlyphPair(g, w0);
    const { letters: found, doubt: leans } = foreignReading(g, w);
    // Two dots read from the gray levels over each glyph (glyph-dots.ts): dots of 2-3 px that the
    // blobs above miss, on type under 18 px too.
    const dots = dotsReading(g, w, wordGlyphs);
    for (const [i, c] of dots.letters) found.set(i, c);
    const doubt = leans || dots.doubt;
    if (!found.size && !doubt) return w0;
    const comma = /,$/.test(w.text) ? ',' : '';
    const chars = [...w.text.replace(/,$/, '')];
    for (const [i, c] of found) chars[i] = c;
    return { ...w, text: chars.join('') + comma, conf: Math.min(w.conf, INK_LETTER_CAP) };
  });
}
