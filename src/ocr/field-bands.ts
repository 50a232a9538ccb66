/**
 * A second reading of only the rows of a page's unsure fields (index.ts recognizeImage), instead of the
 * whole page, when no core field is missing.
 *
 * Why: a page whose first reading is poor (second-read.ts readingMisses) is prepared another way and
 * read a second time; the page pass is most of that (0.7-0.9 CPU s of ~1.4). When every core field was
 * read and some are only unsure, the second reading can only change those fields' values or lift their
 * confidences by agreeing (mergeReadings); on final11 (thirteenth round, traced) such readings changed
 * one value of a field outside the core in 28 pages and otherwise only confidences. The recogniser's time
 * follows the width of the lines it reads (README "Speed"), so the second preparation is read with every
 * row whitened but the bands of the unsure fields (their label row above and their value row): the
 * same preparation, the same page pass on those lines, a fraction of the width. A missing core field
 * has no words to find its row by, so it keeps the whole second reading, as does any value whose row
 * is not found among the first reading's words (fieldRow).
 */
import type { CnhField, CnhFieldName } from './engine.js';
import { CNH_FIELD_NAMES } from './engine.js';
import type { CnhModel } from './layout.js';
import type { GrayImage } from './regions.js';
import { editDistance, fold, type OcrWord } from './words.js';

/** A horizontal band of a page, px of the prepared image, top inclusive, bottom exclusive. */
export interface Band { y0: number; y1: number }

/** Confidence under which a field read is unsure (second-read.ts UNSURE, the spec's low-confidence line). */
const UNSURE = 0.8;
/** Words under this confidence are the recogniser's noise (index.ts textOf): they neither place a row nor move a band's edge. */
const NOISE = 0.25;
/** Share of a value's letters and digits its row's words must hold for the row to be taken as the value's. */
const ROW_SHARE = 0.5;
/** A band reaches this many of the value's line heights above it (the label's row) ... */
const ABOVE = 1.8;
/** ... and this many below it. */
const BELOW = 0.4;

const alnum = (s: string): string => fold(s).replace(/[^A-Z0-9]/g, '');

/** Letters a digit is often read as (a number's value is normalised from them: fields.ts). */
const AS_DIGIT: Record<string, string> = { O: '0', D: '0', Q: '0', I: '1', L: '1', J: '1', Z: '2', S: '5', G: '6', T: '7', B: '8' };
const asDigits = (t: string): string => t.replace(/[A-Z]/g, (c) => AS_DIGIT[c] ?? c);

/**
 * Whether a word's letters and digits `t` are one of the value's words `tokens`, or (4 or more of them)
 * part of the value `v`, or one of its words of 4 or more with a letter in 4 read otherwise (a value
 * normalised from look-alikes or mended by a second look: 81114570557 from "8111457O557").
 */
function matches(t: string, tokens: Set<string>, v: string): boolean {
  if (t === '' || tokens.has(t) || (t.length >= 4 && v.includes(t))) return true;
  const u = /^[0-9]+$/.test(v) ? asDigits(t) : t;
  if (u !== t && (tokens.has(u) || (u.length >= 4 && v.includes(u)))) return true;
  return u.length >= 4 && [...tokens].some((k) => k.length >= 4 && Math.abs(k.length - u.length) <= 1 && editDistance(k, u) <= Math.floor(k.length / 4));
}

/**
 * The row (top, bottom, line height) of the first reading's words a value was read from: words whose
 * letters and digits match the value (matches), grouped into
 * lines; the line(s) holding the most of the value's characters, when they hold at least ROW_SHARE of
 * them; null otherwise (the value's row is not found: the caller reads the whole page again).
 */
export function fieldRow(words: OcrWord[], valor: string): { y0: number; y1: number; h: number } | null {
  const v = alnum(valor);
  if (!v) return null;
  const tokens = new Set(fold(valor).split(/\s+/).map(alnum).filter(Boolean));
  const hits = words.filter((w) => {
    if (w.conf < NOISE) return false;
    const t = alnum(w.text);
    return t !== '' && matches(t, tokens, v);
  });
  const lines: OcrWord[][] = [];
  for (const w of [...hits].sort((a, b) => a.y0 - b.y0)) {
    const line = lines.find((l) => l.some((o) => Math.min(o.y1, w.y1) - Math.max(o.y0, w.y0) > 0.5 * Math.min(o.y1 - o.y0, w.y1 - w.y0)));
    if (line) line.push(w);
    else lines.push([w]);
  }
  const score = (l: OcrWord[]): number => l.reduce((s, w) => s + alnum(w.text).length, 0);
  const best = Math.max(0, ...lines.map(score));
  if (best < ROW_SHARE * v.length) return null;
  const rows = lines.filter((l) => score(l) === best).flat();
  const heights = rows.map((w) => w.y1 - w.y0).sort((a, b) => a - b);
  const h = heights[Math.floor(heights.length / 2)];
  if (!(h > 0)) return null;
  return { y0: Math.min(...rows.map((w) => w.y0)), y1: Math.max(...rows.map((w) => w.y1)), h };
}

