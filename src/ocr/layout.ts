/**
 * CNH layout: finds the printed labels of both card models (older model; 2022 model with numbered
 * fields; the CNH-e PDF prints the 2022 or older layout) among the phrases by their words, the card's
 * model and its label type's heights; each value is the larger-type phrase just below its label,
 * left-aligned with it (value-place.ts valueBelow).
 */
import { editDistance, fold, meanMedian, toPhrase, type Phrase } from './words.js';
import { labelValueGaps, PLAIN_CAPS, valueBelow } from './value-place.js';
import { isPlaceLine } from './codes.js';

// The value lines' places moved to value-place.ts; re-exported for the modules that import them from here.
export { excessIndent, LOST_GLYPH, valueAbove, valueBelow, withContinuations } from './value-place.js';

export type LabelId =
  | 'nome' | 'nascimento3' | 'nascimento' | 'emissao' | 'validade' | 'identidade' | 'cpf' | 'registro'
  | 'categoria' | 'primeira' | 'filiacao' | 'observacoes' | 'local' | 'permissao';

export type CnhModel = '2022' | 'old';

interface LabelDef {
  id: LabelId;
  /** Every token must match a word of the phrase (fuzzy for long tokens). */
  all: string[];
  /** None of these may be in the phrase. */
  none?: string[];
  /**
   * Or, only where no phrase is the label by `all`: a short phrase (at most 3 tokens, its letters run
   * together at most 2 longer than this string) that holds this string within one edit (a label of
   * short tokens, which must otherwise match exactly, read with one letter wrong or glued to its
   * neighbour: "9 CAT. HAB." read "(AT, HAB." or "SCALHABR"; a name such as CATHARINA is longer).
   */
  glued?: string;
  /**
   * Or, only where no phrase is the label otherwise: a phrase of one token that is this string's start,
   * at least CUT_LABEL letters long (the label's words run together and its end lost: "DATAEMI" and
   * "DATAEM" for DATA EMISSÃO on a dark old card's back, final16 #57's two readings).
   */
  cut?: string;
  /**
   * Or, only where no phrase is the label otherwise: a phrase of one token, at least TAIL_LABEL letters,
   * within one edit of this string's end of the same length (the label's start lost to a glare or the
   * card's washed-out edge: "AVAÇÕES" and "RAÇÕES" for OBSERVAÇÕES, final27 #47 and #35).
   */
  tail?: string;
}

/** Letters a label's start (LabelDef.cut) must hold: past the DATA the date labels share and two more (DATAEM). */
export const CUT_LABEL = 6;
/** Letters a label's end (LabelDef.tail) must hold: past the -ÇÕES no other label word ends in, two more. */
export const TAIL_LABEL = 6;

const LABELS: LabelDef[] = [
  { id: 'nome', all: ['SOBRENOME'] },
  { id: 'nome', all: ['NOME'], none: ['CARTEIRA'] },
  { id: 'nascimento3', all: ['NASCIMENTO', 'LOCAL'] },
  { id: 'nascimento', all: ['DATA', 'NASCIMENTO'], none: ['LOCAL'] },
  { id: 'emissao', all: ['EMISSAO'], none: ['IDENTIDADE', 'ORG'], cut: 'DATAEMISSAO' },
  { id: 'validade', all: ['VALIDADE'] },
  { id: 'identidade', all: ['IDENTIDADE'] },
  { id: 'cpf', all: ['CPF'] },
  { id: 'registro', all: ['REGISTRO'] },
  { id: 'categoria', all: ['CAT'], glued: 'CATHAB' },
  { id: 'primeira', all: ['HABILITACAO'], none: ['CARTEIRA', 'NACIONAL', 'CAT'] },
  { id: 'filiacao', all: ['FILIACAO'] },
  { id: 'observacoes', all: ['OBSERVACOES'], tail: 'OBSERVACOES' },
  { id: 'local', all: ['LOCAL'], none: ['NASCIMENTO', 'DATA'] },
  { id: 'permissao', all: ['PERMISSAO'] },
];

/**
 * Folded word tokens of a phrase: uppercase, no accents, punctuation removed, digits split from letters
 * (a field number glued to its label: "9CAT." -> 9, CAT).
 */
const tokens = (p: Phrase): string[] => fold(p.text).split(/[^A-Z0-9]+/).flatMap((t) => t.split(/(?<=\d)(?=[A-Z])|(?<=[A-Z])(?=\d)/)).filter(Boolean);

/** Distinct labels (LABELS has two definitions of the name's). */
const LABEL_COUNT = new Set(LABELS.map((d) => d.id)).size;

