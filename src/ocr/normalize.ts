/**
 * Value normalisation to the field conventions: CPF `000.000.000-00`, dates `DD/MM/AAAA`, 11-digit
 * registration number, names uppercase with accents as printed, single spaces. Recogniser confusions
 * between letters and digits are mapped only inside numeric fields.
 */
import { isValidCnhNumber, isValidCpf } from './validators.js';
import { editDistance, fold } from './words.js';

const DIGIT_FIX: Record<string, string> = { O: '0', o: '0', D: '0', Q: '0', I: '1', l: '1', '|': '1', i: '1', L: '1', ']': '1', '[': '1', '!': '1', S: '5', s: '5', B: '8', Z: '2', z: '2', G: '6', T: '7', A: '4', g: '9' };

/** Maps look-alike letters to digits (for numeric fields only). */
export const digitsOf = (s: string): string => s.split('').map((c) => DIGIT_FIX[c] ?? c).join('').replace(/\D/g, '');

/** Collapses whitespace and trims. */
export const single = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** `DD/MM/AAAA` from OCR text (look-alikes fixed, separators / . - or missing), or '' when none. */
export function normalizeDate(s: string): string {
  const fixed = s.split('').map((c) => (/[0-9/.\-\s]/.test(c) ? c : DIGIT_FIX[c] ?? c)).join('');
  const m = /(\d{2})\s*[/.\-]?\s*(\d{2})\s*[/.\-]?\s*(\d{4})/.exec(fixed);
  return m ? `${m[1]}/${m[2]}/${m[3]}` : '';
}

/** All `DD/MM/AAAA` dates in a text, in order. */
export function allDates(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/(\d{2})\s?[/.]\s?(\d{2})\s?[/.]\s?(\d{4})/g)) out.push(`${m[1]}/${m[2]}/${m[3]}`);
  return out;
}

/**
 * The 11 digits of a 12-digit reading whose first or last digit is a mark beside the number (a frame
 * line's edge read "|" or "1"): the one way of dropping an edge digit that passes `valid` (check
 * digits), else ''. A misread digit inside as well fails the check, and nothing is guessed.
 */
function edgeDropped(d: string, valid: (x: string) => boolean): string {
  if (d.length !== 12) return '';
  const ok = [...new Set([d.slice(1), d.slice(0, 11)])].filter(valid);
  return ok.length === 1 ? ok[0] : '';
}

/**
 * `000.000.000-00` from text holding exactly 11 digits (after look-alike fixes), or 12 of which
 * dropping the first or the last leaves a valid CPF (edgeDropped), else ''.
 */
