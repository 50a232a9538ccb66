/**
 * A second reading of a whole card page with another preparation, only when the first reading of a
 * page that shows a CNH came out poor; the preparation follows the page's quality metrics (dark,
 * blurred, else a possible glare's veil), and the two readings' fields are merged field by field
 * (index.ts recognizeImage and readDocument).
 *
 * Why: on a dark photograph (low light: paper at a third to a half of its level, sensor noise of
 * 5-11 levels) the contrast stretch multiplies the noise 3-7 times, the paper turns to speckle and
 * the page pass loses labels and values (final3 #79: 9 fields of 15 lost). A 3 x 3 median before the
 * stretch takes the speckle away and keeps the strokes, but it also moves some characters of a page
 * that read well (final3 #34's RG: one digit, at 0.90), so it is not the first preparation: a page
 * that reads well keeps its reading, and one that does not gets a second one whose fields are taken
 * only where they are surer than the first reading's.
 */
import { fieldCheck } from './checks.js';
import { inkMarksOnly } from './glyph-marks.js';
import { REMARK_CODES } from './codes.js';
import { LOST_DIACRITIC_CAP } from './name-spelling.js';
import type { CnhField, CnhFieldName } from './engine.js';
import { CNH_FIELD_NAMES, NAME_FIELDS } from './engine.js';
import { CARD_HEIGHT_PX, type PrepareOptions } from './preprocess.js';
import { CORE_FIELDS, type QualityMetrics } from './quality.js';
import { fold, type OcrWord } from './words.js';

/**
 * Pages whose contrast (quality.ts: paper level minus the 0.5th percentile) is under this are dark:
 * the seen parts' low-light photographs measure 37-86, every other condition's image 110 and more
 * on the seen parts but for a few glare and blur photographs (see the README's figures).
 */
export const DARK_CONTRAST = 100;
/** Confidence under which a core field read counts as half missing (the spec's low-confidence line). */
const UNSURE = 0.8;
/**
 * A reading this poor (core fields missing count 1, core fields under UNSURE 0.5, quality.ts
 * readingGrade's count) gets the second reading: one missing core field, or two unsure.
 */
export const POOR_READING = 1;

/**
 * Confidence over which a name failing the doubled-vowel check alone (spellingDoubtOnly) was read
 * from sure words: a failed check scores 0.6 x the recogniser's confidence (checks.ts withValidation),
 * so over 0.5 its words were read at 0.83 or more on average with their weakest; no cap under the
 * check's own (LOST_START_CAP 0.5, a lost first word) is met either.
 */
export const SPELLING_DOUBT_FLOOR = 0.5;
/** The check's ceiling: a failed check keeps at most 0.6 of a confidence. */
const FAILED_CHECK_CEILING = 0.6;
const DOUBLED_VOWEL = /([AEIOU])\1/g;
/**
 * A particle glued to the next word by a lost space (DA ANDRADE read DAANDRADE: the case GLUED_VOWELS
 * is there for): the ink has a gap there that another reading may see, so that doubt still counts.
 */
const GLUED_PARTICLE = /(?:^|\s)D([AEO])\1/;

/**
 * A name whose only doubt is its spelling: it fails its check (checks.ts fieldCheck) for a doubled
 * vowel (GLUED_VOWELS: Portuguese spelling has almost none) and passes it with the doubled vowels
 * single, and it was read from sure words (over SPELLING_DOUBT_FLOOR). Dutch and other names spell
 * AA, EE, OO, UU (GEERTJE, AALTJE, ADRIAAN, KOOY, VAN DER MEER): on final11's clean cards and
 * screenshots such names came back right at 0.54-0.56 and a page with two of them was read a second
 * time whole, which changed no value (the same ink reads the same letters; the doubt is about the
 * spelling, not the ink). Not a particle glued to the next word (GLUED_PARTICLE: tuning #35's
 * "SANDRA DAANDRADE DIAS" at 0.557). Such a name stays as read, under the low-confidence line, but does not
 * count towards a second reading (readingMisses).
 */
export function spellingDoubtOnly(k: CnhFieldName, f: CnhField): boolean {
  if (!(NAME_FIELDS as readonly CnhFieldName[]).includes(k) || !f.valor) return false;
  if (f.confianca <= SPELLING_DOUBT_FLOOR || f.confianca > FAILED_CHECK_CEILING) return false;
  const single = f.valor.replace(DOUBLED_VOWEL, '$1');
  return single !== f.valor && !GLUED_PARTICLE.test(f.valor) && fieldCheck(k, f.valor) === false && fieldCheck(k, single) !== false;
}