/** Every token the labels are made of (LABELS' `all` and `none`). */
const LABEL_TOKENS = [...new Set(LABELS.flatMap((d) => [...d.all, ...(d.none ?? [])]))];

/**
 * Exact for short tokens; edit distance <= 1 from 5 letters, <= 2 from 8, <= 3 from 11, unless the
 * word is at least as close to another label token (EMISSAO is 2 edits from PERMISSAO, but it is
 * EMISSAO: "4a DATA EMISSÃO" is not the PERMISSÃO label, nor the reverse).
 */
function tokenMatches(word: string, token: string): boolean {
  if (word === token) return true;
  if (token.length < 5) return false;
  const tolerance = token.length >= 11 ? 3 : token.length >= 8 ? 2 : 1;
  if (Math.abs(word.length - token.length) > tolerance) return false;
  const d = editDistance(word, token);
  return d <= tolerance && !LABEL_TOKENS.some((t) => t !== token && Math.abs(word.length - t.length) <= d && editDistance(word, t) <= d);
}

/** Edits between a label's tokens and the words of a phrase that matches it (each token's closest word). */
function labelEdits(def: LabelDef, ts: string[]): number {
  return def.all.reduce((sum, tok) => sum + Math.min(...ts.filter((w) => tokenMatches(w, tok)).map((w) => editDistance(w, tok))), 0);
}

/** Whether a phrase's tokens make label `def`: all its tokens, none of its excluded ones (the name label: at most 6 tokens). */
function isLabel(def: LabelDef, ts: string[]): boolean {
  return def.all.every((tok) => ts.some((w) => tokenMatches(w, tok))) && !def.none?.some((tok) => ts.some((w) => tokenMatches(w, tok))) && !(def.id === 'nome' && ts.length > 6);
}

/**
 * Whether some substring of `text` is within `maxEdits` edits (insertions, deletions, substitutions) of
 * `pattern`: approximate substring matching by dynamic programming with a free start (Sellers 1980).
 */
export function fuzzyContains(text: string, pattern: string, maxEdits: number): boolean {
  // col[i]: fewest edits turning pattern[0..i) into some substring of text ending at the current position.
  let col = Array.from({ length: pattern.length + 1 }, (_, i) => i);
  if (col[pattern.length] <= maxEdits) return true;
  for (const ch of text) {
    const next = [0];
    for (let i = 1; i <= pattern.length; i++) next[i] = Math.min(col[i] + 1, next[i - 1] + 1, col[i - 1] + (pattern[i - 1] === ch ? 0 : 1));
    if (next[pattern.length] <= maxEdits) return true;
    col = next;
  }
  return false;
}

/** A date as printed (DD/MM/AAAA, separators as read). */
const DATE_TEXT = /\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/;

/**
 * Whether a phrase has a value's shape that no label has, a date or a place ending in a comma and one of
 * the 27 states (codes.ts isPlaceLine), and no label word spelt exactly (`ts`: its tokens): a town's name
 * can be a label word within the fuzzy match's edits (the 2022 birth line "24/12/1985, PROMISSÃO, SP" read
 * as the PERMISSÃO label, 2 edits, its town lost: final27 #38, #54), while a label read together with the
 * value beside it ("VALIDADE 16/09/2020") still holds its word.
 */
const valueShaped = (p: Phrase, ts: string[]): boolean => (DATE_TEXT.test(p.text) || isPlaceLine(p.text)) && !ts.some((t) => LABEL_TOKENS.includes(t));

export interface FoundLabel {
  id: LabelId;
  phrase: Phrase;
}

/**
 * Label phrases by id (first occurrence top-down). A label phrase is short (at most 9 tokens) so that
 * values and running text are not taken for labels. Labels still missing are then looked for in pairs
 * of phrases one label may have been broken into (splitLabels), none sharing a word with a found label.
 */