export function normalizeCpf(s: string): string {
  let d = digitsOf(s);
  if (d.length === 12) d = edgeDropped(d, isValidCpf);
  if (d.length !== 11) return '';
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

/** 11-digit registration number, or the valid 11 of a 12-digit reading (edgeDropped), or ''. */
export function normalizeCnhNumber(s: string): string {
  const d = digitsOf(s);
  return d.length === 11 ? d : edgeDropped(d, isValidCnhNumber);
}

/** Marks the recogniser reads for an apostrophe: typographic quotes, prime, grave and acute accents, modifier letter. */
const APOSTROPHE_LIKE = "'\u2019\u2018\u0060\u00b4\u2032\u02bc";
/**
 * Longest elided word an apostrophe ends in a name: D' (D'ÁVILA), SANT' (SANT'ANNA), DELL'/DALL'
 * (Italian surnames). Portuguese elision leaves a short prefix; a longer word ending in a mark is noise.
 */
const ELIDED_MAX = 4;
/** Consonants (Ç too): the last letter of an elided word. */
const CONSONANTS = 'BCDFGHJKLMNPQRSTVWXYZÇ';

/**
 * Whether the word ending at `at` in `s` is an elided one: at most ELIDED_MAX letters from the word's start,
 * ending in a consonant (CONSONANTS, not Y: Guarani's Y is a vowel, and no elided word ends in it).
 */
function elidedBefore(s: string, at: number): boolean {
  const word = /\p{L}+$/u.exec(s.slice(0, at))?.[0] ?? '';
  return word.length <= ELIDED_MAX && CONSONANTS.replace('Y', '').includes(word[word.length - 1].toUpperCase());
}

/**
 * Apostrophes of a name as one ASCII "'" (the modifier apostrophe ʼ kept where it is a letter, below): any APOSTROPHE_LIKE mark between two letters (a
 * typographic "SANT’ANNA" read as such was split at the mark), and an elided word of at most
 * ELIDED_MAX letters ending in a consonant and a mark, followed by a space and a letter ("SANT' ANNA":
 * the recogniser split the word at the mark) joined to what follows. Elision drops a final vowel, so an
 * elided word ends in a consonant: a particle with a stray mark ("DA' SILVA") is not joined. Other
 * marks are left to the caller.
 */
export function apostrophes(s: string): string {
  const mark = `[${APOSTROPHE_LIKE}]`;
  return s
    // The modifier apostrophe after a vowel (or a word longer than an elided one) is a letter: kept (MODIFIER_LETTERS).
    .replace(new RegExp(`(?<=\\p{L})\u02BC(?=\\p{L})`, 'gu'), (m, at: number) => (elidedBefore(s, at) ? "'" : m))
    .replace(new RegExp(`(?<=\\p{L})[${APOSTROPHE_LIKE.replace('\u02bc', '')}](?=\\p{L})`, 'gu'), "'")
    .replace(new RegExp(`(?<=(?:^|\\s)\\p{L}{0,${ELIDED_MAX - 1}}[${CONSONANTS}])${mark}\\s+(?=\\p{L})`, 'giu'), "'");
}

/**
 * A closing parenthesis inside a word, a letter before it and a letter or an "!" (an I, below) after
 * it: the recogniser's reading of a J, whose stem ends in a hook bending left under the line like the
 * parenthesis's lower half (final13: BADJI read "BAD)!" at 0.59 and 0.75 on two cards). No name has a
 * parenthesis, and one that closes a remark in a parenthesis stands after its word, not inside it.
 */
const J_AS_PARENTHESIS = /(?<=\p{L})\)(?=[\p{L}!])/gu;
/**
 * A closing parenthesis or bracket that ends a word of three capitals or more: the same J at a word's
 * end, where the Portuguese model, whose words never end in J, writes its hook as ")" or its top bar
 * and hook as "]" (final15: HORODETSKYJ read "HORODETSKY]" at 0.54-0.78, HRYHORIJ "HRYHORI)" at
 * 0.25-0.86, on every reading of four cards, serif and sans). Names hold no bracket, so the only other
 * source of one is a mark of the card read as type, which misreadNameWords (doubts.ts) already takes
 * as a doubt: the value stays under NAME_DOUBT_CAP either way.
 */
const J_AS_CLOSING = /(?<=\p{Lu}{3})[)\]](?=$|[\s,.])/gu;

/**
 * Letters written as a mark that a name spells with (Unicode category Lm, Spacing Modifier Letters): the
 * ʻokina (U+02BB, Hawaiian's glottal stop: KAʻIMI, HAWAIʻI; Unicode names it MODIFIER LETTER TURNED COMMA and
 * Hawaiian orthography, Pukui & Elbert 1986, counts it a consonant). U+02BC (ʼ, MODIFIER LETTER APOSTROPHE)
 * (ʼ, MODIFIER LETTER APOSTROPHE) too where it is a letter: Guarani's puso, a glottal stop (KOʼẼ, TUPÃʼI;
 * Guarani's orthography counts it a consonant, as Hawaiian does the ʻokina), after a vowel or a word longer
 * than an elided one (apostrophes keeps it there). After an elided word (D'ÁVILA, SANT'ANNA typed with ʼ) it
 * is an apostrophe and written as one (APOSTROPHE_LIKE). The recogniser never writes ʼ: a text layer does
 * (final26: 13 Guarani names of its text layers came back with "'" at confianca 1).
 */
