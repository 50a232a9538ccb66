/**
 * CNH fields from positioned phrases: label-relative values first (layout.ts), then patterns over the
 * full text; validation (CPF and CNH check digits, calendar and order of dates) folded into each field's
 * confidence (checks.ts); the values that failed a check are handed on as suspects for a second look.
 */
import { type CnhField, type CnhFieldName } from './engine.js';
import { detectModel, excessIndent, findLabels, LOST_GLYPH, labelCapHeight, labelHeight, labelTypeLow, valueAbove, valueBelow, type CnhModel, type FoundLabel, type LabelId } from './layout.js';
import { firstPiece, labelValueGaps, pageValueReach, VALUE_REACH as VALUE_REACH_FIXED } from './value-place.js';
import {
  isKnownIssuer, normalizeCategory, wordNotCode, normalizeCnhNumber, normalizeCpf, normalizeDate, normalizeName, parseIdentity, single, UFS, BIRTH_LINE, BIRTH_START,
} from './normalize.js';
import { CATEGORY_ALPHABET, isCategoryReading, isPlaceLine, isRemarkReading, normalizeRemarks, REMARK_ALPHABET, REMARK_CODES, widenedCode } from './codes.js';
import { finishNames } from './name-finish.js';
import { categoryAboveDates, categoryPlace, categoryUnderCpf, misreadCategoryUnderCpf, PLACED_CODE_CONF, loneHeaderUf, nearFiliacao, doubtFlatCodes, PLACED_CODE_CAP, remarksWithoutLabel, withoutTallCodes } from './near-labels.js';
import { loneParent, parentLines, startLost } from './parents.js';
import { identityStartLost } from './label-edge.js';
import { adjacentPairs, applyFallbacks } from './fallbacks.js';
import { edgeMarkedNumber, hasDigit, isNameWord, rgWidthFits, valueConfidence, withoutStray } from './doubts.js';
import { fold, joinGluedI, joinSplitWords, toPhrase, valueHeight, type OcrWord, type Phrase } from './words.js';
import { doubtByConfusion, passesOwnCheck, PRINTED_WITH, scoreFields, type Draft } from './checks.js';
import { mendDate } from './validators.js';
import { birthLine, GROWN_LABELS, linesUnderRow } from './field-lines.js';
import { withRenachUf } from './form-number.js';
import { doubtNameLines, NAME_DOUBT_CAP } from './name-doubts.js';

export { fieldCheck, LOW_CONFIDENCE, scoreFields, withValidation, type Draft } from './checks.js';
export { LOST_DIACRITIC_CAP, particleHyphens, restoreNames } from './name-spelling.js';
export { loneHeaderUf, nearFiliacao, withoutTallCodes } from './near-labels.js';
export { LOST_MARK_SCALE, MAX_LOST_MARK_REREADS } from './name-doubts.js';

const none: Draft = { valor: '', conf: 0 };

/**
 * How far above the PERMISSÃO label (older model) the parents' last line may end, in label heights,
 * when the FILIAÇÃO label was not read: the box for two parents' lines leaves room under the last one.
 */
const PARENTS_ABOVE_PERMIT = 6;
/** A remark word read under this confidence may be the card's edge (leftOfLabel in extractFields). */
const UNSURE_CODE = 0.5;
/** ...when a letter of the remarks' line is read this sure or over (the low-confidence line). */
const SURE_CODE = 0.8;
/** Confidence cap of a category code that starts a glyph right of where it should (a letter lost). */
const LOST_GLYPH_CAP = 0.7;
/** A category boxed more than this many value type heights tall (code-ink.ts's tallest glyph) was not read from its letter alone. */
const TALL_CODE = 1.6;
/**
 * Confidence cap of a remark that is no code read again held to capitals as codes one letter away
 * ("FARA" 0.89 read "EARA" at 0.00: EAR A; final4 #11): under the low-confidence line, over the 0.5 a
 * remark is kept at.
 */
const CLOSE_CODE_CAP = 0.7;
/**
 * A 2022 card's birth line as printed (field 3: date, town, state), found without its label; and the
 * factor of its birthplace's confidence then (the pattern fall-backs' 0.85: applyFallbacks).
 */
const BIRTH_LINE_FALLBACK = 0.85;
/**
 * Factor of a parent's line found only by parents.ts's looser search (type at 0.9 x the label's, not
 * valueBelow's 1.2 x): it is under FILIAÇÃO and reads as a name, but the size that tells a value from
 * a label's words did not.
 */
