/**
 * The fall-backs of extractFields (fields.ts) for key fields whose label was not found: patterns over the
 * full text (the CPF's and the CNH number's shapes, dates by their chronological role) and values placed
 * by their own shape and order where the labels went unread (unlabelled.ts). Moved out of fields.ts,
 * behaviour unchanged.
 */
import { type CnhFieldName } from './engine.js';
import { type CnhModel, type FoundLabel, type LabelId } from './layout.js';
import { allDates, digitsOf, normalizeCpf, normalizeDate } from './normalize.js';
import { isValidCnhNumber, isValidCpf, validateDates } from './validators.js';
import { placeDatesInOrder, placeIdentityLine, placeUnlabelled } from './unlabelled.js';
import { type Phrase } from './words.js';
import { type Draft } from './checks.js';
import { LOOK_ALIKE_CAP, lookAlikeCnhNumber } from './form-number.js';

/**
 * Texts of phrase pairs that continue each other on one line (overlapping vertically, the second
 * starting at most 3 line heights after the first): a number split by the recogniser into two
 * boxes of different heights lands on two text lines of the reading order, but here on one.
 */
export function adjacentPairs(phrases: Phrase[]): string[] {
  const out: string[] = [];
  for (const a of phrases) {
    for (const b of phrases) {
      if (a === b) continue;
      const gap = b.x0 - a.x1;
      const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (gap > -0.5 * a.h && gap < 3 * Math.max(a.h, b.h) && overlap > 0.3 * Math.min(a.y1 - a.y0, b.y1 - b.y0)) out.push(`${a.text} ${b.text}`);
    }
  }
  return out;
}

/**
 * The CPF's printed shape, "DDD.DDD.DDD-DD" (separators as the recogniser reads them: a stop, a comma, a
 * space; a stop or a hyphen with a speck of noise over it read ":" or ";": final21 #55, "026:617.533:38"
 * on a low-quality JPEG), or one of its two stops lost (final30 #82: "925512.722-54" on a screenshot whose CPF
 * label went unread; eleven digits in a row are the registration number's shape, so one stop must stay).
 * Taken only with its check digits passed.
 */
const CPF_SHAPE = /(?<!\d)\d{3}(?:[\s.,:;]{1,3}\d{3}[\s.,:;]{0,3}|[\s.,:;]{0,3}\d{3}[\s.,:;]{1,3})\d{3}\s?[-–:;.,]\s?\d{2}(?!\d)/;
/**
 * Confidence of a CPF taken from words the recogniser read unsure (unsureCpf): with its check digits
 * passed it scores 0.6 x 0.55 + 0.4 = 0.73, under the low-confidence line (checks.ts withValidation).
 */
export const UNSURE_CPF_CONF = 0.55;

/**
 * A CPF read in its printed shape on one phrase (`phrases`: every word, whatever its confidence) whose
 * check digits pass, or undefined: the one such value of the page, or none when two differ. The full
 * text the other fall-backs search holds only words read at 0.25 or over, and the recogniser gives a
 * number broken at its separators 0.00 per piece however clear its digits are (final16 #17: "772.099"
 * and ".541-47", both 0.00, the CPF label read "ec"). The two check digits (mod 11, weights 10..2 and
 * 11..2) catch every single misread digit, so a passing reading is the printed one but for a one in a
 * hundred chance; the recogniser's doubt is kept: UNSURE_CPF_CONF, the value under the line.
 */
export function unsureCpf(phrases: Phrase[]): Draft | undefined {
  const found = new Set<string>();
  for (const p of phrases) {
    const m = CPF_SHAPE.exec(p.text);
    const c = m ? normalizeCpf(m[0]) : '';
    if (c && isValidCpf(c)) found.add(c);
  }
  return found.size === 1 ? { valor: [...found][0], conf: UNSURE_CPF_CONF } : undefined;
}

