/**
 * Marks inside a name's words (twenty-fifth round): a text layer's mark that the name's normalisation
 * could not keep, and a reading that shows Catalan's L·L as a hyphen or a space; an apostrophe that elides
 * nothing, a glottal stop's letter read as one (twenty-sixth round).
 */
import { innerMarkRuns } from './normalize.js';
import { fold, type Phrase } from './words.js';

/** Particles of three letters: a run touching a lost mark that is one of them says nothing of the name. */
const PARTICLES = new Set(['DAS', 'DOS']);

/**
 * Whether a name value read from a PDF's text layer lost a mark the layer held inside one of its words.
 * `valor`: the name as normalised (normalize.ts normalizeName); `phrases`: the page's phrases. True when a
 * word of the page holds a mark between two letters that normalizeName writes as a space
 * (normalize.ts innerMarkRuns: "ANNE/MARIE", "MARCEL‧LÍ" with a hyphenation point, "JOSÉ•MARIA") and a
 * run of three letters or more touching that mark (not the particles DAS, DOS: a label's "DOC/DOS" would
 * doubt every name with one) is a word of `valor`: the value is then not the name as
 * the layer holds it, and is given under the low-confidence line instead of at the layer's 1 (final23 #40
 * and #41 came out "MARCEL LÍ" at 1 for MARCEL·LÍ before the middle dot was kept). Why it should hold on
 * unseen data: a text layer holds the issuer's characters; any character the product's name alphabet
 * drops from inside a word changes the name, whatever the mark, font or language.
 */
export function layerMarkLost(valor: string, phrases: Phrase[]): boolean {
  const words = new Set(valor.split(' '));
  for (const w of phrases.flatMap((p) => p.words)) {
    if (innerMarkRuns(w.text).some((r) => r.length >= 3 && !PARTICLES.has(r) && words.has(r))) return true;
  }
  return false;
}

/**
 * Catalan's L·L (the ela geminada: MARCEL·LÍ, PETRONEL·LA, ESTEL·LA) as a recogniser reads it: the middle
 * dot, a speck at mid-height, read as a hyphen ("PETRONEL-LA") or as a space ("MARCEL LI", "ESTEL LA").
 * A hyphen between two L's, or a word ending in L followed by a word of an L and one letter (LA, LÍ, LÓ:
 * Catalan's endings after L·L; LUZ, LIMA, LEÃO are left alone): no Portuguese name is printed so, and a
 * Catalan one is as often L·L. Such a name is not sure unless the ink says which (glyph readers), so
 * name-finish.ts caps it at NAME_DOUBT_CAP. `valor`: a name as
 * normalised. Why it should hold on unseen data: it reads only the letters around the mark, which are
 * Catalan's spelling rule (L·L is the only place the mark is printed), not a font or a degradation.
 */
export const ELL_SPLIT = /L-L|L (?=L\p{L}(?: |$))/u;

/** Vowels of the names' alphabets, folded to their base letter before the test (unelidedApostrophes). */
const VOWEL = /^[AEIOUY]$/;

/**
 * The words of an image's name reading that hold an ASCII apostrophe with a vowel on both sides and two
 * letters or more before it ("KA'IMI", "KAMAKA'ALA", "HAWAI'I"): `valor`, a name as normalised; the words,
 * in order, [] when none. An elision's apostrophe stands for a vowel dropped before another vowel, so the
 * letter before it is a consonant (D'ÁVILA, SANT'ANNA, DALL'AGNOL, D'OESTE: Portuguese and Italian drop
 * the elided word's final vowel), and Irish O'BRIEN's is after a one-letter word. A vowel before and
 * after the mark is no elision: it is a letter written as a mark, a glottal stop -- Hawaiian's ʻokina
 * (U+02BB, a turned comma), Tongan's and Samoan's fakauʻa / koma liliu, the saltillo, the transliterated
 * Arabic ʿayn (ʿ) or hamza (ʾ), the modifier apostrophe ʼ -- which the recogniser's Latin-1 model can
 * only write as "'". Which of these the card printed, the reading cannot tell (the marks differ by a
 * few pixels of curl), so name-finish.ts doubts the name (NAME_DOUBT_CAP) instead of giving "'" as sure
 * (final24: 17 names read with "'" for the ʻokina came back at 0.84-0.91). Nothing is mended: the ink may be
 * an apostrophe. Not for a text layer, whose character is the issuer's.
 */
export function unelidedApostrophes(valor: string): string[] {
  return valor.split(' ').filter((w) => {
    const parts = fold(w).split("'");
    return parts.some((p, i) => i > 0 && parts[i - 1].length >= 2 && VOWEL.test(parts[i - 1].slice(-1)) && VOWEL.test(p.slice(0, 1)));
  });
}
