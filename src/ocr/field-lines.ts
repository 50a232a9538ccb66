/**
 * Value lines of the CNH found by their place rather than their label's text (issue #17; moved out of
 * fields.ts, which calls them): the 2022 model's birth line (field 3, "DD/MM/AAAA, CIDADE, UF") split into
 * its parts, and the value lines under a row (the 2022 model's FILIAÇÃO and the parents under the
 * category's row). Pure functions of the recogniser's phrases; no pixels.
 */
import { withContinuations, type FoundLabel } from './layout.js';
import { confusedUf, normalizeDate, normalizeName, single, UFS } from './normalize.js';
import { sideGaps } from './doubts.js';
import { median, type Phrase } from './words.js';

/** Label boxes whose type (layout.ts labelTypeLow) is under this share of their median box grew over it (linesUnderRow). */
export const GROWN_LABELS = 0.7;

/**
 * Field 3 of the 2022 model, "DD/MM/AAAA, CIDADE, UF": the date (normalizeDate, or ''), the town
 * (normalizeName of what lies between the first comma and the state) and the state ('' when the last
 * part is not one of the 27, nor one read with a confused capital: `confused`, normalize.ts confusedUf).
 */
export function birthLine(line: string): { date: string; city: string; uf: string; confused: boolean } {
  const text = single(line);
  const rest = text.replace(/^[^,]*,/, '').split(',').map((s) => normalizeName(s)).filter(Boolean);
  // The line ends with the state: words read after it are marks beside the card's print ("TIMBÓ, SC
  // Nf VIR": a blot 2 x the type's height beside the line, final14 #36).
  const head = rest.length > 1 ? rest[rest.length - 1].split(' ')[0] : '';
  if (UFS.has(head) && !UFS.has(rest[rest.length - 1])) rest[rest.length - 1] = head;
  const last = rest.length > 1 ? rest[rest.length - 1] : '';
  const exact = UFS.has(last), near = exact ? '' : confusedUf(last);
  if (exact || near) rest.pop();
  return { date: normalizeDate(text), city: rest.join(' '), uf: exact ? last : near, confused: near !== '' };
}

/** A gap in the birth line over this many times its median gap between words held lost letters (townGap). */
export const TOWN_GAP = 2;
/** ... and over this share of the line's type height (a printed space is 0.3-0.5 of it). */
const TOWN_GAP_TYPE = 0.6;

/**
 * Whether the birth line (`phrases`: field 3's value, "DD/MM/AAAA, CIDADE, UF", its words side by side)
 * has a gap between two of its words over TOWN_GAP x the median of its gaps and over TOWN_GAP_TYPE of
 * its type height: the card prints one space between the line's words, so a gap that wide held letters
 * the recogniser lost, the town cut in two (final16 #26: "12/09/1999, SCHRO R, SC" for SCHROEDER, the
 * EDE under a pen mark, 64 px where the line's spaces are 14-15 px; normalizeName drops the lone R and
 * the town read "SCHRO" at 0.958). Needs three gaps (four words) to measure the line by.
 */
export function townGap(phrases: Phrase[]): boolean {
  const ws = phrases.flatMap((p) => p.words).filter((w) => /[A-Za-zÀ-ÿ0-9]/.test(w.text));
  const gaps = sideGaps(ws);
  const h = median(ws.map((w) => w.y1 - w.y0));
  const m = median(gaps);
  return gaps.length >= 3 && m > 0 && gaps.some((g) => g > TOWN_GAP * m && g > TOWN_GAP_TYPE * h);
}

/**
 * The last one or two consecutive value lines left-aligned with `label`, from 1.5 to 8 label heights
 * under the value row that follows it (the 2022 model prints FILIAÇÃO and the parents there).
 */
export function linesUnderRow(label: FoundLabel, phrases: Phrase[], labelPhrases: Set<Phrase>, labelH: number, typeLow = 0): Phrase[] {
  const L = label.phrase;
  // Where the label boxes grew far over their type (labelTypeLow well under the median box: a lens's
  // halo, final10 #46), the row and the size are measured from the type; a line then taken only by
  // that measure is a name's line of two words or more (an unread label is one word).
  const grown = typeLow > 0 && typeLow < GROWN_LABELS * labelH;
  const h = Math.max(4, grown ? typeLow : labelH);
  const big = (p: Phrase): boolean => p.h >= 1.2 * Math.max(4, labelH) || (grown && p.h >= 1.2 * h && p.words.filter((w) => /[A-Za-zÀ-ÿ]{2}/.test(w.text)).length >= 2);
  const rowBottom = L.y1 + 3.5 * h;
  const cands = phrases
    .filter((p) => !labelPhrases.has(p) && big(p) && Math.abs(p.x0 - L.x0) < 3 * h && p.y0 > rowBottom && p.y0 < rowBottom + 8 * h)
    .filter((p) => p.words.reduce((s, w) => s + w.conf, 0) / p.words.length >= 0.5)
    .sort((a, b) => a.y0 - b.y0);
  if (!cands.length) return [];
  const last = cands[cands.length - 1];
  const prev = cands[cands.length - 2];
  // Each line joined with the rest of it the recogniser broke off (a first name whose box swallowed
  // the FILIAÇÃO label above it, the surnames beside it).
  const whole = (p: Phrase): Phrase => withContinuations(p, phrases, labelPhrases, h);
  return prev && last.y0 - prev.y1 < 1.0 * last.h ? [whole(prev), whole(last)] : [whole(last)];
}