export function findLabels(phrases: Phrase[]): Map<LabelId, FoundLabel> {
  const found = new Map<LabelId, FoundLabel>();
  for (const p of phrases) {
    const ts = tokens(p);
    if (ts.length === 0 || ts.length > 9 || valueShaped(p, ts)) continue;
    for (const def of LABELS) {
      if (!isLabel(def, ts)) continue;
      // The first reading top-down, unless a later one is read closer to the label: the heading's
      // HABILITAÇÃO broken as "ILITAÇÃO" (2 edits from FILIAÇÃO) above the label itself read "FLIAÇÃO" (1
      // edit: final9 #3, the parents then looked for under the heading).
      // Compared under the same definition only (the name's two: "E SOBRENOME" is no closer reading of "261 NOME").
      const had = found.get(def.id), hadTs = had && tokens(had.phrase);
      if (!had || (hadTs && isLabel(def, hadTs) && labelEdits(def, ts) < labelEdits(def, hadTs))) found.set(def.id, { id: def.id, phrase: p });
    }
  }
  // Labels still missing, read with a letter wrong or glued (LabelDef.glued), among the phrases no label took.
  const taken = (p: Phrase): boolean => [...found.values()].some((l) => l.phrase === p);
  for (const def of LABELS) {
    if (!def.glued || found.has(def.id)) continue;
    const glued = def.glued;
    const p = phrases.find((q) => {
      const ts = tokens(q), joined = ts.join('');
      return !taken(q) && ts.length > 0 && ts.length <= 3 && joined.length <= glued.length + 2 && fuzzyContains(joined, glued, 1);
    });
    if (p) found.set(def.id, { id: def.id, phrase: p });
  }
  // Labels still missing, read as one word that is their start (LabelDef.cut) or their end (LabelDef.tail).
  for (const def of LABELS) {
    const { cut, tail } = def;
    if ((!cut && !tail) || found.has(def.id)) continue;
    const part = (t: string): boolean => (cut !== undefined && t.length >= CUT_LABEL && cut.startsWith(t))
      || (tail !== undefined && t.length >= TAIL_LABEL && editDistance(t, tail.slice(-t.length)) <= 1);
    const p = phrases.find((q) => { const ts = tokens(q); return !taken(q) && ts.length === 1 && part(ts[0]); });
    if (p) found.set(def.id, { id: def.id, phrase: p });
  }
  if (found.size < LABEL_COUNT) for (const p of splitLabels(phrases)) {
    const ts = tokens(p);
    if (valueShaped(p, ts)) continue;
    for (const def of LABELS) {
      if (found.has(def.id) || !isLabel(def, ts) || [...found.values()].some((l) => l.phrase.words.some((w) => p.words.includes(w)))) continue;
      found.set(def.id, { id: def.id, phrase: p });
    }
  }
  return found;
}

/**
 * Labels the recogniser broke in two phrases ("3 DATA, LOCAL" and "E UF DE NASCIMENTO": boxes of a
 * tilted line that overlap a little, or a wider gap): each pair of short phrases (at most 9 tokens
 * together) on one line, the second starting within 2 of their heights after the first ends (or
 * overlapping it by at most that), joined into one phrase.
 */
