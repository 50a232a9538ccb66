/**
 * Values placed without their labels: a card whose labels did not survive the capture (a fax-like
 * 1-bit scan at 200 dpi turns the ~9 px label type into dots while the values stay legible) but whose
 * text shows a CNH by the card's own words (HABILITAÇÃO, DETRAN, RENACH). Only values that tell
 * themselves by their shape are taken, each under the low-confidence line (UNLABELLED_CAP: guesses):
 *
 * - the birth line of the 2022 card, "DATE, TOWN, UF" (the date part may be broken: the town and the
 *   state are taken when the state is one of the 27 and the part before the first comma holds digits);
 * - the holder's name: the topmost line of two or more capital name words on the card (on both card
 *   models the name is the first value printed under the header);
 * - the parents: the other lines of name words left-aligned with the holder's name below it (a card's
 *   front prints no other personal names): two lines father and mother, one line the mother (which of
 *   the two cannot be told: confidence lowered as the labelled path does, x 0.75);
 * - a category of two or more letters (AB, AC, AD, AE, ACC) standing as a word of its own, when exactly
 *   one such word is on the page (single letters are too common in noise to be taken);
 * - the identity line "NUMBER BODY UF" (a known issuing body, one of the 27 states), when exactly one;
 * - dates only where the calendar order leaves no choice (placeDatesInOrder).
 *
 * Never used when the card's labels were read (UNLABELLED_MAX_LABELS).
 */
import type { CnhFieldName } from './engine.js';
import type { Draft } from './checks.js';
import { CATEGORY_SET, isKnownIssuer, normalizeDate, normalizeName, parseIdentity, single, UFS } from './normalize.js';
import { isBoilerplate } from './boilerplate.js';
import { isNameWord, valueConfidence } from './doubts.js';
import { fold, type Phrase } from './words.js';
import { parseDate } from './validators.js';

/** Pages with more labels read than this are read by their labels only. */
export const UNLABELLED_MAX_LABELS = 1;
/** Confidence cap of a value placed without its label (under the 0.8 low-confidence line). */
export const UNLABELLED_CAP = 0.7;
/** Least mean word confidence of a line taken as a name. */
const NAME_LINE_CONF = 0.6;
/** Least confidence of a lone category word. */
const CATEGORY_CONF = 0.8;
/** The card's own words: evidence that the page shows a CNH. */
const CNH_WORDS = /HABILITA|DETRAN|RENACH/;
/** Card vocabulary that never appears in a person's name line (header, notices, place of issue). */
const CARD_WORDS = /\b(REPUBLICA|FEDERATIVA|BRASIL|MINISTERIO|TRANSPORTES|CIDADES|DEPARTAMENTO|SECRETARIA|CARTEIRA|NACIONAL|HABILITACAO|DETRAN|RENACH|VALIDA|TERRITORIO|ASSINATURA|PORTADOR|EMISSOR|PERMISSAO|FILIACAO|CATEGORIA|OBSERVACOES|LOCAL|DATA|NOME|SOBRENOME|IDENTIDADE|DOC|CPF|REGISTRO|VALIDADE|EMISSAO|NASCIMENTO|FOTO)\b/;

/** Whether a line reads as a person's name: two or more name words, no digit or comma, not the card's print. */
function isNameLine(p: Phrase): boolean {
  const text = single(p.text);
  if (/[\d,;:]/.test(text)) return false;
  const name = normalizeName(text);
  const words = name.split(' ').filter(Boolean);
  if (words.length < 2 || name.replace(/[^A-ZÀ-Ý]/g, '').length < 8) return false;
  // Words of three letters or more, most of the line, and every word of the reading a name word.
  if (words.filter((w) => w.length >= 3).length < 2) return false;
  if (!p.words.every(isNameWord)) return false;
  if (p.words.some((w) => w.text !== w.text.toUpperCase())) return false;
  const folded = fold(name);
  if (CARD_WORDS.test(folded) || isBoilerplate(name)) return false;
  if (words.some((w) => isKnownIssuer(fold(w))) || UFS.has(words[words.length - 1])) return false;
  return p.words.reduce((s, w) => s + w.conf, 0) / p.words.length >= NAME_LINE_CONF;
}

const capped = (valor: string, conf: number, factor = 1): Draft => ({ valor, conf: conf * factor, cap: UNLABELLED_CAP });

/**
 * Fills fields still empty in `d` from value shapes and their order on the card, when at most
 * UNLABELLED_MAX_LABELS labels were read and the text shows a CNH by its own words.
 */
