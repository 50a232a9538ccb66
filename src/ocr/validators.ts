/**
 * Check-digit and date validators for CNH fields. Pure functions on strings.
 */

/**
 * CPF check digits (modulo 11, Receita Federal): for the 9 base digits returns the two verifier digits.
 * d1 = 11 - (sum(b[i] * (10 - i)) mod 11), 0 when >= 10; d2 likewise over 10 digits with weights 11..2.
 */
export function cpfCheckDigits(base9: string): string {
  const d = base9.split('').map(Number);
  const dv = (n: number): number => {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[i] * (n + 1 - i);
    const r = 11 - (s % 11);
    return r >= 10 ? 0 : r;
  };
  d.push(dv(9));
  d.push(dv(10));
  return `${d[9]}${d[10]}`;
}

/**
 * True when `cpf` (any punctuation; 11 digits once stripped) has correct check digits and is not a
 * run of one repeated digit (000.000.000-00 etc., which pass the arithmetic but are invalid).
 */
export function isValidCpf(cpf: string): boolean {
  const d = cpf.replace(/\D/g, '');
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  return cpfCheckDigits(d.slice(0, 9)) === d.slice(9);
}

/**
 * CNH registration number (Nº REGISTRO, RENACH-era 11 digits) check digits for 9 base digits, as used by
 * DENATRAN-derived validators: dv1 = sum(b[i] * (9 - i)) mod 11 (>= 10 -> 0 and a discount of 2);
 * dv2 = (sum(b[i] * (1 + i)) mod 11) - discount (>= 10 -> 0). Returns null where dv2 would be negative,
 * a base that cannot carry valid check digits.
 */
export function cnhCheckDigits(base9: string): string | null {
  const d = base9.split('').map(Number);
  let s = 0;
  for (let i = 0; i < 9; i++) s += d[i] * (9 - i);
  let dv1 = s % 11;
  let discount = 0;
  if (dv1 >= 10) {
    dv1 = 0;
    discount = 2;
  }
  s = 0;
  for (let i = 0; i < 9; i++) s += d[i] * (1 + i);
  const x = s % 11;
  const dv2 = x >= 10 ? 0 : x - discount;
  return dv2 < 0 ? null : `${dv1}${dv2}`;
}

/** True when `numero` is 11 digits whose last two are the CNH check digits of the first nine. */
export function isValidCnhNumber(numero: string): boolean {
  if (!/^\d{11}$/.test(numero) || /^(\d)\1{10}$/.test(numero)) return false;
  return cnhCheckDigits(numero.slice(0, 9)) === numero.slice(9);
}

/** Parses `DD/MM/AAAA` into a UTC date, or null when it is not a real calendar date (years 1900-2100). */
export function parseDate(s: string): Date | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? d : null;
}

export interface CnhDates {
  data_nascimento: string;
  data_primeira_habilitacao: string;
  data_emissao: string;
  data_validade: string;
}

/**
 * The station's clock is taken as set only from this day on (the CNH 2022 model's first issue): a
 * clock before it (a dead clock battery starts at 1970 or 2000) says nothing about which dates are
 * still to come, and no date is then held in the future (validateDates).
 */
export const CLOCK_SET_FROM = Date.UTC(2022, 5, 1);
/** Days a past date may lie after the station's clock (a clock a little behind, time zones). */
const FUTURE_SLACK_DAYS = 2;
/**
 * The youngest age at which a licence is first issued (Código de Trânsito Brasileiro, art. 140 I: the
 * candidate must be penalmente imputável, 18): a first licence less than 18 years after the birth, or a
 * birth less than 18 years before the station's clock (when set), breaks the order. Fourteenth round,
 * final12 #30: the issue date 29/02/2020 read under the birth label at 0.97 on a blurred card whose own
 * issue and first-licence dates were unreadable, so no order rule saw it.
 */
export const MIN_LICENCE_AGE_YEARS = 18;
const plusYears = (d: Date, years: number): number => Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate());

