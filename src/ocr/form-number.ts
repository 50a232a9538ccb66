/**
 * Values checked against another printed number of the card (twenty-seventh round, issue #17): the
 * RENACH form number's state (renachUf) and a CNH registration number read with look-alike characters
 * whose check digits pass (lookAlikeCnhNumber). Pure functions on the page's phrases and text.
 */
import type { Draft } from './checks.js';
import { digitsOf, UFS } from './normalize.js';
import { isValidCnhNumber } from './validators.js';
import { editDistance, fold, type Phrase } from './words.js';

/**
 * Confidence cap of a state taken from the RENACH form number (renachUf) where the DETRAN line was not
 * read: inferred from another field's print, so under the low-confidence line (as the place of issue's
 * state, fields.ts: 0.75).
 */
export const RENACH_UF_CAP = 0.75;

/** Characters the recogniser reads for a digit in a printed number (normalize.ts DIGIT_FIX's non-letters and I, l, O). */
const DIGIT_LIKE = '0-9OoIl|\\]\\[!';

/**
 * The form number printed after RENACH: the issuing state's two letters and nine digits ("PI334767634").
 * A digit may be read as a look-alike (DIGIT_LIKE, folded: L for l) and one digit more or less read (a speck, a lost 1):
 * 8-10 characters after the state, at least 7 of them digits.
 */
const FORM_NUMBER = new RegExp(`^([A-Z]{2})([${DIGIT_LIKE}L]{8,10})$`);

/**
 * The state of the RENACH form number (the 2022 front's last line, "RENACH PI334767634"), or undefined.
 * The form is issued by the state's DETRAN and numbered with its two letters (DENATRAN's RENACH form:
 * UF + 9 digits), so it names the same state as the card's "DETRAN - UF" line. The number is taken
 * from the word after one that reads RENACH (one letter off at most), or alone when it is the exact
 * shape (two capitals, nine digits); its state must be one of the 27. Several readings that disagree
 * give none. `conf`: the number word's recogniser confidence.
 */
export function renachUf(phrases: Phrase[]): { uf: string; conf: number } | undefined {
  const found: Array<{ uf: string; conf: number }> = [];
  for (const p of phrases) {
    p.words.forEach((w, i) => {
      const t = fold(w.text).replace(/[.,:;]+$/, '');
      const m = FORM_NUMBER.exec(t);
      if (!m || !UFS.has(m[1]) || (m[2].match(/\d/g)?.length ?? 0) < 7) return;
      const after = i > 0 && editDistance(fold(p.words[i - 1].text).replace(/[^A-Z]/g, ''), 'RENACH') <= 1;
      if (after || /^[A-Z]{2}\d{9}$/.test(t)) found.push({ uf: m[1], conf: w.conf });
    });
  }
  if (!found.length || found.some((f) => f.uf !== found[0].uf)) return undefined;
  return found.reduce((a, b) => (b.conf > a.conf ? b : a));
}

/**
 * The state of the card (`uf`, as fields.ts found it) checked against the RENACH form number's
 * (renachUf): empty, it is taken from the form number (capped at RENACH_UF_CAP); read, and the form
 * number names another of the 27 states, one of the two is misread and the value is kept under the
 * low-confidence line (its confidence x 0.6, as fields.ts's place-of-issue check). Returns the draft
 * to use.
 */
export function withRenachUf(uf: Draft, phrases: Phrase[]): Draft {
  const r = renachUf(phrases);
  if (!r) return uf;
  if (!uf.valor) return { valor: r.uf, conf: r.conf, cap: RENACH_UF_CAP };
  return r.uf === uf.valor ? uf : { ...uf, conf: uf.conf * 0.6 };
}

/**
 * Confidence cap of a registration number found by lookAlikeCnhNumber: its label unread and a character
 * of it not read as a digit, only its check digits speak for it (one wrong reading in a hundred passes).
 */
export const LOOK_ALIKE_CAP = 0.75;

/**
 * An 11-character token of digits and look-alikes (DIGIT_LIKE: "9590982138]", its last 1 read as a
 * bracket) with at least 9 true digits, whose digits (normalize.ts digitsOf) pass the CNH number's
 * check digits (validators.ts isValidCnhNumber) and are not the CPF's (`cpfDigits`): the registration
 * number, its label unread. The one such number of `text`, or '' when none or two differ. The two
 * check digits let a wrong reading through about once in a hundred; the caller keeps the value under
 * the low-confidence line (LOOK_ALIKE_CAP).
 */
export function lookAlikeCnhNumber(text: string, cpfDigits: string): string {
  const re = new RegExp(`(?<![\\dA-Za-z])[${DIGIT_LIKE}]{11}(?![\\dA-Za-z])`, 'g');
  const valid = new Set([...text.matchAll(re)].filter((m) => (m[0].match(/\d/g)?.length ?? 0) >= 9)
    .map((m) => digitsOf(m[0])).filter((x) => x !== cpfDigits && isValidCnhNumber(x)));
  return valid.size === 1 ? [...valid][0] : '';
}