/** Patterns over the full text for key fields whose label was not found. */
export function applyFallbacks(d: Partial<Record<CnhFieldName, Draft>>, fullText: string, model: CnhModel, labels: Map<LabelId, FoundLabel>, phrases: Phrase[]): void {
  const f = 0.85;
  // Labels unread (a fax-like scan): values placed by their own shape and order on the card (unlabelled.ts).
  const unlabelled = placeUnlabelled(d, phrases, fullText, labels.size);
  // The identity line's label alone unread: its line by its shape (unlabelled.ts placeIdentityLine).
  if (!unlabelled && !labels.has('identidade') && !d.rg?.valor && !d.orgao_expedidor?.valor) placeIdentityLine(d, phrases);
  if (!d.cpf?.valor) {
    const m = /(?<!\d)\d{3}[\s.,]{1,3}\d{3}[\s.,]{1,3}\d{3}\s?[-–]\s?\d{2}(?!\d)/.exec(fullText);
    if (m) d.cpf = { valor: normalizeCpf(m[0]), conf: 0.8 * f };
  }
  if (!d.cpf?.valor) {
    // The CPF's shape with digits read as look-alikes (O, I, l, |, brackets: "657.905,101-9]") or
    // separators read ":" or ";" (CPF_SHAPE): taken only when its check digits then pass.
    const look = '[\\dOoIl|\\]\\[!]';
    const re = new RegExp(`(?<![\\dA-Za-z])${look}{3}[\\s.,:;]{1,3}${look}{3}[\\s.,:;]{1,3}${look}{3}\\s?[-–:;.,]\\s?${look}{2}(?![\\dA-Za-z])`, 'g');
    const valid = [...fullText.matchAll(re)].filter((x) => (x[0].match(/\d/g)?.length ?? 0) >= 9).map((x) => normalizeCpf(x[0])).filter((c) => c && isValidCpf(c));
    if (valid.length && valid.every((c) => c === valid[0])) d.cpf = { valor: valid[0], conf: 0.8 * f };
  }
  if (!d.cpf?.valor) d.cpf = unsureCpf(phrases) ?? d.cpf;
  if (!d.numero_cnh?.valor) {
    const cpfDigits = digitsOf(d.cpf?.valor ?? '');
    const cands = [...fullText.matchAll(/(?<!\d)\d{11}(?!\d)/g)].map((m) => m[0]).filter((x) => x !== cpfDigits);
    const best = cands.find(isValidCnhNumber) ?? cands[0];
    if (best) d.numero_cnh = { valor: best, conf: 0.8 * f };
  }
  if (!d.numero_cnh?.valor) {
    // The number with a digit read as a look-alike ("9590982138]"): taken only with its check digits passed (form-number.ts).
    const found = lookAlikeCnhNumber(fullText, digitsOf(d.cpf?.valor ?? ''));
    if (found) d.numero_cnh = { valor: found, conf: 0.8 * f, cap: LOOK_ALIKE_CAP };
  }
  // The older card's first-licence date beside its expiry, its label unread (firstLicenceBeside).
  if (model === 'old' && !d.data_primeira_habilitacao?.valor && !labels.has('primeira') && labels.has('validade')) {
    const beside = firstLicenceBeside(d.data_validade?.valor ?? '', phrases);
    if (beside) d.data_primeira_habilitacao = { valor: beside, conf: 0.7 * f };
  }
  // Dates by their chronological role where labels were missed.
  const missing = DATE_FIELDS.filter((k) => !d[k]?.valor && !(k === 'data_emissao' && model === 'old' && !labels.has('local')));
  if (unlabelled) {
    // Labels unread: roles only where the order leaves no choice (unlabelled.ts placeDatesInOrder).
    placeDatesInOrder(d, allDates(fullText), unlabelled.birthUnread, model === 'old' && !labels.has('local'), 0.7 * f);
  } else if (missing.length) {
    const known = new Set(DATE_FIELDS.map((k) => d[k]?.valor).filter(Boolean));
    const key = (s: string): string => s.split('/').reverse().join('');
    const rest = [...new Set(allDates(fullText))].filter((x) => !known.has(x)).sort((a, b) => key(a).localeCompare(key(b)));
    // A birth less than MIN_LICENCE_AGE_YEARS before the clock is no holder's (validators.ts
    // validateDates): such a date is another field's (final14 #47, #56: an issue or first licence date
    // of 2018-2024 placed as the birth).
    const birthLike = (x: string): boolean => validateDates({ data_nascimento: x, data_primeira_habilitacao: '', data_emissao: '', data_validade: '' }).data_nascimento;
    const inOrder = rest.length === missing.length ? datesInOrder(d, missing, rest) : undefined;
    if (missing.length === 1 && rest.length === 1) {
      if (missing[0] !== 'data_nascimento' || birthLike(rest[0])) d[missing[0]] = { valor: rest[0], conf: 0.7 * f };
    } else if (inOrder) {
      for (const [k, valor] of inOrder) d[k] = { valor, conf: 0.6 * f };
    } else if (rest.length) {
      if (missing.includes('data_nascimento') && birthLike(rest[0])) d.data_nascimento = { valor: rest.shift() ?? '', conf: 0.6 * f };
      if (missing.includes('data_validade') && rest.length) d.data_validade = { valor: rest.pop() ?? '', conf: 0.6 * f };
    }
  }
}