export const MODIFIER_LETTERS = '\u02BB\u02BC';
/** The Latin letters past Latin-1 in NAME_LETTERS (Extended-A and -B, IPA, Extended Additional, -C, -D, the modifier letters), as a character-class body. */
export const BEYOND_LATIN1 = `\u0100-\u024F\u0250-\u02AF${MODIFIER_LETTERS}\u1E00-\u1EFF\u2C60-\u2C7F\uA722-\uA787\uA78B-\uA7FF`;
/**
 * The Latin letters a person's name may be printed with, as a character-class body: Basic Latin, Latin-1
 * (Þ too: Icelandic), Latin Extended-A (Ř Š Ž Ő Ş Ğ İ: Czech, Hungarian, Turkish; Ŋ Ŧ: Sami), Latin Extended-B
 * (Ș Ț with the comma below: Romanian; Ə: Azerbaijani; Ǎ Ǐ Ǒ Ǔ: Pinyin; Ơ Ư: Vietnamese; Ɓ Ɗ Ƙ: Hausa; Ɛ Ɔ:
 * Akan, Ewe), the IPA Extensions (ɛ ɔ ɓ ɗ ŋ's lowercase forms some African orthographies use), Latin
 * Extended Additional (Ạ Ả Ế Ộ: Vietnamese; Ḑ: Livonian), Latin Extended-C and -D (Ɑ; the saltillo Ꞌ) and
 * the letters written as a mark (MODIFIER_LETTERS: Hawaiian's ʻokina). A CNH-e's text layer writes them as
 * printed (final16: DVOŘÁK came back "DVO ÁK" when Extended-A was dropped; final18: LUMINIȚA "LUMINI A",
 * ȚURCANU "URCANU" when Extended-B was; final24: KAʻIMI "KA IMI" while the ʻokina was dropped). The
 * recogniser's Portuguese model writes none of them (its character set holds Latin-1 letters only), and the
 * ink readers (glyph-*.ts) write Latin-1, Extended-A and -B, so mostly a text layer brings the others in.
 * Lowercase letters of these ranges are uppercased before the test.
 */
export const NAME_LETTERS = `A-ZÀ-ÖØ-Þ${BEYOND_LATIN1}`;
/**
 * What a name cannot hold: anything but NAME_LETTERS, spaces, apostrophes and hyphens, and a combining mark
 * that does not follow a letter. A combining mark after a letter stays: NFC has composed every pair with a
 * letter of its own, so what is left is a letter Unicode writes only as a pair (Guarani's G̃, G + U+0303; a
 * text layer writes it so: final26's KOʼÁG̃A came back "KO'ÁG A").
 */
const NOT_NAME_CHAR = new RegExp(`(?<!\\p{L}\\p{M}*)\\p{M}|[^${NAME_LETTERS}\\p{M}' \\-]`, 'gu');
/**
 * Catalan's middle dot (punt volat, U+00B7) between two L's: MARCEL·LÍ, PETRONEL·LA, ESTEL·LA (Institut
 * d'Estudis Catalans, Ortografia catalana 2017, the ela geminada). Catalan writes it only there, and no
 * other Latin orthography prints a middle dot inside a name, so it is kept between two L's (final23 #40,
 * #41: a CNH-e's text layer held "MARCEL·LÍ", made "MARCEL LÍ" at 1). Elsewhere it is a mark like any.
 */
const ELA_GEMINADA = /(?<=L)\u00B7(?=L)/g;
/** A stand-in for the kept middle dot while NOT_NAME_CHAR runs (a private-use character: never in a name). */
const KEPT_DOT = '\uE0B7';
/**
 * The letter runs touching a mark between two letters that normalizeName writes as a space: a character
 * that is not a name letter, an apostrophe (or one of its look-alikes, apostrophes()), a hyphen nor the
 * middle dot of L·L (ELA_GEMINADA), with a letter on both sides ("ANNE/MARIE" -> ANNE, MARIE;
 * "MARCEL‧LÍ" with a hyphenation point -> MARCEL, LÍ). normalizeName splits the word there: the value is
 * then not the name as a text layer holds it (name-marks.ts layerMarkLost, twenty-fifth round). `raw`: a
 * word's text as read; the runs uppercased (NFC), in order, [] when there is no such mark.
 */
export function innerMarkRuns(raw: string): string[] {
  const s = apostrophes(raw).normalize('NFC').toUpperCase().replace(ELA_GEMINADA, KEPT_DOT);
  const mark = new RegExp(`(\\p{L}+)[^${NAME_LETTERS}\\p{M}' \\-\\s${KEPT_DOT}](?=(\\p{L}+))`, 'gu');
  return [...s.matchAll(mark)].flatMap((m) => [m[1], m[2]]).map((r) => r.replaceAll(KEPT_DOT, '\u00B7'));
}