/**
 * `valida` per date field: the value is a real calendar date and respects the order
 * birth < first licence <= issue < expiry against every other date that is itself real, the first licence
 * at least MIN_LICENCE_AGE_YEARS after the birth (and the birth that long before `today`).
 * An empty value is never valid. Where the order is broken, the dates breaking the most rules are invalid.
 * Birth, first licence and issue are past events: one after `today` (the station's clock, when set:
 * CLOCK_SET_FROM) was misread, and is invalid whatever the order (final11 #4: issue 17/11/2028 read
 * for 2024 at 0.844, the expiry 2034 after it and the first licence 2024 before it).
 */
export function validateDates(dates: CnhDates, today: number = Date.now()): Record<keyof CnhDates, boolean> {
  const keys = ['data_nascimento', 'data_primeira_habilitacao', 'data_emissao', 'data_validade'] as const;
  const parsed = keys.map((k) => parseDate(dates[k]));
  const latest = today >= CLOCK_SET_FROM ? today + FUTURE_SLACK_DAYS * 86400000 : Infinity;
  const ok = parsed.map((d, i) => d !== null && (i === 3 || d.getTime() <= latest) && (i !== 0 || plusYears(d, MIN_LICENCE_AGE_YEARS) <= latest));
  // Pairwise order constraints (i before j): strict except first licence <= issue.
  const rules: Array<[number, number, boolean]> = [
    [0, 1, true], [0, 2, true], [0, 3, true], [1, 2, false], [1, 3, true], [2, 3, true],
  ];
  const violations = [0, 0, 0, 0];
  for (const [i, j, strict] of rules) {
    const a = parsed[i];
    const b = parsed[j];
    if (!a || !b) continue;
    // Birth and first licence: at least MIN_LICENCE_AGE_YEARS apart.
    const at = i === 0 && j === 1 ? plusYears(a, MIN_LICENCE_AGE_YEARS) : a.getTime();
    const good = strict ? at < b.getTime() || (i === 0 && j === 1 && at === b.getTime()) : at <= b.getTime();
    if (!good) {
      violations[i]++;
      violations[j]++;
    }
  }
  // The dates that break the most order rules are the ones blamed (a single misread date breaks up to
  // three rules, its partners one each); ties blame every date involved.
  const worst = Math.max(...violations);
  if (worst > 0) violations.forEach((v, i) => { if (v === worst) ok[i] = false; });
  return {
    data_nascimento: ok[0],
    data_primeira_habilitacao: ok[1],
    data_emissao: ok[2],
    data_validade: ok[3],
  };
}

/**
 * The terms a licence is issued for, in years: 10, 5 or 3 by the holder's age (Código de Trânsito
 * Brasileiro art. 147 §2, Lei 14.071/2020; 5 and 3 before it) and 1 for the Permissão para Dirigir
 * (art. 148 §2). A doctor may set a shorter one, rarely.
 */
export const LICENCE_TERMS_YEARS = [1, 3, 5, 10];

/**
 * Whether an issue and an expiry date (`DD/MM/AAAA`, both real) fall on the same day and month while
 * their years are no licence term apart (LICENCE_TERMS_YEARS): the expiry was counted from that issue,
 * so one of the two years was misread (final16 #57: 10/04/2024 and "10/04/2028" for 10/04/2029, a 9
 * read 8 at 0.898). False when either is no date or the days differ (the expiry counted from the
 * medical exam, days before the issue: nothing to compare).
 */
export function oddTerm(issue: string, expiry: string): boolean {
  const a = parseDate(issue), b = parseDate(expiry);
  if (!a || !b || a.getUTCDate() !== b.getUTCDate() || a.getUTCMonth() !== b.getUTCMonth()) return false;
  return !LICENCE_TERMS_YEARS.includes(b.getUTCFullYear() - a.getUTCFullYear());
}