const LOOSER_LINE = 0.9;
/** Cap of a parent's line that starts far right of the label (parents.ts startLost), or of an identity number under a label that lost its DOC. (label-edge.ts identityStartLost): a value known to lack its start. */
const LOST_START_CAP = 0.5;
/**
 * How far above the birth line (label heights) the name's line may end when both their labels were
 * unread: field 3's label line stands between them (~3 label heights from the name's foot to the date's top).
 */
const BIRTH_LINE_REACH = 5;
/**
 * An identity line's number and its issuer DETRAN with a state ("102959350 DETRAN PR", "12.345.678-9
 * DETRAN-PR"): at least 5 digits (dots, dashes, slashes and a final X between them), then DETRAN.
 */
const IDENTITY_DETRAN = /(?<![\dA-Z])(?=(?:[^\d\s]*\d){5})[\d.\-/]+X?\s*[-–—]?\s*DETRAN\s*[-–—.]?\s*[A-Z]{2}\b/g;
/** Confidence cap of an identity number whose leading edge mark was dropped (doubts.ts edgeMarkedNumber). */
const EDGE_MARK_CAP = 0.75;
/** Confidence cap of a state (identity line) or a category read in small letters (the card prints capitals). */
const SMALL_UF_CAP = 0.7;
/** Confidence cap of a date mended through the recogniser's digit confusions (validators.ts mendDate). */
const MENDED_DATE_CAP = 0.6;
/** A CPF as printed, alone on its phrase ("618.781.028-77"): the category's column on a 2022 front when the CPF's label went unread. */
const CPF_PRINTED = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
/** Confidence cap of a birthplace whose state was read with a confused capital ("NT" for MT). */
const CONFUSED_UF_CAP = 0.7;

export interface ExtractedFields {
  model: CnhModel;
  campos: Record<CnhFieldName, CnhField>;
  /** Labels found (a measure of how well the layout was read). */
  labelsFound: number;
  /**
   * Value phrases whose reading failed its format or check (CPF/number not 11 digits or wrong check
   * digits, no date or no real one, identity line without a known issuing body, a category or remark
   * that is no code, a birthplace without its state): worth a second, single-line look; `accept` says
   * whether a new reading of the phrase passes.
   */
  suspects: Suspect[];
}

/**
 * A value to read again from its phrase's box: `accept` says whether a new reading passes;
 * `whitelist`: the only characters the recogniser may read there (a code's alphabet, codes.ts).
 */
export interface Suspect {
  phrase: Phrase;
  accept: (text: string) => boolean;
  whitelist?: string;
  /** Read enlarged this many times (a word's diacritic: LOST_MARK_SCALE). */
  scale?: number;
  /** Every word of the new reading at least this confident, or it is not taken. */
  minConf?: number;
  /**
   * A new reading (held to `whitelist`) one letter or less from the old one takes the old reading's
   * mean confidence, at most this (second-looks.ts rereadSuspects: a whitelist's forced letters read unsure).
   */
  closeCap?: number;
  /**
   * A code: when the held reading of the phrase's box fails, its own chain of glyphs (code-ink.ts
   * codeInk, value-type blobs around the phrase's centre) is cut close and read once more, held alike.
   */
  inkCut?: boolean;
}

/**
 * Phrases (+ their reading-order text) -> the fifteen `campos`. Values found by label keep the mean
 * word confidence; pattern fall-backs are scaled by 0.85; fields absent from the document are
 * `{ valor: '', confianca: 0 }`. `textLayer`: the words are a PDF's text layer, exact (checks.ts scoreFields).
 */