function splitLabels(phrases: Phrase[]): Phrase[] {
  const out: Phrase[] = [];
  for (const a of phrases) {
    for (const b of phrases) {
      if (a === b || b.x0 <= a.x0) continue;
      const h = Math.max(a.h, b.h), gap = b.x0 - a.x1;
      if (gap > 2 * h || gap < -2 * h || Math.abs((a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2) > 0.6 * h || Math.max(a.h, b.h) > 1.5 * Math.min(a.h, b.h)) continue;
      if (tokens(a).length + tokens(b).length > 9) continue;
      out.push(toPhrase([...a.words, ...b.words]));
    }
  }
  return out;
}

/** 2022 model when its numbered labels or ministry line are present, else the older model. */
export function detectModel(labels: Map<LabelId, FoundLabel>, fullText: string): CnhModel {
  const t = fold(fullText);
  let score = 0;
  if (labels.has('nascimento3')) score += 2;
  if (labels.has('nascimento')) score -= 2;
  if (/SOBRENOME/.test(t)) score += 1;
  if (/TRANSPORTES/.test(t)) score += 1;
  if (/CIDADES|PERMISSAO/.test(t)) score -= 1;
  return score > 0 ? '2022' : 'old';
}

/**
 * Median height (px) of the found labels' words in plain capitals (PLAIN_CAPS): the label type's cap
 * height; 0 when fewer than three such words were read.
 */
export function labelCapHeight(labels: Map<LabelId, FoundLabel>): number {
  const hs = [...labels.values()].flatMap((l) => l.phrase.words).filter((w) => PLAIN_CAPS.test(w.text)).map((w) => w.y1 - w.y0).sort((a, b) => a - b);
  return hs.length >= 3 ? hs[Math.floor(hs.length / 2)] : 0;
}

/**
 * The lower quartile of the heights (px) of the found labels' words in plain capitals (PLAIN_CAPS): the
 * label type's cap height where a lens's or a scanner's halo grew most label boxes (final10 #46: label
 * words boxed 13-31 px for a 13 px type, their median 26, as tall as the values' 21); 0 when fewer than
 * three such words were read.
 */
export function labelTypeLow(labels: Map<LabelId, FoundLabel>): number {
  const hs = [...labels.values()].flatMap((l) => l.phrase.words).filter((w) => PLAIN_CAPS.test(w.text)).map((w) => w.y1 - w.y0).sort((a, b) => a - b);
  return hs.length >= 3 ? hs[Math.floor((hs.length - 1) / 4)] : 0;
}

/** Median height of the found labels' phrases: the label type size, px. */
export function labelHeight(labels: Map<LabelId, FoundLabel>): number {
  const hs = [...labels.values()].map((l) => l.phrase.h).sort((a, b) => a - b);
  return hs.length ? hs[Math.floor(hs.length / 2)] : 0;
}

/**
 * The median of a page's label-to-value gaps (label heights, value-place.ts labelValueGaps) is 0.6-1.5 on
 * most seen pages, the values printed where the card's design puts them; a page whose median is more
 * (2.5-3.1: its value layer printed low, final28 #20's lone category under its label's region) has its
 * empty regions reach that much deeper. The gaps differ by row on a 2022 front (0.6 under CPF, 3.2 under
 * NOME), so regions only grow down: their top stays where a value printed as designed begins.
 */
const USUAL_VALUE_GAP = 1.6;

/** Labels whose value is a single line (re-read on their own when the page pass found nothing). */
const SINGLE_LINE_VALUES: LabelId[] = ['nome', 'nascimento3', 'nascimento', 'emissao', 'validade', 'identidade', 'cpf', 'registro', 'categoria', 'primeira', 'observacoes'];

/**
 * Regions (px) under found labels where no value phrase was found: from 0.2 label heights under the
 * label (its top plus 1.5 label heights at most), 3.2 label heights tall (more by the page's excess over
 * USUAL_VALUE_GAP, then not past the next label under it), from one label height left of it (three for category and remarks) to the next label on its row (at most
 * 40 label heights; 8 for the category). Single letters (category B, remark A) are often dropped by sparse page reading.
 */
export function emptyValueRegions(phrases: Phrase[], imageWidthPx: number, imageHeightPx: number): Array<{ id: LabelId; left: number; top: number; width: number; height: number }> {
  const labels = findLabels(phrases);
  const labelPhrases = new Set([...labels.values()].map((l) => l.phrase));
  const h = labelHeight(labels);
  const capH = labelCapHeight(labels);
  // The page's value layer printed low (its median label-to-value gap over USUAL_VALUE_GAP): regions reach deeper.
  const gaps = labelValueGaps(labels, phrases, labelPhrases, h, capH);
  const deeper = gaps.length >= 3 ? Math.max(0, meanMedian(gaps) - USUAL_VALUE_GAP) : 0;
  const out: Array<{ id: LabelId; left: number; top: number; width: number; height: number }> = [];
  for (const id of SINGLE_LINE_VALUES) {
    const l = labels.get(id);
    if (!l || valueBelow(l, phrases, labelPhrases, 1, h, capH).length) continue;
    const L = l.phrase;
    const nextRight = [...labelPhrases].filter((p) => p !== L && p.x0 > L.x1 && Math.abs((p.y0 + p.y1) / 2 - (L.y0 + L.y1) / 2) < h).map((p) => p.x0);
    // Codes (category, remarks) shifted left by the printer's offset start before their label.
    const left = Math.max(0, Math.round(L.x0 - (id === 'categoria' || id === 'observacoes' ? 3 : 1) * h));
    // Category codes are at most three letters: a short window keeps card edges and frames out.
    const reach = id === 'categoria' ? 8 : 40;
    const right = Math.min(imageWidthPx, Math.round(Math.min(L.x0 + reach * h, ...nextRight) - 0.5 * h));
    // From the label's type, not its phrase's box: a value's first letter read into the label's phrase
    // (an "F" under "12 OBSERVAÇÕES" read "-") stretches that box down over the value. Deeper by as much
    // as this page prints its values lower than usual, then not past the next label under this one.
    const top = Math.round(Math.min(L.y1, L.y0 + 1.5 * h) + 0.2 * h);
    const nextBelow = [...labelPhrases].filter((p) => p !== L && p.y0 > L.y1 && p.x0 < L.x1 && p.x1 > L.x0).map((p) => p.y0);
    const bottom = Math.min(imageHeightPx, top + Math.round((3.2 + deeper) * h), deeper > 0 ? Math.min(...nextBelow) - 1 : Infinity);
    const height = bottom - top;
    if (right - left > 10 && height > 8) out.push({ id, left, top, width: right - left, height });
  }
  return out;
}