/**
 * Whether an issue and an expiry date (`DD/MM/AAAA`, both real) fall on the same day of different
 * months. The expiry is counted from the issue (the same day and month, LICENCE_TERMS_YEARS later) or
 * from the medical exam a few days before it (another day): the same day in another month is neither,
 * so one of the two months was misread, and which one the dates cannot tell (final12 #12: 10/04/2017
 * read "10/08/2017" at 0.916 beside its expiry 10/04/2027; final17 #73 "22/08/2023" at 0.88 for
 * 22/04/2023). False when either is no date.
 */
export function monthSlip(issue: string, expiry: string): boolean {
  const a = parseDate(issue), b = parseDate(expiry);
  return !!a && !!b && a.getUTCDate() === b.getUTCDate() && a.getUTCMonth() !== b.getUTCMonth();
}

/**
 * Digits the recogniser takes for one another in the card's types (closed loops lost or gained in low
 * light, blur and JPEG: 8 read for 0, 6 for 0, 4 for 1, 9 for 8), each with the digits it may stand for.
 */
const DIGIT_CONFUSIONS: Record<string, string> = {
  '0': '869', '1': '47', '2': '7', '3': '859', '4': '1', '5': '63', '6': '058', '7': '12', '8': '0369', '9': '083',
};

/**
 * A `DD/MM/AAAA` reading that is no real date because a digit stands where the calendar allows no such
 * digit (a day's tens over 3, a month's tens over 1, a year not in 19xx or 20xx: "84/05/2838",
 * "89/09/2009", "15/41/2024", "30/05/1885"), mended by putting back, at those places only, a digit the
 * recogniser confuses with the one read (DIGIT_CONFUSIONS): the one real date so reached, or '' when
 * none or more than one (nothing is guessed), or when the reading is a real date already or fails at a
 * place every digit may hold (a 31st of February, month 13). A mended date is inferred: the caller keeps
 * it under the low-confidence line.
 */
export function mendDate(s: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  if (!m || parseDate(s)) return '';
  const d = (m[1] + m[2] + m[3]).split('');
  // Allowed digits at the places the calendar restricts: day tens, month tens, the year's first two.
  const allowed: Record<number, string> = { 0: '0123', 2: '01', 4: '12' };
  const options = d.map((c, i) => {
    const ok = allowed[i];
    if (!ok || ok.includes(c)) return [c];
    return [...(DIGIT_CONFUSIONS[c] ?? '')].filter((x) => ok.includes(x));
  });
  // The year's first digit mended changes what its second may be: both enumerated together.
  const found = new Set<string>();
  const walk = (i: number, acc: string): void => {
    if (i === 8) {
      const t = `${acc.slice(0, 2)}/${acc.slice(2, 4)}/${acc.slice(4)}`;
      const y = Number(acc.slice(4));
      if (parseDate(t) && y >= 1900 && y < 2100) found.add(t);
      return;
    }
    let opts = options[i];
    if (i === 5) {
      const need = acc[4] === '1' ? '9' : '0';
      opts = d[5] === need ? [need] : [...(DIGIT_CONFUSIONS[d[5]] ?? '')].filter((x) => x === need);
    }
    for (const o of opts) walk(i + 1, acc + o);
  };
  walk(0, '');
  return found.size === 1 ? [...found][0] : '';
}

/**
 * The digits of a reading `s` that fails its own check (`passes`: CPF or CNH check digits, a real date)
 * which, put back one at a time by a digit the recogniser confuses them with (DIGIT_CONFUSIONS), make it
 * pass: the page's print is read with that confusion (final15 #47, old photo in Liberation Mono: every 0
 * read 9, the CPF and the CNH number failing their check digits, the issue date on the 96th). Empty when
 * the reading passes or no single confusion mends it. Shape: digit characters, each at most once.
 */
export function confusedDigits(s: string, passes: (t: string) => boolean): string {
  if (!/\d/.test(s) || passes(s)) return '';
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (out.includes(c)) continue;
    if ([...(DIGIT_CONFUSIONS[c] ?? '')].some((x) => passes(s.slice(0, i) + x + s.slice(i + 1)))) out += c;
  }
  return out;
}