/**
 * A name held exactly at the cap of a mark read plain (name-spelling.ts LOST_DIACRITIC_CAP, 0.7: a
 * word whose box shows a mark over it that was not read, fields.ts lostMark; a foreign name left as
 * read; a diacritic put back by spelling): its words were read surer than the cap and only the cap
 * holds it down. The doubt is a letter the model cannot write (final16's Czech Š Ž Č Ř read as their
 * plain twins at 0.81-0.93), and another preparation of the same ink reads the same plain letter
 * under the same cap: the merge (mergeReadings) can neither lift it nor take another reading's value
 * over it but at the cap plus MERGE_MARGIN. Measured (eighteenth round, both readings compared page by
 * page): the pages whose second reading such names alone made due, final16 #0, 22, 24, 32, 39, 45, 72 and
 * final15 #61, read every value the same without it (one right CPF stays under the line). A name
 * under the cap (read weakly) still counts: another reading may see its ink better.
 */
export function heldAtMarkCap(k: CnhFieldName, f: CnhField): boolean {
  return (NAME_FIELDS as readonly CnhFieldName[]).includes(k) && f.valor !== '' && f.confianca === LOST_DIACRITIC_CAP;
}

/**
 * How poor a reading is: over CORE_FIELDS, 1 for a missing value, 0.5 for one under UNSURE (a name
 * whose only doubt is its spelling, spellingDoubtOnly, or one held at a mark's cap, heldAtMarkCap,
 * counts 0: a second reading cannot resolve it).
 */
export function readingMisses(campos: Record<CnhFieldName, CnhField>): number {
  let misses = 0;
  for (const k of CORE_FIELDS) {
    const f = campos[k];
    if (!f.valor) misses += 1;
    else if (f.confianca < UNSURE && !spellingDoubtOnly(k, f) && !heldAtMarkCap(k, f)) misses += 0.5;
  }
  return misses;
}

/**
 * Pages whose sharpness (quality.ts: mean of the strongest 2 % Laplacian responses) is under this are
 * blurred (preprocess.ts sharpens them already: sigma 1, and 2 under 25).
 */
export const BLURRED = 50;

/**
 * Cards whose height in the input (quality.ts resolutionPx: the crop's short side before scaling) is
 * under this are small in the frame (photographed from further away): their label type is 4-5 px tall
 * in the input, and the prepared page (CARD_HEIGHT_PX) is an upscale with no pixels to spare for the
 * page pass's 0.7 squeeze. On the seen parts the photographs from afar measure 479-495 px, every other
 * image 577 px and more (tuning, heldout, untouched, final, final2, final3, final4).
 */
export const SMALL_CARD_PX = 540;
/** A small card's second preparation is scaled to this height (1.5 x CARD_HEIGHT_PX) and read at full width. */
export const SMALL_CARD_HEIGHT_PX = Math.round(1.5 * CARD_HEIGHT_PX);

/** A small card whose first reading found fewer labels than this (its label type unread) gets the larger second preparation. */
export const SMALL_CARD_LABELS = 4;

/** How a page is read the second time: its preparation, and whether the page pass reads it at full width instead of the model's squeeze. */
export interface SecondRead { prepare: PrepareOptions; fullWidth: boolean }

/**
 * The second reading due to a page of `quality` whose first reading missed `misses` (readingMisses),
 * or null when none is due (misses under POOR_READING). A dark page (contrast under DARK_CONTRAST) is
 * prepared again with a median before the stretch (preprocess.ts denoise). A blurred one (sharpness
 * under BLURRED) is sharpened with sigma 2 and read at full width: blur smears the small label type
 * first, and the page pass's squeeze (0.7 of the width) narrows it further (final3's blurred
 * photographs: 21 fields missed -> 14 read so, 8 documents); when its strokes are thin (preprocess.ts
 * thickenThin: a light type, final4 #8's DejaVu Sans Light, whose blurred strokes fade to gray and
 * break after the stretch) they are thickened by a pixel as well (final4 #8's birthplace, unread in
 * both readings, read so at 0.98). Only there: the same thickening in a glare page's local-contrast
 * second reading turned final4 #39's categoria C into a wrong E at 0.94. Any other page is stretched between its
 * local ink and paper levels (veil.ts: a glare's veil leaves type pale gray; final3's glare
 * photographs read as a first preparation: 7 fields missed -> 2; but final2's 3 -> 6, the security
 * print stretched into letters, so only as a second reading).
 */
