/**
 * Each field's own checks (CPF and CNH-number check digits, category, UF, birthplace, identity
 * number, issuing body, remarks, names) and the scoring that folds them and the date order into the
 * recogniser's confidence (`scoreFields`). Pure functions on values.
 */
import { CNH_FIELD_NAMES, NAME_FIELDS, type CnhField, type CnhFieldName } from './engine.js';
import { cardWordsOnly, isBoilerplate } from './boilerplate.js';
import { CUT_CODE_CAP, cutRemarkCode, isCategoryReading, REMARK_CODES } from './codes.js';
import type { LabelId } from './layout.js';
import { CATEGORY_SET, isKnownIssuer, NAME_LETTERS, nearKnownIssuer, normalizeCnhNumber, normalizeCpf, normalizeDate, UFS } from './normalize.js';
import { confusedDigits, isValidCnhNumber, isValidCpf, monthSlip, oddTerm, parseDate, validateDates } from './validators.js';
import { LEADING_PARTICLE, TRAILING_PARTICLE } from './doubts.js';

/** Confidence below which a field is reported in `campos_com_baixa_confianca` (spec). */
export const LOW_CONFIDENCE = 0.8;

/**
 * A field's value before scoring, with the recogniser's confidence 0..1; `cap`: the most its final
 * confidence may be, after the checks (fields.ts restoreNames); `failed`: a check made from the words' boxes
 * failed (doubts.ts widthFits), scored as a failed format check.
 */
export interface Draft { valor: string; conf: number; cap?: number; failed?: boolean }
const none: Draft = { valor: '', conf: 0 };

/**
 * The most a date read under the low-confidence line is raised to by a passed date order (scoreFields):
 * just under the line. The order (birth < first licence <= issue < expiry) spans decades, so a day or
 * month digit misread almost never breaks it; only the recogniser's own certainty speaks for those.
 */
export const DATE_ORDER_CEILING = 0.79;

/** Confidence cap of the issue or expiry date an odd term between them doubts (scoreFields, validators.ts oddTerm). */
export const ODD_TERM_CAP = 0.7;

/** Raises (passed check) or lowers (failed check) a recogniser confidence. */
export function withValidation(conf: number, passed: boolean | undefined): number {
  if (passed === undefined) return conf;
  return passed ? Math.min(1, 0.6 * conf + 0.4) : 0.6 * conf;
}

/** Fields whose value is free text: a value that is the card's own print (boilerplate.ts) is dropped. */
const TEXT_FIELDS = new Set<CnhFieldName>(['nome_completo', 'nome_pai', 'nome_mae', 'local_nascimento', 'observacoes', 'orgao_expedidor']);
/**
 * A name's characters as the recogniser can write them: Latin-1 capitals (the Portuguese model's unicharset),
 * spaces, apostrophes, hyphens, and the middle dot of Catalan's L·L (Latin-1 too; normalize.ts normalizeName
 * keeps it between two L's only). A letter past Latin-1 in an image's reading came from an ink reader's guess
 * (glyph-*.ts), so the name fails its check there and stays under the low-confidence line.
 */