type DateField = 'data_nascimento' | 'data_primeira_habilitacao' | 'data_emissao' | 'data_validade';

/**
 * The card's date fields in their chronological order (birth < first licence <= issue < expiry,
 * validators.ts validateDates): the one list applyFallbacks and datesInOrder share.
 */
export const DATE_FIELDS: readonly DateField[] = ['data_nascimento', 'data_primeira_habilitacao', 'data_emissao', 'data_validade'];

/**
 * The dates left over (`rest`, oldest first, as many as the `missing` date fields) given to the missing
 * fields in the card's chronological order (birth < first licence <= issue < expiry, validators.ts
 * validateDates), or undefined unless every date, placed and found, then keeps that order: two dates
 * of one row read where both labels went unread (final21 #68: issue and first licence dates under a
 * glare, the labels read "40" and "ICA a,"). Placed dates are the order's guess: callers keep them
 * under the low-confidence line.
 */
export function datesInOrder(d: Partial<Record<CnhFieldName, Draft>>, missing: readonly DateField[], rest: string[]): Array<[DateField, string]> | undefined {
  const slots = DATE_FIELDS.filter((k) => missing.includes(k));
  if (slots.length < 2 || slots.length !== rest.length) return undefined;
  const placed = slots.map((k, i): [DateField, string] => [k, rest[i]]);
  const all = Object.fromEntries(DATE_FIELDS.map((k) => [k, placed.find(([p]) => p === k)?.[1] ?? d[k]?.valor ?? ''])) as Record<DateField, string>;
  const ok = validateDates(all);
  return DATE_FIELDS.every((k) => !all[k] || ok[k]) ? placed : undefined;
}

/** How far (in the expiry's heights) right of the expiry date the first-licence date may begin (firstLicenceBeside). */
const BESIDE_REACH = 12;

/**
 * The older card prints its registration number, expiry and first-licence date on one row, in that
 * order, under Nº REGISTRO / VALIDADE / 1ª HABILITAÇÃO: with the last label unread, the one date read on
 * the expiry's line right of it (within BESIDE_REACH of its heights, its middle within half a height
 * of the expiry's) is the first licence's, or '' (final21 #11: "11/03/1986" beside the expiry, its label
 * read "4%", was placed as the birth by the dates' order). `validade`: the expiry as found.
 */
export function firstLicenceBeside(validade: string, phrases: Phrase[]): string {
  if (!validade) return '';
  const words = phrases.flatMap((p) => p.words);
  const exp = words.find((w) => normalizeDate(w.text) === validade);
  if (!exp) return '';
  const h = exp.y1 - exp.y0, cy = (exp.y0 + exp.y1) / 2;
  const dates = words.filter((w) => w !== exp && w.x0 > exp.x1 && w.x0 - exp.x1 < BESIDE_REACH * h && Math.abs((w.y0 + w.y1) / 2 - cy) < 0.5 * h)
    .map((w) => normalizeDate(w.text)).filter((t) => t !== '' && t !== validade);
  return dates.length === 1 ? dates[0] : '';
}