export function extractFields(recognised: Phrase[], fullText: string, textLayer = false): ExtractedFields {
  // A word's final I read apart and glued to it (words.ts joinGluedI) joined back, and a capital word split
  // inside (joinSplitWords; not on a text layer, whose words and spaces are the document's own).
  const phrases = recognised.map((p) => (textLayer ? joinGluedI(p) : joinSplitWords(joinGluedI(p))));
  const labels = findLabels(phrases);
  const labelPhrases = new Set([...labels.values()].map((l) => l.phrase));
  const model = detectModel(labels, fullText);
  const labelH = labelHeight(labels);
  // Label boxes grown far over their type (a lens's or a scanner's halo: GROWN_LABELS): values in plain
  // capitals and digits are measured against the labels' type (final10 #46: the 1ª habilitação's date,
  // 21 px, under label boxes of median 27).
  const typeLow = labelTypeLow(labels);
  const capH = typeLow > 0 && typeLow < GROWN_LABELS * labelH ? Math.min(labelCapHeight(labels), typeLow) : labelCapHeight(labels);
  const fixedBelow = (id: LabelId, lines = 1): Phrase[] => {
    const l: FoundLabel | undefined = labels.get(id);
    return l ? valueBelow(l, phrases, labelPhrases, lines, labelH, capH) : [];
  };
  // A label with no value within the fixed reach looks as far as this page prints its values (value-place.ts pageValueReach).
  const reach = pageValueReach(labelValueGaps(labels, phrases, labelPhrases, labelH, capH));
  const below = (id: LabelId, lines = 1): Phrase[] => {
    const found = fixedBelow(id, lines);
    const l: FoundLabel | undefined = labels.get(id);
    return found.length || !l || reach <= VALUE_REACH_FIXED ? found : valueBelow(l, phrases, labelPhrases, lines, labelH, capH, reach);
  };
  const suspects: Suspect[] = [];
  const read = (id: LabelId, norm: (s: string) => string, checked = false, part?: (w: OcrWord) => boolean): Draft => {
    let ps = below(id);
    if (!ps.length) return none;
    // A number or date joined with the next field's value on its row (value-place.ts firstPiece): its own piece.
    const piece = checked && ps.length === 1 && !norm(ps[0].text) ? firstPiece(ps[0], phrases) : undefined;
    if (piece && norm(piece.text)) ps = [piece];
    const valor = norm(ps.map((p) => p.text).join(' '));
    if (!valor && checked && ps.length === 1) suspects.push({ phrase: ps[0], accept: (t) => norm(t) !== '' });
    // A number or date of the right shape that fails its own check (check digits, a real date: "06/16/1977")
    // is read again with the recogniser held to the characters it is printed with.
    if (valor && checked && ps.length === 1 && !passesOwnCheck(id, valor)) suspects.push({ phrase: ps[0], accept: (t) => passesOwnCheck(id, t), whitelist: PRINTED_WITH[id] });
    return valor ? { valor, conf: valueConfidence(ps, part) } : none;
  };
  const d: Partial<Record<CnhFieldName, Draft>> = {};

  d.nome_completo = read('nome', normalizeName, false, isNameWord);
  // The birth line or a place ("13/04/1956, JATAIZINHO, PR", "ASTORGA, PR") taken for the name's line, the
  // name's own line unread: no person's name holds a date or ends in a comma and a state (final18 #14, #72,
  // #74: the town read as the name at 0.7). The name is looked for above the next label instead.
  const underName = below('nome').map((p) => p.text).join(' ');
  if (d.nome_completo.valor && (BIRTH_START.test(underName) || isPlaceLine(underName))) d.nome_completo = none;
  // The phrases the name was read from (under its label, or above the next label when it was unread).
  let namePs = d.nome_completo.valor ? below('nome') : [];
  // A mark read as a short word after the name, boxed far taller than it (doubts.ts tallStray): not the
  // name's; the name without it, under the low-confidence line (the mark may hide letters of it).
  const unstrayed = withoutStray(namePs);
  if (unstrayed.dropped) {
    namePs = unstrayed.phrases;
    const valor = normalizeName(namePs.map((p) => p.text).join(' '));
    d.nome_completo = valor ? { valor, conf: valueConfidence(namePs, isNameWord), cap: NAME_DOUBT_CAP } : none;
  }
  if (!d.nome_completo.valor) {
    // Label unread: the name is the value right above the next label (identity line / field 3).
    const anchor = labels.get(model === '2022' ? 'nascimento3' : 'identidade');
    // Field 3's label unread too (2022): the birth line itself, a date and a comma, with the label's
    // line between it and the name (final8 #28, a glare over both labels).
    const birth = !anchor && model === '2022' ? phrases.find((p) => !labelPhrases.has(p) && BIRTH_START.test(p.words[0].text)) : undefined;
    const ps = anchor ? valueAbove(anchor, phrases, labelPhrases, labelH) : birth ? valueAbove({ id: 'nascimento3', phrase: birth }, phrases, labelPhrases, labelH, 1, BIRTH_LINE_REACH) : [];
    const valor = normalizeName(ps.map((p) => p.text).join(' '));
    if (valor) {
      d.nome_completo = { valor, conf: valueConfidence(ps, isNameWord) * 0.9 };
      namePs = ps;
    }
  }
  d.cpf = read('cpf', normalizeCpf, true, hasDigit);
  d.numero_cnh = read('registro', normalizeCnhNumber, true, hasDigit);
  const catLabel = labels.get('categoria'), catPs = below('categoria').map(withoutTallCodes);
  const catText = normalizeCategory(catPs.map((p) => p.text).join(' '));
  d.categoria = catText ? { valor: catText, conf: valueConfidence(catPs) } : none;
  // Its label unread on a 2022 front: the code in the CPF's column under it (near-labels.ts categoryUnderCpf).
  const cpfValue = !catText && !catLabel && model === '2022' ? below('cpf')[0] ?? phrases.find((p) => CPF_PRINTED.test(p.text.replace(/\s+/g, ''))) : undefined;
  // The page's value type (words.ts valueHeight).
  const typeH = valueHeight(phrases.flatMap((p) => p.words));
  const pageTypeH = cpfValue ? typeH : 0;
  const placedCat = cpfValue ? categoryUnderCpf(cpfValue, phrases, labelPhrases, pageTypeH) : undefined;
  if (placedCat) d.categoria = { valor: placedCat.text.trim(), conf: valueConfidence([placedCat]), cap: PLACED_CODE_CAP };
  // There, a word of a misread code's shape ("Cc"): read again held to the categories' letters, from its own ink.
  const misreadCat = cpfValue && !placedCat ? misreadCategoryUnderCpf(cpfValue, phrases, labelPhrases, pageTypeH) : undefined;
  if (misreadCat) suspects.push({ phrase: widenedCode(misreadCat, true), accept: isCategoryReading, whitelist: CATEGORY_ALPHABET, inkCut: true, minConf: PLACED_CODE_CONF });
  // On an older front: the code over the licence dates' row, at its right end (near-labels.ts categoryAboveDates).
  const aboveDates = !catText && !catLabel && model === 'old' ? categoryAboveDates(phrases, labelPhrases, typeH) : undefined;
  if (aboveDates) d.categoria = { valor: aboveDates.text.trim(), conf: valueConfidence([aboveDates]), cap: PLACED_CODE_CAP };
  // Nothing there read as a category: its place read again, held to the categories' letters.
  const catPlace = !catText && !catLabel && model === 'old' && !aboveDates ? categoryPlace(phrases, typeH) : undefined;
  if (catPlace) suspects.push({ phrase: catPlace, accept: isCategoryReading, whitelist: CATEGORY_ALPHABET, inkCut: true, minConf: PLACED_CODE_CONF });
  // Read, but no category in it ("R" for B): read again with the recogniser held to the categories' letters.
  if (!d.categoria.valor && catPs.length === 1 && !catPs[0].words.every((w) => wordNotCode(w.text))) suspects.push({ phrase: widenedCode(catPs[0], true), accept: isCategoryReading, whitelist: CATEGORY_ALPHABET, inkCut: true });
  if (d.categoria.valor && catLabel && catPs.length === 1) {
    // A code starting a glyph or more right of where this card's values start lost its first letter
    // ("AE" read "E" at 0.97: final2 part): read again from where it should begin, and capped under the
    // low-confidence line unless the new reading is a longer code.
    const excess = excessIndent(catLabel, catPs[0], labels, (id) => below(id)[0]);
    if (excess > LOST_GLYPH * catPs[0].h) {
      const shorter = d.categoria.valor.length;
      suspects.push({ phrase: { ...catPs[0], x0: catPs[0].x0 - excess }, accept: (t) => normalizeCategory(t).length > shorter });
      d.categoria = { ...d.categoria, cap: LOST_GLYPH_CAP };
    }
  }
  // A code boxed far taller than the page's value type (words.ts valueHeight): the recogniser read a
  // blurred letter together with what lies over or under it (final9 #8: B boxed with a wave of the
  // security print, 59 px for a 28 px type, read "E" at 0.82 and again alone at 0.892).
  if (d.categoria.valor && catPs.length === 1 && typeH > 0 && catPs[0].h > TALL_CODE * typeH) d.categoria = { ...d.categoria, cap: Math.min(d.categoria.cap ?? 1, LOST_GLYPH_CAP) };
  // A code read in small letters unlike its capitals (the card prints capitals; c o s v w x z are the
  // capitals' own shapes, smaller): a C read "e" at 0.92 on a worn JPEG (final15 #11).
  if (d.categoria.valor && /[abd-nprtuy]/.test(catPs.map((p) => p.text).join(''))) d.categoria = { ...d.categoria, cap: Math.min(d.categoria.cap ?? 1, SMALL_UF_CAP) };
  d.data_validade = read('validade', normalizeDate, true, hasDigit);
  d.data_emissao = read('emissao', normalizeDate, true, hasDigit);
  d.data_primeira_habilitacao = read('primeira', normalizeDate, true, hasDigit);
  // Remarks with the flat marks read as letters doubted (near-labels.ts doubtFlatCodes).
  // A word read unsure (under UNSURE_CODE) that ends left of where the label starts, beside a code read
  // sure, is no remark: codes are printed from the label's column on, and what lies wholly left of it
  // is the card's edge or the frame (final20 #10: "E" at 0.37 boxed left of the label, then EARA at 0.87).
  const obsX = labels.get('observacoes')?.phrase.x0;
  const leftOfLabel = (p: Phrase): Phrase | undefined => {
    if (obsX === undefined || !p.words.some((w) => w.conf >= SURE_CODE && /\p{L}/u.test(w.text))) return p;
    const keep = p.words.filter((w) => !(w.conf < UNSURE_CODE && w.x1 < obsX));
    return keep.length === p.words.length ? p : keep.length ? toPhrase(keep) : undefined;
  };
  const obsPs = below('observacoes').map((p) => doubtFlatCodes(p, capH)).filter((p): p is Phrase => p !== undefined)
    .map(leftOfLabel).filter((p): p is Phrase => p !== undefined);
  const remarks = normalizeRemarks(obsPs.map((p) => p.text).join(' '));
  // A place ("CITY, UF": the issue side's place of issue, or a form's printed line) is no remark.
  d.observacoes = remarks && !isPlaceLine(obsPs.map((p) => p.text).join(' ')) ? { valor: remarks, conf: valueConfidence(obsPs) } : none;
  // Remarks are often absent: what the recogniser makes of the security print below the label then
  // comes with low confidence (< 0.5) and is not a remark. A lone phrase of codes read that unsure is
  // worth a single-line second look at full width (it replaces the first reading only if it is codes).
  // One that is not codes ("AL" for EAR, "FARA" for EAR A) is read again from its box widened, with the
  // recogniser held to the codes' letters.
  if (d.observacoes.valor && obsPs.length === 1) {
    const codes = REMARK_CODES.test(d.observacoes.valor);
    if (!codes) suspects.push({ phrase: widenedCode(obsPs[0]), accept: isRemarkReading, whitelist: REMARK_ALPHABET, closeCap: CLOSE_CODE_CAP });
    else if (d.observacoes.conf < 0.5) suspects.push({ phrase: obsPs[0], accept: isRemarkReading });
  }
  if (d.observacoes.conf < 0.5) d.observacoes = none;
  // Its label unread: remarks holding EAR told by their shape (near-labels.ts remarksWithoutLabel), capped.
  const loneRemarks = !d.observacoes.valor && !labels.has('observacoes') ? remarksWithoutLabel(phrases, labelPhrases) : undefined;
  if (loneRemarks) d.observacoes = { valor: normalizeRemarks(loneRemarks.text), conf: valueConfidence([loneRemarks]), cap: PLACED_CODE_CAP };

  // Birth: field 3 of the 2022 model "DD/MM/AAAA, CIDADE, UF"; the older model prints the date alone.
  d.local_nascimento = none;
  const n3 = below('nascimento3');
  if (n3.length) {
    const { date, city, uf, confused } = birthLine(n3.map((p) => p.text).join(' '));
    const conf = valueConfidence(n3, isNameWord);
    d.data_nascimento = date ? { valor: date, conf: valueConfidence(n3, hasDigit) } : none;
    // A state read with a confused capital ("NT": MT) is kept, under the low-confidence line.
    if (city && uf) d.local_nascimento = { valor: `${city}, ${uf}`, conf, ...(confused ? { cap: CONFUSED_UF_CAP } : {}) };
    else if (city) d.local_nascimento = { valor: city, conf: conf * 0.6 };
    // A town read without a state after it ("CÁCERES, NT"): the line is read again on its own.
    if (city && (!uf || confused) && n3.length === 1) suspects.push({ phrase: n3[0], accept: (t) => { const b = birthLine(t); return b.city !== '' && b.uf !== '' && !b.confused; } });
  } else {
    d.data_nascimento = read('nascimento', normalizeDate, false, hasDigit);
    // Field 3's label unread (2022 model): its value line is the only one printed "DD/MM/AAAA, CIDADE, UF";
    // its town and state are taken as a pattern fall-back (BIRTH_LINE_FALLBACK x: final4 #8, #56).
    const line = model === '2022' ? phrases.find((p) => !labelPhrases.has(p) && BIRTH_LINE.test(single(p.text))) : undefined;
    const b = line ? birthLine(line.text) : undefined;
    if (line && b && b.city && UFS.has(b.uf)) d.local_nascimento = { valor: `${b.city}, ${b.uf}`, conf: valueConfidence([line], isNameWord) * BIRTH_LINE_FALLBACK };
  }

  // Identity document line: number, issuing body, state.
  const idp = below('identidade');
  let rgUf = '';
  d.rg = none;
  d.orgao_expedidor = none;
  if (idp.length) {
    const parsed = parseIdentity(idp.map((p) => p.text).join(' '));
    rgUf = parsed.uf;
    if (parsed.rg) d.rg = { valor: parsed.rg, conf: valueConfidence(idp, hasDigit), failed: !rgWidthFits(parsed.rg, idp, below('registro')) };
    // A bar or bracket read before the number's digits (mapped to a 1): a frame line's or the card's
    // edge as often as a 1 (doubts.ts edgeMarkedNumber); a mark boxed far taller than the line's type is
    // no digit and is dropped, a mark of the type's height leaves the number in doubt.
    const edge = parsed.rg ? edgeMarkedNumber(idp) : undefined;
    if (edge && d.rg.valor.startsWith('1')) d.rg = edge === 'tall' ? { ...d.rg, valor: d.rg.valor.slice(1), cap: Math.min(d.rg.cap ?? 1, EDGE_MARK_CAP) } : { ...d.rg, failed: true };
    // DOC. lost off the label's start, and the number under it not reaching further left: its first digits lost alike (label-edge.ts).
    const idLabel = labels.get('identidade');
    if (parsed.rg && idLabel && identityStartLost(idLabel.phrase, phrases, idp.flatMap((p) => p.words).find(hasDigit))) d.rg = { ...d.rg, cap: Math.min(d.rg.cap ?? 1, LOST_START_CAP) };
    if (parsed.orgao) d.orgao_expedidor = { valor: parsed.orgao, conf: valueConfidence(idp, isNameWord) };
    const known = (t: string): boolean => {
      const p = parseIdentity(t);
      return p.rg !== '' && isKnownIssuer(p.orgao);
    };
    if (idp.length === 1 && !known(idp[0].text)) suspects.push({ phrase: idp[0], accept: known });
  }

  // Parents: two lines (father, mother) or one (mother only).
  let filLines = below('filiacao', 2);
  // FILIAÇÃO unread as a label but read as a word a letter or two off ("FUAÇÃO" on a blurred card,
  // final6 #8): a parent's line is never one such word, so it stands for the label and the parents are
  // the lines under it (taken as one, it became the father and the father the mother).
  const nearFil = labels.has('filiacao') ? undefined : nearFiliacao(phrases, labelPhrases);
  if (nearFil) {
    labelPhrases.add(nearFil.phrase);
    filLines = valueBelow(nearFil, phrases, labelPhrases, 2, labelH, capH);
  }
  const permissao = labels.get('permissao');
  if (!filLines.length && !labels.has('filiacao') && model === 'old' && permissao) {
    // Label unread: the parents are the (one or two) value lines above PERMISSÃO. The older card
    // leaves the parents' box's spare room under them: the mother's line ends 3-4.5 label heights
    // above PERMISSÃO (final part), hence PARENTS_ABOVE_PERMIT.
    filLines = valueAbove(permissao, phrases, labelPhrases, labelH, 2, PARENTS_ABOVE_PERMIT);
  }
  const cat = labels.get('categoria');
  if (!filLines.length && !labels.has('filiacao') && model === '2022' && cat) {
    // Label unread (2022 model): the parents are the last one or two value lines under the category row.
    filLines = linesUnderRow(cat, phrases, labelPhrases, labelH, typeLow);
  }
  // The block under the label, looked for again when the value-size test lost a line (parents.ts: label
  // boxes grown by blur or a scanner's halo as tall as the parents' lines, a line that lost its first word).
  const filLabel = labels.get('filiacao') ?? nearFil;
  // A line with no name in it is no parent's: the card's border read "|" beside the label took the
  // father's place and the father the mother's (final9 #35).
  if (filLabel) filLines = filLines.filter((p) => normalizeName(p.text) !== '');
  let looser = new Set<Phrase>();
  if (filLabel && filLines.length < 2) ({ lines: filLines, extra: looser } = parentLines(filLabel, filLines, phrases, labelPhrases, labelH));
  // A mark read as a short word after a parent's name, boxed far taller than it (doubts.ts tallStray, as
  // for the holder's name): not the parent's; the name without it, under the low-confidence line
  // (final28 #50: "EN" at 0.42 boxed 41 px tall after ARRAIS's 21, a glare's edge).
  const strayed = new Set<Phrase>();
  filLines = filLines.map((p) => {
    const { phrases: [q], dropped } = withoutStray([p]);
    if (!dropped || !q) return p;
    strayed.add(q);
    if (looser.has(p)) looser.add(q);
    return q;
  });
  const fil = filLines.map((p) => ({ valor: normalizeName(p.text), conf: valueConfidence([p], isNameWord) * (filLabel ? 1 : 0.9) * (looser.has(p) ? LOOSER_LINE : 1), ...(strayed.has(p) ? { cap: NAME_DOUBT_CAP } : {}) }));
  // One line read: the mother alone (first line, nothing under it), or the father with the mother's line
  // unread (seen on the tuning part). Under the label, parents.ts loneParent tells them by where the line
  // stands and whether something was read under it; without the label, the mother as before. The
  // value is kept under the low-confidence line (0.75 x) either way: which parent is not sure.
  const lone = fil.length === 1 ? (filLabel ? loneParent(filLabel, filLines[0], phrases, labelPhrases) : 'mother') : undefined;
  const paiLine = fil.length === 2 ? filLines[0] : lone === 'father' ? filLines[0] : undefined;
  const maeLine = fil.length === 2 ? filLines[1] : lone === 'mother' ? filLines[0] : undefined;
  d.nome_pai = fil.length === 2 ? fil[0] : lone === 'father' ? { ...fil[0], conf: fil[0].conf * 0.75 } : none;
  d.nome_mae = fil.length === 2 ? fil[1] : lone === 'mother' ? { ...fil[0], conf: fil[0].conf * 0.75 } : none;
  // A parent's line that starts far right of the label lost its first word(s): LOST_START_CAP, under a
  // second reading's whole line (final9 #35: "JANDIR NASSIF HELOU" against ELIÉZER JANDIR NASSIF HELOU at 0.63).
  for (const [k, line] of [['nome_pai', paiLine], ['nome_mae', maeLine]] as const) {
    const v = d[k];
    if (filLabel && line && v?.valor && startLost(filLabel, line, labelH)) d[k] = { ...v, cap: Math.min(v.cap ?? 1, LOST_START_CAP) };
  }

  // Issuing state: "DETRAN - UF"; the older model's front alone only shows the identity's state.
  // (The identity document itself may be issued by a DETRAN: its line is skipped.)
  // A "DETRAN UF" right after a number of 5 or more digits is an identity line's issuer (number, issuer,
  // state: an RG issued by a DETRAN), whether or not its label was read (final10 #35: "102959350 DETRAN
  // PR" under the label read "DOC. MENTIDADA", taken at 0.976 for the card's RS); the card's own DETRAN
  // line stands alone. Such runs are cut before looking for it.
  const detranRe = /DETRAN\s*[-–—.]?\s*([A-Z]{2})\b/;
  const withoutIdentities = (t: string): string => t.replace(IDENTITY_DETRAN, ' ');
  const detranPhrase = phrases.find((p) => !idp.includes(p) && UFS.has(detranRe.exec(withoutIdentities(fold(p.text)))?.[1] ?? ''));
  const idText = fold(idp.map((p) => p.text).join(' '));
  const detran = detranPhrase ? detranRe.exec(withoutIdentities(fold(detranPhrase.text))) : detranRe.exec(withoutIdentities(fold(fullText).replace(idText || '\u0000', '')));
  // The place of issue ("LOCAL: CITY, UF", issue side) is in the issuing state.
  const localPs = below('local');
  const localText = fold(single(localPs.map((p) => p.text).join(' ')));
  const localUf = /,\s*([A-Z]{2})$/.exec(localText)?.[1];
  if (detran && UFS.has(detran[1])) {
    d.uf = { valor: detran[1], conf: detranPhrase ? valueConfidence([detranPhrase], (w) => fold(w.text).replace(/[^A-Z]/g, '') === detran[1]) : 0.8 * 0.85 };
  } else if (localUf && UFS.has(localUf)) {
    // DETRAN line missed, place of issue read: its state, inferred, so kept under the low-confidence
    // line (capped at 0.75 after the checks).
    d.uf = { valor: localUf, conf: valueConfidence(localPs), cap: 0.75 };
  } else if (model === 'old' && rgUf) {
    // The older front alone shows only the identity's state. With the issue side in view (its labels
    // or notices read) the DETRAN line was missed, and the identity's state is only a guess (0.6 x).
    // ASSINATURA: both signature labels are printed on the issue side (printed-lines.ts gives back only
    // "ASSINATURA DO" of a signature line it whitened).
    const backSeen = labels.has('local') || labels.has('emissao') || /ASSINATURA|PORTADOR|TERRITORIO NACIONAL/.test(fold(fullText));
    // The state's own word, when read in small letters (the card prints capitals: "se." for SC, final14
    // #25, e and c told apart by a stroke), is a guessed shape: under the low-confidence line.
    const ufWord = idp.flatMap((p) => p.words).filter((w) => fold(w.text).replace(/[^A-Z]/g, '') === rgUf).at(-1);
    const small = ufWord !== undefined && /[a-z]/.test(ufWord.text);
    d.uf = { valor: rgUf, conf: d.rg.conf * 0.9 * (backSeen ? 0.6 : 1), ...(small ? { cap: SMALL_UF_CAP } : {}) };
  } else {
    d.uf = loneHeaderUf(phrases, labels) ?? none;
  }
  // Cross-check: the place of issue is in the issuing state; a UF that disagrees with it is kept
  // (either may be the misread one) but under the low-confidence line.
  if (d.uf.valor && localUf && UFS.has(localUf) && localUf !== d.uf.valor) d.uf = { ...d.uf, conf: d.uf.conf * 0.6 };
  // The RENACH form number is numbered with the issuing state's letters (form-number.ts withRenachUf):
  // the state when the DETRAN line went unread, a check on it when it was read.
  d.uf = withRenachUf(d.uf, phrases);
  // Names and the birthplace's town doubted by what their lines show (name-doubts.ts doubtNameLines).
  // A text layer loses no mark or letter: the doubts read from the words' boxes are the recogniser's.
  suspects.push(...(textLayer ? [] : doubtNameLines(d, phrases, { name: namePs, nameLabelled: below('nome'), pai: paiLine, mae: maeLine, birth: n3 })));

  applyFallbacks(d, `${fullText}\n${adjacentPairs(phrases).join('\n')}`, model, labels, phrases);
  // An identity number holding a digit the page's checked numbers show misread (checks.ts doubtByConfusion).
  doubtByConfusion(d);
  // A date that is none only for a digit the calendar allows no such digit at ("84/05/2838"): mended
  // through the recogniser's digit confusions (validators.ts mendDate), kept under the low-confidence line.
  for (const k of ['data_nascimento', 'data_primeira_habilitacao', 'data_emissao', 'data_validade'] as const) {
    const v = d[k];
    const mended = v?.valor ? mendDate(v.valor) : '';
    if (v && mended) d[k] = { ...v, valor: mended, cap: Math.min(v.cap ?? 1, MENDED_DATE_CAP) };
  }
  // The names' last steps: marks put back, a stamp's words cut, letters lost doubted (name-finish.ts).
  finishNames(d, textLayer, phrases);
  return { model, campos: scoreFields(d, textLayer), labelsFound: labels.size, suspects };
}