/** Whether `raw` holds a mark between two letters that normalizeName writes as a space (innerMarkRuns). */
export const lostInnerMark = (raw: string): boolean => innerMarkRuns(raw).length > 0;

/**
 * Name as printed: uppercase letters (accents kept, NAME_LETTERS), spaces, apostrophes and hyphens inside words,
 * the middle dot of Catalan's L·L (ELA_GEMINADA);
 * a ")" inside a word, or a ")" or "]" ending a word of three capitals, read as J (J_AS_PARENTHESIS,
 * J_AS_CLOSING); an "!" touching a letter read as I; stray marks
 * from the background removed; tokens of one non-word letter at the ends dropped.
 */
export function normalizeName(s: string): string {
  // "!" touching a letter is the recogniser's reading of an I (GODÓI read "GODÓ!"): no name has one.
  const marked = apostrophes(s.replace(J_AS_PARENTHESIS, 'J').replace(J_AS_CLOSING, 'J').replace(/(?<=\p{L})!|!(?=\p{L})/gu, 'I'));
  // Composed first (NFC): a text layer may write Ș as S and a combining comma below (U+0326).
  const upper = marked.normalize('NFC').toUpperCase().replace(ELA_GEMINADA, KEPT_DOT);
  const cleaned = single(upper.replace(NOT_NAME_CHAR, (c) => (c === KEPT_DOT ? c : ' '))).replaceAll(KEPT_DOT, '\u00B7');
  // Apostrophes and hyphens join letters (D'ÁVILA, SANT'ANA, ANA-LÚCIA): at a word's edge they are marks.
  const parts = cleaned.split(' ').map((w) => w.replace(/^['-]+|['-]+$/g, '')).filter(Boolean);
  const keep1 = new Set(['E', 'A', 'O']);
  while (parts.length && parts[0].length === 1 && !keep1.has(parts[0])) parts.shift();
  while (parts.length && parts[parts.length - 1].length === 1 && !keep1.has(parts[parts.length - 1])) parts.pop();
  return parts.join(' ');
}

/** Licence categories (CTB art. 143, plus ACC). */
export const CATEGORY_SET: ReadonlySet<string> = new Set(['ACC', 'A', 'B', 'C', 'D', 'E', 'AB', 'AC', 'AD', 'AE']);
const CATEGORIES = CATEGORY_SET;

/**
 * A word of this many letters or more, letters only, is no category reading (ACC is the longest code):
 * a name or a label's word taken for the category's line (final18 #74: the father's KEMAL under an
 * unread category, its E read as the category at 0.952 for C). Its letters are not searched for one.
 */
const WORD_NOT_CODE = 4;

/** Whether a token is a word of WORD_NOT_CODE letters or more, letters only: no category reading. */
export const wordNotCode = (t: string): boolean => new RegExp(`^\\p{L}{${WORD_NOT_CODE},}$`, 'u').test(t);

/**
 * Licence category as printed (A, B, C, D, E, AB, AC, AD, AE or ACC). Prefers the capitals as read
 * (a stray lowercase mark is noise), then all letters uppercased, then the first category-like run;
 * words of WORD_NOT_CODE letters or more are left out first.
 */
export function normalizeCategory(raw: string): string {
  const s = raw.split(/\s+/).filter((t) => !wordNotCode(t)).join(' ');
  const caps = s.replace(/[^A-Z]/g, '');
  const all = s.toUpperCase().replace(/[^A-Z]/g, '');
  for (const c of [caps, all]) if (CATEGORIES.has(c)) return c;
  const m = /ACC|A[B-E]|[A-E]/.exec(caps || all);
  return m ? m[0] : '';
}

/** Brazilian state abbreviations. */
export const UFS = new Set(['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO']);
/** The 2022 card's birth line as printed (field 3): date, town, state (the state captured). */
export const BIRTH_LINE = /^\d{2}\/\d{2}\/\d{4} ?, ?[^,\d]+, ?([A-Z]{2})$/;
/** A phrase that starts the 2022 birth line: a date followed by a comma. */
export const BIRTH_START = /^\d{2}\/\d{2}\/\d{4},/;

