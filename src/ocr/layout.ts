/**
 * CNH layout: finds the printed labels of both card models (older model; 2022 model with numbered
 * fields; the CNH-e PDF prints the 2022 or older layout) among the phrases by their words, and reads
 * each value as the larger-type phrase just below its label, left-aligned with it.
 */
import { editDistance, fold, toPhrase, type Phrase } from './words.js';

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
}

/** Letters a label's start (LabelDef.cut) must hold: past the DATA the date labels share and two more (DATAEM). */
export const CUT_LABEL = 6;

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
  { id: 'observacoes', all: ['OBSERVACOES'] },
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
    if (ts.length === 0 || ts.length > 9) continue;
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
  for (const def of LABELS) {
    const cut = def.cut;
    if (!cut || found.has(def.id)) continue;
    const p = phrases.find((q) => { const ts = tokens(q); return !taken(q) && ts.length === 1 && ts[0].length >= CUT_LABEL && cut.startsWith(ts[0]); });
    if (p) found.set(def.id, { id: def.id, phrase: p });
  }
  if (found.size < LABEL_COUNT) for (const p of splitLabels(phrases)) {
    const ts = tokens(p);
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
 * Largest gap between a value's lines (parents), in line heights: 1.0 missed second lines printed a few
 * pixels lower (tuning part, jittered print), 1.6 still stops short of the next field's value.
 */
const NEXT_LINE_GAP = 1.6;

/** How far (label heights) under its label's bottom a value line's top may lie. */
const VALUE_REACH = 3.5;
/** Farther reach, only with no label between (valueBelow). */
const FAR_VALUE_REACH = 4.2;
/**
 * Labels whose value line may lie as far as FAR_VALUE_REACH: one-line numbers and dates, which no
 * other field's line stands in for (a name's label reaching that far finds the birth line instead);
 * a line taken that far must hold a digit (a lone "/" of the frame is no date).
 */
const FAR_REACHED: LabelId[] = ['identidade', 'cpf', 'registro', 'emissao', 'validade', 'primeira', 'nascimento'];

/**
 * Value lines below `label`: phrases whose top lies between the label's middle and VALUE_REACH label
 * heights under it (numbers and dates, where none is there, FAR_VALUE_REACH with no label between), whose left edge is within 4 label heights of the label's (or up to 8 to its left), whose type is at least 1.2 x the
 * label type (`labelHeightPx`: the median height of all labels, as accents and cedillas inflate single
 * boxes) and which are not labels themselves; then up to `maxLines - 1` further lines directly below.
 * Each line is joined with the rest of its line the recogniser broke off (withContinuations).
 */
export function valueBelow(label: FoundLabel, phrases: Phrase[], labelPhrases: Set<Phrase>, maxLines = 1, labelHeightPx = label.phrase.h, capHeightPx = 0): Phrase[] {
  const L = label.phrase;
  const h = Math.max(4, labelHeightPx);
  // Left edges align (within 4 label heights to the right: the printer's offset of the value layer
  // reaches ~3 label heights); the label's own start may be lost (e.g. "4c DOC." unread), so a value
  // may begin up to 8 label heights left of the label if it reaches under it. A code of one to three characters
  // (category, remark) shifted left by the printer's offset may end up to 2.5 label heights before it.
  const aligned = (p: Phrase): boolean => p.x0 < L.x0 + 4 * h && p.x0 > L.x0 - 8 * h && p.x1 > L.x0 - (p.text.length <= 3 ? 2.5 * h : 0);
  const isValue = (p: Phrase): boolean => !labelPhrases.has(p) && (p.h >= 1.2 * h || bigCaps(p, capHeightPx) || p.words.every((w) => w.reread)) && aligned(p);
  const under = (reach: number): Phrase[] => phrases.filter((p) => isValue(p) && p.y0 > (L.y0 + L.y1) / 2 && p.y0 < L.y1 + reach * h);
  // Past VALUE_REACH only where no other label lies between: a value printed a little lower than its
  // field's usual gap (final21 #84, a text-layer PDF: the identity line 3.55 label heights under its
  // label, exact cap-height boxes) is still its label's while the next label's line is not reached.
  const labelBetween = (p: Phrase): boolean => [...labelPhrases].some((q) => q !== L && q.y0 > L.y1 && q.y0 < p.y0 && q.x0 < p.x1 && q.x1 > p.x0);
  const near = under(VALUE_REACH);
  const far = (): Phrase[] => (FAR_REACHED.includes(label.id) ? under(FAR_VALUE_REACH).filter((p) => /\d/.test(p.text) && !labelBetween(p)) : []);
  const first = (near.length ? near : far()).sort((a, b) => a.y0 - b.y0)[0];
  if (!first) return [];
  const out = [withContinuations(first, phrases, labelPhrases, h)];
  const used = (p: Phrase): boolean => out.some((o) => o.words.includes(p.words[0]));
  while (out.length < maxLines) {
    const prev = out[out.length - 1];
    const next = phrases
      .filter((p) => isValue(p) && !used(p) && p.y0 > (prev.y0 + prev.y1) / 2 && p.y0 < prev.y1 + NEXT_LINE_GAP * prev.h)
      .sort((a, b) => a.y0 - b.y0)[0];
    if (!next) break;
    // Every line may have been broken (a parent's surname with a tilde, its box taller than the rest).
    out.push(withContinuations(next, phrases, labelPhrases, h));
  }
  return out;
}

/**
 * A value line the recogniser broke into phrases (a tall accented word next to the rest): phrases on
 * its line starting within 3 value heights after its end are joined to it.
 */
export function withContinuations(first: Phrase, phrases: Phrase[], labelPhrases: Set<Phrase>, labelH: number): Phrase {
  let cur = first;
  // The line's centre and type are the first phrase's: a tall mark joined to it (a stamp's border read
  // "o" 3 x the type) must not move the centre line down to the stamp's own words under the name
  // (final10 #68: AUTENTICAÇÃO joined after the "o"). Tall words are still joined (a word boxed with a
  // mark over it is part of the line: leaving it out would leave a hole in a name read sure). A phrase
  // with no letter or digit (a mark words.ts peelMarks put apart: a crease read "-", a border "!") adds
  // nothing to the value and would only stretch its box: not joined.
  const cy = (first.y0 + first.y1) / 2;
  for (;;) {
    const next = phrases
      .filter((p) => p !== cur && !cur.words.includes(p.words[0]) && !labelPhrases.has(p) && LETTER_OR_DIGIT.test(p.text) && p.h >= 1.2 * labelH && p.x0 > cur.x1 - 0.5 * cur.h
        && p.x0 - cur.x1 < 3 * Math.max(cur.h, p.h) && Math.abs((p.y0 + p.y1) / 2 - cy) < 0.5 * Math.max(first.h, p.h))
      .sort((a, b) => a.x0 - b.x0)[0];
    if (!next) return cur;
    cur = toPhrase([...cur.words, ...next.words]);
  }
}

/** Some letter or digit. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Values printed left-aligned under their labels, whose offsets say where a card's values begin. */
const ALIGNED_VALUES: LabelId[] = ['nome', 'cpf', 'registro', 'validade', 'emissao', 'primeira', 'identidade', 'nascimento', 'nascimento3'];
/**
 * A code starting this many of its heights (a capital's advance is ~0.7 of it) more than excessIndent
 * expects lost a letter; the two jitters of a label and its value stay under ~0.6.
 */
export const LOST_GLYPH = 0.9;

/**
 * How far (px) `value` starts right of where the page's other values start under their labels
 * (ALIGNED_VALUES found in `labels`, with `firstValue` their first value line): the value layer is
 * printed with one offset per card (up to +-3 % of the card in the widened set, up to 4 label heights
 * in valueBelow), so the median of the others' offsets says where a value under `label` should begin.
 * A short code that begins a glyph or more further right lost its first character(s) ("AE" read "E").
 * 0 with fewer than 2 others.
 */
export function excessIndent(label: FoundLabel, value: Phrase, labels: Map<LabelId, FoundLabel>, firstValue: (id: LabelId) => Phrase | undefined): number {
  const others = ALIGNED_VALUES.flatMap((id): Array<[FoundLabel, Phrase]> => {
    const l = labels.get(id), v = firstValue(id);
    return l && v ? [[l, v]] : [];
  });
  const offsets = others.map(([l, v]) => v.x0 - l.phrase.x0).sort((a, b) => a - b);
  if (offsets.length < 2) return 0;
  const mid = offsets.length / 2;
  const median = offsets.length % 2 ? offsets[Math.floor(mid)] : (offsets[mid - 1] + offsets[mid]) / 2;
  return value.x0 - label.phrase.x0 - median;
}

/**
 * Value lines directly above `anchor` (a label): up to `maxLines` value-size phrases stacked upwards,
 * left-aligned with the anchor, the lowest ending within `reachLabelHeights` label heights above it
 * (default 2.5). Used when a value's own label was not read (e.g. the name sits right above the
 * identity document's label).
 */
export function valueAbove(anchor: FoundLabel, phrases: Phrase[], labelPhrases: Set<Phrase>, labelHeightPx: number, maxLines = 1, reachLabelHeights = 2.5): Phrase[] {
  const A = anchor.phrase;
  const h = Math.max(4, labelHeightPx);
  const isValue = (p: Phrase): boolean => !labelPhrases.has(p) && p.h >= 1.2 * h && Math.abs(p.x0 - A.x0) < 3 * h;
  const out: Phrase[] = [];
  let floor = A.y0;
  let reach = reachLabelHeights * h;
  while (out.length < maxLines) {
    const next = phrases
      .filter((p) => isValue(p) && !out.includes(p) && p.y1 <= floor + 0.3 * h && p.y1 > floor - reach)
      .sort((a, b) => b.y1 - a.y1)[0];
    if (!next) break;
    out.unshift(withContinuations(next, phrases, labelPhrases, h));
    floor = next.y0;
    reach = 1.0 * next.h;
  }
  return out;
}

/** Words of plain capitals and digits (no accent, cedilla or descender): their box is the cap height. */
const PLAIN_CAPS = /^[A-Z0-9]+[.,:]?$/;

/** A date or number with slashes in lining figures: boxed as tall as a capital too. */
const PLAIN_DATE = /^[0-9]+(\/[0-9]+)+[.,]?$/;

/**
 * Value type recognised by cap height: a phrase of plain capitals (e.g. a category "A") has a box only
 * as tall as its capitals, lower than accented label phrases' boxes, so it is compared with the labels'
 * own cap height (`capHeightPx`, labelCapHeight) instead: at least 1.3 x (value type is ~1.6 x label type).
 */
function bigCaps(p: Phrase, capHeightPx: number): boolean {
  return capHeightPx > 0 && p.words.every((w) => PLAIN_CAPS.test(w.text) || PLAIN_DATE.test(w.text)) && p.h >= 1.3 * capHeightPx;
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

/** Labels whose value is a single line (re-read on their own when the page pass found nothing). */
const SINGLE_LINE_VALUES: LabelId[] = ['nome', 'nascimento3', 'nascimento', 'emissao', 'validade', 'identidade', 'cpf', 'registro', 'categoria', 'primeira', 'observacoes'];

/**
 * Regions (px) under found labels where no value phrase was found: from 0.2 label heights under the
 * label (its top plus 1.5 label heights at most), 3.2 label heights tall, from one label height left of it (three for category and remarks) to the next label on its row (at most
 * 40 label heights; 8 for the category). Single letters (category B, remark A) are often dropped by sparse page reading.
 */
export function emptyValueRegions(phrases: Phrase[], imageWidthPx: number, imageHeightPx: number): Array<{ id: LabelId; left: number; top: number; width: number; height: number }> {
  const labels = findLabels(phrases);
  const labelPhrases = new Set([...labels.values()].map((l) => l.phrase));
  const h = labelHeight(labels);
  const capH = labelCapHeight(labels);
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
    // (an "F" under "12 OBSERVAÇÕES" read "-") stretches that box down over the value.
    const top = Math.round(Math.min(L.y1, L.y0 + 1.5 * h) + 0.2 * h);
    const height = Math.min(imageHeightPx - top, Math.round(3.2 * h));
    if (right - left > 10 && height > 8) out.push({ id, left, top, width: right - left, height });
  }
  return out;
}