const NAME_RE = /^[A-ZÀ-ÖØ-Ý' ·-]+$/;
/**
 * A name's characters in a PDF's text layer: every Latin letter (normalize.ts NAME_LETTERS: Ș, Ł, Ğ, Ő...),
 * spaces, apostrophes, hyphens, the middle dot of L·L. The text layer writes the name the issuer encoded, letter for letter, so a
 * letter past Latin-1 there is no guess (final18's text-layer ȘTEFĂNESCU, ȚURCANU were right at 0.6).
 */
const TEXT_LAYER_NAME_RE = new RegExp(`^[${NAME_LETTERS}' ·-]+$`);
/**
 * A doubled vowel inside a name word: Portuguese spelling has almost none (AARÃO, ISAAC are rare),
 * while a space the recogniser missed after a particle makes one ("DA ANDRADE" -> "DAANDRADE").
 */
const GLUED_VOWELS = /(AA|EE|II|OO|UU)/;
/**
 * Q not followed by U and a vowel: Portuguese spelling writes Q only in QU + vowel (QUEIROZ, QUARESMA;
 * Formulário Ortográfico de 1943, letters), so such a word was cut short or misread (MARQUES read
 * MARQU).
 */
const BAD_Q = /Q(?![UÜ][AEIOUÁÉÍÓÚÂÊÔÃÕ])/;
/**
 * A word of one letter in a name other than the connectors E (Portuguese: "Maria e Silva") and Y (Spanish:
 * "García y López"): a CNH prints names whole, without initials, so such a letter is a word broken where
 * the recogniser lost a letter (final18 #2: OĞUZ read "O UZ" at 0.923, its Ğ unread).
 */
const LONE_LETTER = /(?:^| )[^EY ](?= |$)/;

/**
 * Each field's own check where it has one (undefined: no opinion): CPF and CNH number check digits,
 * category in the allowed set, UF among the 27, birthplace "CITY, UF", identity number shape (6-14 digits), issuing
 * body known, remarks made of codes (REMARK_CODES), names of two words or more in capitals without a
 * doubled vowel (GLUED_VOWELS), a Q outside QU + vowel (BAD_Q) nor a lone letter (LONE_LETTER), neither starting nor ending with a particle (LEADING_PARTICLE, TRAILING_PARTICLE). Date order is checked across fields by `scoreFields`.
 * `textLayer`: the value came from a PDF's text layer, exact: a name's letters may be any Latin letter
 * (TEXT_LAYER_NAME_RE), and the checks for a space or letter the recogniser lost (GLUED_VOWELS, BAD_Q) do not apply.
 */
export function fieldCheck(k: CnhFieldName, valor: string, textLayer = false): boolean | undefined {
  switch (k) {
    case 'cpf': return isValidCpf(valor);
    case 'numero_cnh': return isValidCnhNumber(valor);
    case 'categoria': return CATEGORY_SET.has(valor);
    case 'uf': return UFS.has(valor);
    case 'local_nascimento': {
      const m = /^([A-ZÀ-ÖØ-Ý' -]+), ([A-Z]{2})$/.exec(valor);
      return m !== null && UFS.has(m[2]);
    }
    // Identity numbers of 4-5 digits are the head or tail of a longer one cut by a shadow or the card's edge
    // far more often than a real one (the states' RGs run 6-14 digits; final14 #69: "7443" for 91217443 at
    // 0.952): kept, doubted (a failed check caps it), never raised.
    case 'rg': return /^\d{6,14}X?$/.test(valor);
    // Remarks are restriction codes (one letter) and EAR: anything else was misread ("FARA").
    case 'observacoes': return REMARK_CODES.test(valor) ? undefined : false;
    // A body one letter off a known one was misread (normalize.ts nearKnownIssuer): failed, so under the line.
    case 'orgao_expedidor': return isKnownIssuer(valor) ? true : /^[A-Z]{2,12}$/.test(valor) && !nearKnownIssuer(valor) ? undefined : false;
    case 'nome_completo':
    case 'nome_pai':
    case 'nome_mae':
      // A text layer misses no space and cuts no word: a doubled vowel (AALTJE, NOORI) or a Q without U (QURESHI) is spelt so.
      return (textLayer ? TEXT_LAYER_NAME_RE : NAME_RE).test(valor) && valor.split(' ').filter((t) => t.length > 1).length >= 2 && (textLayer || (!GLUED_VOWELS.test(valor) && !BAD_Q.test(valor))) && !LONE_LETTER.test(valor) && !TRAILING_PARTICLE.test(valor) && !LEADING_PARTICLE.test(valor) ? undefined : false;
    default: return undefined;
  }
}

/**
 * Drafts -> `campos` with validity flags and validation-adjusted confidences (0..1, 3 decimals): each
 * field's own check (fieldCheck) and the date order (validateDates: birth < first licence <= issue <
 * expiry) raise or lower the recogniser's confidence (withValidation: a failed check caps it at 0.6);
 * free-text values that are the card's own print (headers, labels) are dropped, and names made only of it and
 * of issuing bodies and states (boilerplate.ts cardWordsOnly); an issue and an expiry with an
 * odd term (oddTerm) or on the same day of different months (monthSlip) are capped at ODD_TERM_CAP. `textLayer`: the words
 * came from a PDF's text layer (names may hold any Latin letter: TEXT_LAYER_NAME_RE).
 */
export function scoreFields(d: Partial<Record<CnhFieldName, Draft>>, textLayer = false): Record<CnhFieldName, CnhField> {
  for (const k of TEXT_FIELDS) if (d[k]?.valor && isBoilerplate(d[k].valor, k === 'local_nascimento')) d[k] = none;
  // A name made only of the card's print and the identity line's body and state (boilerplate.ts cardWordsOnly).
  for (const k of NAME_FIELDS) if (d[k]?.valor && cardWordsOnly(d[k].valor)) d[k] = none;
  const get = (k: CnhFieldName): Draft => d[k] ?? none;
  // An expiry on the day and month but no licence term after it (validators.ts oddTerm): the
  // less sure of the two was misread (ties: the expiry, the one date no clock checks), under the line.
  if (oddTerm(get('data_emissao').valor, get('data_validade').valor)) {
    const k = get('data_emissao').conf < get('data_validade').conf ? 'data_emissao' : 'data_validade';
    d[k] = { ...get(k), cap: Math.min(get(k).cap ?? 1, ODD_TERM_CAP) };
  }
  // The same day in two different months (validators.ts monthSlip): a month misread, in either date: both under the line.
  if (monthSlip(get('data_emissao').valor, get('data_validade').valor)) {
    for (const k of ['data_emissao', 'data_validade'] as const) d[k] = { ...get(k), cap: Math.min(get(k).cap ?? 1, ODD_TERM_CAP) };
  }
  const dates = validateDates({
    data_nascimento: get('data_nascimento').valor,
    data_primeira_habilitacao: get('data_primeira_habilitacao').valor,
    data_emissao: get('data_emissao').valor,
    data_validade: get('data_validade').valor,
  });
  const out = {} as Record<CnhFieldName, CnhField>;
  const r3 = (x: number): number => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;
  for (const k of CNH_FIELD_NAMES) {
    const { valor, conf, cap, failed } = get(k);
    let check: boolean | undefined;
    const field: CnhField = { valor, confianca: 0 };
    if (k === 'cpf') field.valido = check = valor ? isValidCpf(valor) : false;
    if (k in dates) field.valida = check = valor ? dates[k as keyof typeof dates] : false;
    if (check === undefined && valor) check = fieldCheck(k, valor, textLayer);
    if (failed) check = false;
    // A date's passed order check does not lift it over the low-confidence line: the order holds for
    // nearly any misread day or month (final11 #12: 18/01/1992 read at 0.78 for 15/01/1992, 0.868 raised).
    const lift = k in dates && check === true && conf < LOW_CONFIDENCE ? DATE_ORDER_CEILING : 1;
    // A remark's lone letter that begins or ends a longer code (codes.ts cutRemarkCode) is doubted on a recognised page.
    const cut = k === 'observacoes' && !textLayer && cutRemarkCode(valor) ? CUT_CODE_CAP : 1;
    field.confianca = valor ? r3(Math.min(withValidation(conf, check), cap ?? 1, lift, cut)) : 0;
    out[k] = field;
  }
  return out;
}

/**
 * The characters the values with a check of their own (passesOwnCheck) are printed with: the
 * recogniser's whitelist when a reading that failed its check is read again.
 */
export const PRINTED_WITH: Partial<Record<LabelId, string>> = {
  cpf: '0123456789.-', registro: '0123456789', nascimento: '0123456789/', emissao: '0123456789/', validade: '0123456789/', primeira: '0123456789/',
};

/**
 * Whether `text`, read under the label `id`, makes a value that passes its field's own check: the
 * check digits of a CPF or registration number, a real calendar date, a licence category in capitals
 * (codes.ts isCategoryReading). A second
 * look may keep words the recogniser was unsure of when together they pass it (a CPF read in two
 * pieces at 0.05 each). False for labels without such a check (names, remarks, identity line).
 */
export function passesOwnCheck(id: LabelId, text: string): boolean {
  switch (id) {
    case 'cpf': return isValidCpf(normalizeCpf(text));
    case 'registro': return isValidCnhNumber(normalizeCnhNumber(text));
    case 'categoria': return isCategoryReading(text);
    case 'nascimento': case 'emissao': case 'validade': case 'primeira': return parseDate(normalizeDate(text)) !== null;
    default: return false;
  }
}

/** Confidence cap of an identity number holding a digit its page is seen to misread (doubtByConfusion). */
export const CONFUSED_DIGIT_CAP = 0.7;

/**
 * The identity number has no check digit; the CPF, the CNH number and the dates on the same page do. A
 * digit that mends one of those when put back as a digit the recogniser confuses it with
 * (validators.ts confusedDigits) is a digit this page's print is misread at; an identity number holding
 * it may be misread the same way, and is capped at CONFUSED_DIGIT_CAP (final15 #47: "499450251" for
 * 409450251 at 0.952, with its CPF "699.935.234-59" failing for 699.035.234-59). Call before the dates
 * are mended (mendDate), on one reading's values.
 */
export function doubtByConfusion(d: Partial<Record<CnhFieldName, Draft>>): void {
  const rg = d.rg;
  if (!rg?.valor) return;
  const seen = [
    confusedDigits(d.cpf?.valor ?? '', isValidCpf),
    confusedDigits(d.numero_cnh?.valor ?? '', isValidCnhNumber),
    ...(['data_nascimento', 'data_primeira_habilitacao', 'data_emissao', 'data_validade'] as const).map((k) => confusedDigits(d[k]?.valor ?? '', (t) => parseDate(t) !== null)),
  ];
  // One failing value mended by one confusion may be chance (a B before the CNH number read 8, a blot):
  // the same digit seen misread in two of the page's values is the print's.
  const twice = [...'0123456789'].filter((c) => seen.filter((s) => s.includes(c)).length >= 2);
  if (twice.some((c) => rg.valor.includes(c))) d.rg = { ...rg, cap: Math.min(rg.cap ?? 1, CONFUSED_DIGIT_CAP) };
}
