/**
 * Where a value lies: the value lines under (valueBelow) or over (valueAbove) a found label, a line the
 * recogniser broke in pieces joined again (withContinuations), and how far a code starts right of where
 * the card's values start (excessIndent). Moved out of layout.ts (which finds the labels) when it reached
 * 400 lines, behaviour unchanged; layout.ts re-exports these for its former importers.
 */
import type { FoundLabel, LabelId } from './layout.js';
import { labelWithoutUnsureLead } from './label-edge.js';
import { meanMedian, toPhrase, type Phrase } from './words.js';

/**
 * Largest gap between a value's lines (parents), in line heights: 1.0 missed second lines printed a few
 * pixels lower (tuning part, jittered print), 1.6 still stops short of the next field's value.
 */
const NEXT_LINE_GAP = 1.6;

/** How far (label heights) under its label's bottom a value line's top may lie. */
export const VALUE_REACH = 3.5;
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
export function valueBelow(label: FoundLabel, phrases: Phrase[], labelPhrases: Set<Phrase>, maxLines = 1, labelHeightPx = label.phrase.h, capHeightPx = 0, reach = VALUE_REACH): Phrase[] {
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
  const near = under(reach);
  const far = (): Phrase[] => (FAR_REACHED.includes(label.id) ? under(FAR_VALUE_REACH).filter((p) => /\d/.test(p.text) && !labelBetween(p)) : []);
  const first = (near.length ? near : far()).sort((a, b) => a.y0 - b.y0)[0];
  if (!first) {
    // None under the whole phrase: under the label's own words, the unsure marks read in front of it left out (label-edge.ts).
    const core = labelWithoutUnsureLead(L);
    return core ? valueBelow({ ...label, phrase: core }, phrases, labelPhrases, maxLines, labelHeightPx, capHeightPx, reach) : [];
  }
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
 * its line starting within 3 value heights after its end are joined to it, and those inside a gap
 * between two of its words (withInsets).
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
    if (!next) return withInsets(cur, cy, first.h, phrases, labelPhrases, labelH);
    cur = toPhrase([...cur.words, ...next.words]);
  }
}

/**
 * `line` with the value-type phrases that lie inside a gap between two of its words joined to it, in
 * their place (their words sorted left to right): a word of the line the recogniser's line finding put
 * on a line of its own. words.ts groupPhrases does not join boxes more than 1.9 x apart in height,
 * and a scanner's halo that grows the words on both sides of one (final22 #36: the mother's
 * "SIRJE CERIDWEN ... AKINDÉLÉ" boxed 45 px, SEPP 23 px between CERIDWEN and AKINDÉLÉ) leaves that word
 * out, a sure name with a word missing (0.865). A phrase on the line's centre (`cy`, within half the
 * line's or its own type height, `typeH`), wholly in the gap between two words (half its height of
 * slack on each side), holding a letter or digit, of value type (1.2 x `labelH`) and no label, can be
 * nothing but a piece of this line: any font, any name, any field.
 */
function withInsets(line: Phrase, cy: number, typeH: number, phrases: Phrase[], labelPhrases: Set<Phrase>, labelH: number): Phrase {
  const ws = [...line.words].sort((a, b) => a.x0 - b.x0);
  if (ws.length < 2) return line;
  const inGap = (p: Phrase): boolean => ws.slice(1).some((b, i) => p.x0 >= ws[i].x1 - 0.5 * p.h && p.x1 <= b.x0 + 0.5 * p.h);
  const insets = phrases.filter((p) => p !== line && !p.words.some((w) => line.words.includes(w)) && !labelPhrases.has(p) && LETTER_OR_DIGIT.test(p.text)
    && p.h >= 1.2 * labelH && Math.abs((p.y0 + p.y1) / 2 - cy) < 0.5 * Math.max(typeH, p.h) && inGap(p));
  return insets.length ? toPhrase([...ws, ...insets.flatMap((p) => p.words)].sort((a, b) => a.x0 - b.x0)) : line;
}

/**
 * The phrase of `phrases` that a value line joined by withContinuations began with (its leftmost word's
 * phrase, fewer words than the line), or `line` itself when nothing was joined. A checked value (a CPF,
 * a registration number, a date) whose joined line has no value's shape while this piece has is the
 * piece alone (fields.ts extractFields read): the line was joined with the next field's value on its
 * row, withContinuations reaching 3 of the line's heights after its end, heights a blur or a scanner's
 * halo grows (final22 #4: the CPF "431.788:846-56." boxed 41 px for a 21 px type, joined with the
 * registration number 59294143954 beside it: 22 digits, no CPF, the field left empty). A number's or
 * a date's shape is fixed, whatever the font or the degradation: a line with more than that is two.
 */
export function firstPiece(line: Phrase, phrases: Phrase[]): Phrase {
  return phrases.find((p) => p.words[0] === line.words[0] && p.words.length < line.words.length) ?? line;
}

/**
 * The gaps between the page's found `labels` and the first value line under each within VALUE_REACH
 * (valueBelow), from the label's bottom to the value's top, in label heights (`labelH`, at least 4 px):
 * where this page prints its value layer (pageValueReach, layout.ts emptyValueRegions).
 */
export function labelValueGaps(labels: Map<LabelId, FoundLabel>, phrases: Phrase[], labelPhrases: Set<Phrase>, labelH: number, capH: number): number[] {
  if (labelH <= 0) return [];
  return [...labels.values()].flatMap((l) => {
    const v = valueBelow(l, phrases, labelPhrases, 1, labelH, capH)[0];
    return v ? [(v.y0 - l.phrase.y1) / Math.max(4, labelH)] : [];
  });
}

/** Most a page's own reach (pageValueReach) may grow to, in label heights: short of the next field's label line. */
const PAGE_REACH_MAX = 4.2;
/**
 * Over the page's median label-to-value gap, in label heights: a value's own jitter about its layer's
 * offset, and the room the parents' block keeps under FILIAÇÃO (0.53 over the median on final27 #85; 1.0
 * on final29 #63, a text-layer PDF: values 2.8 under their labels, the father 3.8, past 0.8's reach, so the
 * father was lost and his line taken for the mother's at 0.675). At most PAGE_REACH_MAX whatever it adds.
 */
const PAGE_REACH_SLACK = 1.2;

/**
 * How far under its label (label heights) a value line may lie on this page: VALUE_REACH, or the median gap
 * between the page's labels and their values found within VALUE_REACH (`gaps`, label heights, at least 3 of
 * them) plus PAGE_REACH_SLACK, whichever is larger, at most PAGE_REACH_MAX. The value layer is printed with
 * one offset per card: where it sits low (final27 #85, a text-layer PDF: values 2.75-3.38 label heights under
 * their labels, median 3.17), a name 3.58 under NOME and the parents 3.70 under FILIAÇÃO are past the fixed
 * reach though they lie where this page puts its values. Used by fields.ts only for a label that found no
 * value within VALUE_REACH.
 */
export function pageValueReach(gaps: number[]): number {
  if (gaps.length < 3) return VALUE_REACH;
  return Math.min(PAGE_REACH_MAX, Math.max(VALUE_REACH, meanMedian(gaps) + PAGE_REACH_SLACK));
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
export const PLAIN_CAPS = /^[A-Z0-9]+[.,:]?$/;

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