export function secondRead(quality: QualityMetrics, misses: number, labelsFound = Infinity): SecondRead | null {
  if (misses < POOR_READING) return null;
  if (quality.contrast < DARK_CONTRAST) return { prepare: { denoise: true }, fullWidth: false };
  if (quality.resolutionPx < SMALL_CARD_PX && labelsFound < SMALL_CARD_LABELS) return { prepare: { cardHeightPx: SMALL_CARD_HEIGHT_PX }, fullWidth: true };
  if (quality.sharpness < BLURRED) return { prepare: { sharpenSigma: 2, thickenThin: true }, fullWidth: true };
  return { prepare: { localContrast: true }, fullWidth: false };
}

/**
 * How much surer (confidence after the checks) the second reading's value must be to replace another
 * value of the first reading: on final3 #16 (a screenshot) and final #30 (blur) a name read right at
 * 0.77 and 0.607 gave way to a letter lost or an accent changed read at 0.855 and 0.696.
 */
export const MERGE_MARGIN = 0.1;

/**
 * Confidence cap of a value two readings of one document read differently, each at UNSURE (0.8) or
 * over (mergeReadings): under the low-confidence line.
 */
export const DISAGREE_CAP = 0.75;
/** Fields of digits (and a date's slashes): a digit read two ways by two readings makes the value unsure (mergeReadings). */
const NUMBER_FIELDS: readonly CnhFieldName[] = ['cpf', 'rg', 'numero_cnh', 'data_nascimento', 'data_validade', 'data_emissao', 'data_primeira_habilitacao'];
/**
 * Least confidence of a number's or a date's other reading, of the same length, that disagrees with the value
 * taken (mergeReadings): a reading this sure saw digits; a weaker one (a date at 0.6) is often a blur's guess.
 */
const NUMBER_DISAGREE_MIN = 0.65;
/** Least confidence of a category's other reading that disagrees with the value taken (mergeReadings). */
const CODE_DISAGREE_MIN = 0.6;

/**
 * Field-by-field merge of two readings of one document: each field takes the second reading's value
 * where the first has none, where both read the same value and the second is surer (two readings
 * agree), or where the second's confidence (after its checks: a failed check caps it under 0.6) is
 * MERGE_MARGIN above the first's, unless it is the first value cut short (a word or letters lost at its
 * end: heldout #20's remark "EAR A" read "EAR" at 0.93) or a remark that is no code where the first
 * read none; a name that is the first one with whole words before it is taken when at least as sure
 * (the first reading lost a first word); otherwise the first's. Validity flags travel
 * with their value.
 */