export function placeUnlabelled(d: Partial<Record<CnhFieldName, Draft>>, phrases: Phrase[], fullText: string, labelsFound: number): Unlabelled | null {
  if (labelsFound > UNLABELLED_MAX_LABELS || !CNH_WORDS.test(fold(fullText))) return null;
  let birthUnread = false;
  const ordered = [...phrases].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);

  // Birth line: "DATE, TOWN, UF" with digits before the first comma.
  // (The comma before the state may read as a full stop: "11/09/1964, AÇU. RN".)
  const births = ordered.map((p) => ({ p, m: /^([^,]*\d[^,]*),\s*([^,\d]+?)\s*[,.]\s*([A-Z]{2})$/.exec(single(p.text)) })).filter((b) => b.m && UFS.has(b.m[3]) && (b.m[1].match(/\d/g)?.length ?? 0) >= 4);
  if (births.length === 1) {
    const { p, m } = births[0];
    const town = normalizeName(m![2]);
    if (town && !d.local_nascimento?.valor) d.local_nascimento = capped(`${town}, ${m![3]}`, valueConfidence([p], isNameWord));
    const date = normalizeDate(m![1]);
    if (date && parseDate(date) && !d.data_nascimento?.valor) d.data_nascimento = capped(date, valueConfidence([p], (w) => /\d/.test(w.text)));
    else if (!d.data_nascimento?.valor) birthUnread = true;
  }

  // Names: the topmost name line, then the name lines left-aligned with it below.
  const names = ordered.filter(isNameLine);
  const holder = names[0];
  if (holder && !d.nome_completo?.valor) d.nome_completo = capped(normalizeName(holder.text), valueConfidence([holder], isNameWord));
  if (holder && !d.nome_mae?.valor && !d.nome_pai?.valor) {
    const h = Math.max(4, holder.h);
    const parents = names.filter((p) => p !== holder && p.y0 > holder.y1 && Math.abs(p.x0 - holder.x0) < 2 * h);
    if (parents.length === 2) {
      d.nome_pai = capped(normalizeName(parents[0].text), valueConfidence([parents[0]], isNameWord));
      d.nome_mae = capped(normalizeName(parents[1].text), valueConfidence([parents[1]], isNameWord));
    } else if (parents.length === 1) d.nome_mae = capped(normalizeName(parents[0].text), valueConfidence([parents[0]], isNameWord), 0.75);
  }

  // Category: exactly one word on the page that is a category of two letters or more.
  if (!d.categoria?.valor) {
    // The code is a line's first word, alone or before a date (the first licence's, beside it on the
    // card), never inside a line of words (AC is also a state: "DETRAN - AC", "RIO BRANCO, AC").
    const cats = ordered.filter((p) => p.words.length === 1 || (p.words.length === 2 && /\d/.test(p.words[1].text))).map((p) => p.words[0]).filter((w) => w.text.length >= 2 && CATEGORY_SET.has(w.text) && w.conf >= CATEGORY_CONF);
    if (cats.length === 1) d.categoria = capped(cats[0].text, cats[0].conf);
  }
  placeIdentityLine(d, phrases);
  return { birthUnread };
}

/**
 * The identity line placed by its shape (fields rg and orgao_expedidor, where still empty), each under
 * the low-confidence line (UNLABELLED_CAP): "NUMBER BODY UF", a known issuing body and one of the 27
 * states after a number of 5 to 13 digits read as digits (no look-alike letters: a broken number is
 * not guessed); exactly one such line on the page. Used on pages read without labels and, by
 * fallbacks.ts, where only the identity line's label went unread (final13 #25: "DOC. EENTICADE / ÓRO,
 * EMISSOR", its line "957192407 PC SC" read whole).
 */
export function placeIdentityLine(d: Partial<Record<CnhFieldName, Draft>>, phrases: Phrase[]): void {
  const ids = phrases.filter((p) => /^\d{5,13}\s+[A-Z]{2,6}\s*[\s/-]\s*[A-Z]{2}$/.test(single(p.text))).map((p) => ({ p, id: parseIdentity(p.text) })).filter((x) => x.id.rg && isKnownIssuer(x.id.orgao) && UFS.has(x.id.uf));
  if (ids.length !== 1) return;
  const { p, id } = ids[0];
  if (!d.rg?.valor) d.rg = capped(id.rg, valueConfidence([p], (w) => /\d/.test(w.text)));
  if (!d.orgao_expedidor?.valor) d.orgao_expedidor = capped(id.orgao, valueConfidence([p], (w) => !/\d/.test(w.text)));
}

/** What placeUnlabelled found out about the page: its birth line was read without a readable date. */
export interface Unlabelled { birthUnread: boolean }

type DateField = 'data_nascimento' | 'data_primeira_habilitacao' | 'data_emissao' | 'data_validade';

/**
 * Dates of a page read without its labels, by their order on the calendar (birth < first licence <=
 * issue < expiry): only when the dates read and not yet placed are exactly as many as the date fields
 * still empty (first with the issue date left out, as the older card's front does not print it, then
 * with it), so that every role follows from the order; otherwise none is guessed. A birth line read
 * with an unreadable date leaves the birth date out (it is not among the other dates).
 */
export function placeDatesInOrder(d: Partial<Record<CnhFieldName, Draft>>, dates: string[], birthUnread: boolean, withoutIssue: boolean, conf: number): void {
  const order: DateField[] = ['data_nascimento', 'data_primeira_habilitacao', 'data_emissao', 'data_validade'];
  const known = new Set(order.map((k) => d[k]?.valor).filter(Boolean));
  const key = (s: string): string => s.split('/').reverse().join('');
  const rest = [...new Set(dates)].filter((x) => !known.has(x) && parseDate(x)).sort((a, b) => key(a).localeCompare(key(b)));
  const empty = order.filter((k) => !d[k]?.valor && !(k === 'data_nascimento' && birthUnread));
  for (const missing of withoutIssue ? [empty.filter((k) => k !== 'data_emissao'), empty] : [empty]) {
    if (!missing.length || missing.length !== rest.length) continue;
    // The order must hold against the dates already placed too.
    const all = order.map((k) => (missing.includes(k) ? rest[missing.indexOf(k)] : d[k]?.valor ?? '')).filter(Boolean).map(key);
    if (all.some((x, i) => i > 0 && x < all[i - 1])) return;
    missing.forEach((k, i) => { d[k] = capped(rest[i], conf); });
    return;
  }
}