/**
 * The bands to read a second time, or null when the whole page must be read again: null when a field
 * is missing (it has no words to be found by; every card prints all but the remark, which most leave
 * empty, and the birthplace, which the card model before 2022 (`model` 'old', fields.ts) does not print:
 * a second reading of the whole page found final12 #47's issue date and final11 #70's, read as nothing
 * first, while their core fields were only unsure) or when an unsure field's
 * row is not found. Every field read under UNSURE gets a band (not the core ones alone: an unsure value
 * outside the core may change too): its value's row, ABOVE line heights over it (its label) and BELOW
 * under it; an edge that cuts a word of the first reading is moved to take the word whole when at least
 * half of it is inside, and to leave it out otherwise (a word cut by the whitening would be read as
 * another). Overlapping bands are joined. An empty list: nothing to read again.
 */
export function unsureBands(words: OcrWord[], campos: Record<CnhFieldName, CnhField>, heightPx: number, model: CnhModel = '2022'): Band[] | null {
  if (CNH_FIELD_NAMES.some((k) => !campos[k].valor && k !== 'observacoes' && !(k === 'local_nascimento' && model === 'old'))) return null;
  const bands: Band[] = [];
  for (const k of CNH_FIELD_NAMES) {
    const f = campos[k];
    if (!f.valor || f.confianca >= UNSURE) continue;
    const row = fieldRow(words, f.valor);
    if (!row) return null;
    bands.push(snap({ y0: row.y0 - ABOVE * row.h, y1: row.y1 + BELOW * row.h }, words, row.h, heightPx));
  }
  return joinBands(bands);
}

/** A band whose edges take or leave whole the words of type size (up to 3 line heights tall) they cut. */
function snap(band: Band, words: OcrWord[], h: number, heightPx: number): Band {
  let { y0, y1 } = band;
  for (const w of words) {
    const wh = w.y1 - w.y0;
    if (w.conf < NOISE || wh <= 0 || wh > 3 * h) continue;
    if (w.y0 < band.y0 && w.y1 > band.y0) {
      if (w.y1 - band.y0 >= 0.5 * wh) y0 = Math.min(y0, w.y0);
      else y0 = Math.max(y0, w.y1);
    }
    if (w.y0 < band.y1 && w.y1 > band.y1) {
      if (band.y1 - w.y0 >= 0.5 * wh) y1 = Math.max(y1, w.y1);
      else y1 = Math.min(y1, w.y0);
    }
  }
  return { y0: Math.max(0, Math.floor(y0)), y1: Math.min(heightPx, Math.ceil(y1)) };
}

/** Bands sorted and joined where they overlap or touch. */
export function joinBands(bands: Band[]): Band[] {
  const out: Band[] = [];
  for (const b of [...bands].filter((b) => b.y1 > b.y0).sort((a, c) => a.y0 - c.y0)) {
    const last = out[out.length - 1];
    if (last && b.y0 <= last.y1) last.y1 = Math.max(last.y1, b.y1);
    else out.push({ ...b });
  }
  return out;
}

/** The bands' rows of a page scaled by `ky` (a second preparation of another height). */
export const scaleBands = (bands: Band[], ky: number): Band[] =>
  (ky === 1 ? bands : bands.map((b) => ({ y0: Math.floor(b.y0 * ky), y1: Math.ceil(b.y1 * ky) })));

/** Every row of `page` outside the bands whitened (255), in place. */
export function whitenOutside(page: GrayImage, bands: Band[]): void {
  let y = 0;
  for (const b of [...joinBands(bands), { y0: page.height, y1: page.height }]) {
    const top = Math.max(0, Math.min(page.height, b.y0));
    if (top > y) page.data.fill(255, y * page.width, top * page.width);
    y = Math.max(y, Math.min(page.height, b.y1));
  }
}

const centreIn = (w: OcrWord, bands: Band[]): boolean => {
  const c = (w.y0 + w.y1) / 2;
  return bands.some((b) => c >= b.y0 && c < b.y1);
};

/**
 * The second reading of the bands spliced into the first reading: the first's words whose centre lies
 * outside every band, and the second's whose centre lies inside one (both in the first's px). Fields
 * outside the bands read as in the first reading, so the merge (second-read.ts mergeReadings) keeps them.
 */
export function spliceBands(first: OcrWord[], second: OcrWord[], bands: Band[]): OcrWord[] {
  return [...first.filter((w) => !centreIn(w, bands)), ...second.filter((w) => centreIn(w, bands))];
}