export function mergeReadings(first: Record<CnhFieldName, CnhField>, second: Record<CnhFieldName, CnhField>): Record<CnhFieldName, CnhField> {
  const out = {} as Record<CnhFieldName, CnhField>;
  for (const k of CNH_FIELD_NAMES) {
    const a = first[k], b = second[k];
    const cutShort = b.valor.length < a.valor.length && a.valor.startsWith(b.valor);
    // Most cards carry no remark: an empty first remark is an answer, not a gap, and a second
    // reading's remark that is no restriction code (final4 #69: "NE" at 0.50 from the security
    // print) does not replace it.
    const noRemark = k === 'observacoes' && !a.valor && !REMARK_CODES.test(b.valor);
    // A name whose first word the first reading lost (final4 #31: the photo's edge merged with the O of
    // OSMAR, "PAES MONTENEGRO" at 0.94) comes back whole from the second reading, at least as sure.
    const wordsBefore = (NAME_FIELDS as readonly CnhFieldName[]).includes(k) && a.valor !== '' && b.valor.endsWith(` ${a.valor}`) && b.confianca >= a.confianca;
    // A name the first reading cut at its end (final11 #28: "JACOBUS DOS STAAL WIERS" at 0.4, the other
    // reading's JACOBUS DOS STAAL WIERSMA at 0.489) comes back whole from the other, at least as sure:
    // the mirror of cutShort, which keeps a first value against a second one cut short. Both readings
    // sure of the two still disagree (below): letters more at a name's end may be a mark read as type.
    const lettersAfter = (NAME_FIELDS as readonly CnhFieldName[]).includes(k) && a.valor !== '' && b.valor.length > a.valor.length && b.valor.startsWith(a.valor) && b.confianca >= a.confianca;
    // Remarks the first reading read only the end of (final20 #8: EAR read "R" at 0.9, the other
    // reading "EAR" at 0.95): the other's codes end with the first's, at least as sure.
    const codesBefore = k === 'observacoes' && a.valor !== '' && b.valor.length > a.valor.length && b.valor.endsWith(a.valor) && REMARK_CODES.test(b.valor) && b.confianca >= a.confianca;
    const take = b.valor !== '' && !noRemark && !inkMarksOnly(a.valor, b.valor) && (!a.valor || wordsBefore || lettersAfter || codesBefore || (b.valor === a.valor ? b.confianca > a.confianca : !cutShort && b.confianca >= a.confianca + MERGE_MARGIN));
    // Both readings sure of different values (neither the other cut short, nor the other with words
    // before it): one of them is misread and the ink did not tell which ("5403196854" at 0.856 against
    // 540319854 at 0.95, final6 #7): the value taken is kept, under the low-confidence line. The other
    // counts from DISAGREE_CAP up: a date read at 0.78 stops at 0.79 however well the dates' order holds
    // (checks.ts DATE_ORDER_CEILING), and final5 #59's right issue date at 0.79 left its misread twin
    // "06/08/2021" at 0.898 over the line.
    const chosen = take ? b : a;
    // A category is a letter or two: two readings of as many letters that differ in one (the other over
    // CODE_DISAGREE_MIN) say a letter's print is read two ways (final18 #73: AB at 0.73, then "AD" at 0.934).
    // One letter more or less is the known loss of a code's letter, left to the rules above (final13 #69: "A"
    // at 0.63, then AC at 0.904).
    // Remarks of two readings with no code in common ("E" at 0.65, then "A" at 0.94 for EAR A: final20 #86,
    // each reading saw part of the line): neither is sure, as for a category. Two capitals built on a
    // full-height left stem (B D E F P R) are one glyph whose bowl or arms blurred (final12 #51: "P" at
    // 0.63, then D at 0.93): the surer reading stands.
    const oneGlyph = /^[BDEFPR]$/.test(a.valor) && /^[BDEFPR]$/.test(b.valor);
    const remarkDisagree = k === 'observacoes' && !oneGlyph && !a.valor.split(' ').some((c) => b.valor.split(' ').includes(c));
    // A number or date read as another of its length by the other reading (at NUMBER_DISAGREE_MIN or over): a
    // digit is read two ways, as a category's letter is (final30 #47: RG 556403613 at 0.844, the other
    // reading's 558403613 at 0.7; the 8's lower bowl blurred into a 6's).
    const numberDisagree = NUMBER_FIELDS.includes(k) && a.valor.length === b.valor.length && Math.min(a.confianca, b.confianca) >= NUMBER_DISAGREE_MIN;
    // A name the other reading read with a mark more or less, its letters the same (over CODE_DISAGREE_MIN): one
    // of them lost or made up a mark (final30 #71: HÉLDER read "HELDER" at 0.915 by the first reading, whose
    // name the label over it had hidden before tall-words.ts, HÉLDER at 0.71 by the second).
    const markDisagree = (NAME_FIELDS as readonly CnhFieldName[]).includes(k) && fold(a.valor) === fold(b.valor);
    const letterDisagree = (k === 'categoria' && a.valor.length === b.valor.length) || remarkDisagree || markDisagree;
    const codeDisagree = numberDisagree || (letterDisagree && Math.min(a.confianca, b.confianca) >= CODE_DISAGREE_MIN);
    const disagree = a.valor !== '' && b.valor !== '' && a.valor !== b.valor && !cutShort && !wordsBefore && !codesBefore && Math.max(a.confianca, b.confianca) >= UNSURE && (codeDisagree || Math.min(a.confianca, b.confianca) >= DISAGREE_CAP);
    out[k] = disagree ? { ...chosen, confianca: Math.min(chosen.confianca, DISAGREE_CAP) } : chosen;
  }
  return out;
}