/** Common issuing bodies of Brazilian identity documents (used only to split "IFPRS" -> IFP, RS). */
const ISSUERS = new Set(['SSP', 'SESP', 'SDS', 'PC', 'DETRAN', 'IFP', 'SJS', 'SJTC', 'SEJUSP', 'SESDEC', 'SSPDS', 'PM', 'DPF', 'IGP', 'ITEP', 'POLITEC', 'SPTC', 'IIRGD', 'DIC', 'SEPC', 'SESEG', 'CBM', 'MAER', 'MEX']);

/**
 * Reads an issuing body through the recogniser's usual confusions: a run of marks such as "|)" or
 * ")" where a J or I stood, I for J, 0 for O, 5 for S, 8 for B. Returns a known body or null.
 */
function snapIssuer(raw: string): string | null {
  for (const v of issuerVariants(raw)) if (ISSUERS.has(v)) return v;
  return null;
}

/** The readings snapIssuer tries for `raw` (its confusions undone every way), as read first. */
function issuerVariants(raw: string): Set<string> {
  const t = raw.toUpperCase().replace(/\s+/g, '');
  const marks = t.replace(/[|)\]}(\[{!1L]+/g, '#');
  const variants = new Set<string>();
  for (const m of ['J', 'I', 'L', '']) variants.add(marks.replace(/#/g, m));
  for (const v of [...variants]) {
    variants.add(v.replace(/0/g, 'O').replace(/5/g, 'S').replace(/8/g, 'B'));
    for (let i = 0; i < v.length; i++) if (v[i] === 'I') variants.add(v.slice(0, i) + 'J' + v.slice(i + 1));
  }
  // A D read as O (the round capitals: "SOS" for SDS, final14 #79), one letter at a time.
  for (const v of [...variants]) for (let i = 0; i < v.length; i++) if (v[i] === 'O') variants.add(v.slice(0, i) + 'D' + v.slice(i + 1));
  return variants;
}

/**
 * A known issuing body and a state read as one word, the state with a look-alike ("IFPR)" for IFP RJ:
 * the space lost and the J read as a mark): the one split that snapIssuer's readings of `raw` allow,
 * or null when none or more than one.
 */
function gluedIssuer(raw: string): { orgao: string; uf: string } | null {
  const found = new Map<string, { orgao: string; uf: string }>();
  for (const v of issuerVariants(raw)) {
    const m = /^([A-Z]{2,})([A-Z]{2})$/.exec(v);
    if (m && ISSUERS.has(m[1]) && UFS.has(m[2])) found.set(v, { orgao: m[1], uf: m[2] });
  }
  const splits = new Set([...found.values()].map((x) => `${x.orgao} ${x.uf}`));
  return splits.size === 1 ? [...found.values()][0] : null;
}

/** True for a common issuing body (see ISSUERS). */
export const isKnownIssuer = (orgao: string): boolean => ISSUERS.has(orgao);

/**
 * True for a body that is no known one (ISSUERS) but one letter off one (a letter misread, dropped or
 * added: editDistance 1): the recogniser's misreading of the known body far more often than another body
 * (final18 #78: SESP read "SESF" at 0.923, the P's bowl lost in low light). The caller doubts it; nothing
 * is mended, a body outside the list may be real.
 */
export const nearKnownIssuer = (orgao: string): boolean => !ISSUERS.has(orgao) && [...ISSUERS].some((k) => Math.abs(k.length - orgao.length) <= 1 && editDistance(k, orgao) === 1);

/** Capitals the recogniser takes for one another (monospaced and condensed type: NT for MT). */
const CAPITAL_CONFUSIONS: Record<string, string> = { M: 'N', N: 'M', L: 'I', D: 'O', Q: 'O' };

/**
 * The state a two-capital word that is none stands for when one of its letters is a capital the
 * recogniser confuses (CAPITAL_CONFUSIONS: "NT" -> MT), if exactly one state is reached that way;
 * '' otherwise (and for a word that is a state already).
 */
export function confusedUf(word: string): string {
  if (!/^[A-Z]{2}$/.test(word) || UFS.has(word)) return '';
  const reached = new Set<string>();
  for (let i = 0; i < 2; i++) {
    const alt = CAPITAL_CONFUSIONS[word[i]];
    const uf = alt ? word.slice(0, i) + alt + word.slice(i + 1) : '';
    if (UFS.has(uf)) reached.add(uf);
  }
  return reached.size === 1 ? [...reached][0] : '';
}

/**
 * A line whose last word is a state abbreviation read with a look-alike ("Pl" for PI: a lowercase l,
 * "|", "!" or "1" for I; "0" for O; "5" for S; "8" for B) ends with that state instead; a last word
 * that spells no state that way is left as read (so is one that is a state already: AL).
 */
function ufLookAlikes(line: string): string {
  const i = line.lastIndexOf(' ');
  const last = line.slice(i + 1);
  if (i < 0 || last.length !== 2 || UFS.has(last.toUpperCase())) return line;
  const uf = last.replace(/[l|!1]/g, 'I').replace(/0/g, 'O').replace(/5/g, 'S').replace(/8/g, 'B').toUpperCase();
  return UFS.has(uf) ? `${line.slice(0, i)} ${uf}` : line;
}

/** The identity line's label words (DOC. IDENTIDADE / ÓRG. EMISSOR / UF), folded: none names a body. */
const ID_LABEL_WORD = /^(DOC|IDENTIDADE|ORG|ORGAO|EMISSOR)$/;

/**
 * Identity document line `NUMBER ORGAO UF` (also `ORGAO/UF`, `ORGAO-UF`) -> parts; the number keeps
 * digits plus a final X check character when printed.
 */
export function parseIdentity(s: string): { rg: string; orgao: string; uf: string } {
  // Quote marks and stops read after the state are specks, no part of it ("SESP PR”").
  const text = single(ufLookAlikes(single(s.replace(/[/\-–]/g, ' ').replace(/[”“"'’‘.,;:]+\s*$/, ''))).toUpperCase());
  const parts = text.split(' ');
  // The line starts with the number: a token of at most two letters and no digit before it is a speck
  // or the card's edge read left of the value ("e] 240323122 SESP PR”", final13 #26).
  while (parts.length > 2 && !/\d/.test(parts[0]) && /\d/.test(parts[1]) && parts[0].replace(/[^A-Z]/g, '').length <= 2) parts.shift();
  let uf = '';
  if (parts.length > 1 && UFS.has(parts[parts.length - 1])) uf = parts.pop() ?? '';
  const numParts: string[] = [];
  while (parts.length && /\d/.test(parts[0])) numParts.push(parts.shift() ?? '');
  const rg = numParts.join('').split('').map((c) => (c === 'X' ? c : DIGIT_FIX[c] ?? c)).join('').replace(/[^0-9X]/g, '');
  // Words of the line's own label read into the value ("SDS ORG": the label's ÓRG. beside the body,
  // final14 #12): no body is named so.
  if (parts.length > 1) {
    const kept = parts.filter((t) => !ID_LABEL_WORD.test(fold(t.replace(/[^A-ZÀ-Ý]/g, ''))));
    if (kept.length) parts.splice(0, parts.length, ...kept);
  }
  // A short trailing token that is not a state is a misread state abbreviation, not the body's name.
  while (!uf && parts.length > 1 && parts[parts.length - 1].replace(/[^A-Z]/g, '').length <= 2) parts.pop();
  let orgao = parts.join(' ').replace(/[^A-Z ]/g, '').trim();
  if (!ISSUERS.has(orgao)) orgao = snapIssuer(parts.join(' ')) ?? orgao;
  // Body and state read as one word ("IFPRS"): split when the prefix is a known issuing body.
  const glued = /^([A-Z]{2,})([A-Z]{2})$/.exec(orgao);
  if (!uf && glued && ISSUERS.has(glued[1]) && UFS.has(glued[2]) && !ISSUERS.has(orgao)) {
    orgao = glued[1];
    uf = glued[2];
  } else if (!uf && !ISSUERS.has(orgao) && parts.length === 1) {
    // The same with the state read through a look-alike ("IFPR)": IFP RJ).
    const g = gluedIssuer(parts[0]);
    if (g) ({ orgao, uf } = g);
  }
  return { rg, orgao, uf };
}