/**
 * Whether a page's second reading (secondRead) is read at full width instead of the
 * model's squeeze: when its preparation asks for it, and on a card small in the frame (quality.ts
 * resolutionPx under SMALL_CARD_PX: the kiosk's webcam, 1280 px frames holding both sides, ~345 px of
 * card height; a photograph from afar) whatever the second preparation is. Such a card's prepared page
 * is an upscale of ~2.4 with no pixels to spare for the 0.7 squeeze; a dark one's second reading
 * (the median, for its noise) was read squeezed (final6's webcam frames, 13 documents: 137 -> 144
 * fields of 195 with this alone, the second readings of dark small cards; it also put #78's name cut
 * to "ORÁCIO" at 0.935 over the right one: mendCutWords).
 * Only pages already read twice pay, and only the width of their second reading (a clean page is
 * read once, a card of ordinary size as before).
 */
export function secondFullWidth(again: SecondRead, quality: QualityMetrics): boolean {
  return again.fullWidth || quality.resolutionPx < SMALL_CARD_PX;
}

/**
 * Share of the ink-to-paper range a small card's second preparation keeps (preprocess.ts `clip`,
 * PAPER_CLIP 0.95 otherwise): lighter levels turn white. The kiosk webcam's soft, noisy frames leave
 * gray halos around and between blurred bold glyphs after the 0.95 stretch, and tesseract's sparse
 * layout drops such a line whole (final6 #49: registration number, validity and first-licence date
 * read as nothing; a strip of that line alone, read at 0.95, gives no word; with its levels over 200
 * of 255 turned white it reads all three. That the halos join the glyphs into blobs too long for a
 * line is our reading of it, not looked at inside tesseract). Only in a third reading of a small card
 * in a soft frame (softSmallCard; a page read poorly first), after the second reading with the usual
 * stretch: the clip alone in the second reading lost fields that one gave (final6 #7's dates and parents,
 * #47's category, #56's birthplace and #57's), merged after it they stay.
 */
export const SMALL_CARD_CLIP = 0.8;

/**
 * A small card (resolutionPx under SMALL_CARD_PX) whose frame is soft (quality.ts sharpness under
 * BLURRED): the one read a third time with SMALL_CARD_CLIP. Halos come from
 * blur; final5's fax-like 1-bit scans are small and sharp (sharpness 93-169, final6's webcam frames
 * 7-32), and the clip thinned their broken type further (five documents: 3 fields lost, 2 values
 * changed to other wrong ones) where a full-width reading alone changed none of their values.
 */
export function softSmallCard(quality: QualityMetrics): boolean {
  return quality.resolutionPx < SMALL_CARD_PX && quality.sharpness < BLURRED;
}

/**
 * A second reading's words mended where they are a first reading's word with its first letter or two
 * lost: the same line, the same right end (within a quarter of the line's height), the first word's
 * box starting at least a third of the height further left, and its text ending with the second's
 * (final6 #78: HORÁCIO read whole at 0.64 first, "ORÁCIO" at 0.92 in the second reading, its box
 * starting at the O; a name so cut passed every check and replaced the right one). The mended word
 * takes the first word's text and box and the lower of the two confidences.
 */
export function mendCutWords(second: OcrWord[], first: OcrWord[]): OcrWord[] {
  return second.map((b) => {
    const h = b.y1 - b.y0;
    if (h <= 0 || b.text.length < 2) return b;
    const a = first.find((w) => {
      const overlap = Math.min(w.y1, b.y1) - Math.max(w.y0, b.y0);
      const lost = w.text.length - b.text.length;
      return overlap > 0.5 * Math.min(h, w.y1 - w.y0) && Math.abs(w.x1 - b.x1) <= 0.25 * h && w.x0 < b.x0 - h / 3 && lost >= 1 && lost <= 2 && w.text.endsWith(b.text) && /\p{L}/u.test(w.text.slice(0, lost));
    });
    if (!a) return b;
    // Another word of the line's height where the lost letters stand: they were read, apart. (A box
    // much taller than the line, #78's "Ju" over the label and the H, is not one of its words.)
    if (second.some((w) => w !== b && w.x1 > a.x0 && w.x0 < b.x0 && Math.min(w.y1, b.y1) - Math.max(w.y0, b.y0) > 0.5 * h && w.y1 - w.y0 <= 1.5 * h)) return b;
    return { ...b, text: a.text, x0: a.x0, conf: Math.min(a.conf, b.conf) };
  });
}
