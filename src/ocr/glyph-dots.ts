/**
 * Two dots over a capital, read from the gray levels just above its glyph (issue #17, sixteenth round).
 * The Portuguese model has no Ä Ö Ü (its capitals with a mark: Á À Â Ã Ç É Ê Í Ó Ô Õ Ú): on final14's
 * pages it read JÄGER "JÁGER" (0.92), RÖHRIG "RÓHRIG" (0.90) and HÜBNER "HUBNER" (0.91), sure and wrong.
 * glyph-foreign.ts's two-dot test looks for two thresholded blobs of 4 px or more over type 18 px high
 * or more; on the pages the dots are 2 x 2 or 3 x 3 px, 1-2 px above the letter's top, over type 13-21
 * px high, and the threshold of the whole word keeps 2 or 3 of their pixels (JÄGER, DÜRR in DejaVu Sans
 * Light on a clean card: 3 and 2 px; HÜBNER on a JPEG-low page: 3 and 3 px; RÖHRIG in Liberation Mono
 * Bold, perspective: one 8 x 4 px blob, the dots joined diagonally), so no blob or one blob was seen.
 *
 * Here each pixel of a band above the glyph (half the letters' height tall, ending at the line's top,
 * less the row just over the glyph's own top in each column) counts by how dark it is between the
 * band's paper and the glyph's ink (0 paper, 1 ink), and each column by its darkest pixel. Columns at least RUN_INK dark form runs: two dots are two runs, each
 * small (a dot: at most DOT_MAX of the height wide and tall), at one height, with paper between them
 * (the gap's darkest column at most GAP_SHARE of the fainter dot's), spanning at least DOTS_MIN_SPAN of the
 * height; one run is one mark (an acute, a grave, a roof, a wave, a ring, or two dots run together), no
 * run is no mark. An acute or a grave is one continuous stroke: some pixel of every column it crosses is
 * dark, so it never leaves a paper gap; a circumflex's legs meet at its apex. A run counts only where a
 * lighter pixel parts it from the glyph below (SEPARATE): ink darkening down into the letter is its own
 * edge. Where the dots are told, the word is written with them (glyph-foreign.ts mendForeignMarks,
 * confidence at most INK_LETTER_CAP); where the ink shows a mark that is not told, the word is doubted.
 * Pure functions on a gray page.
 *
 * Measured on final14's pages (#1 clean, #4 and #49 perspective, #32 and #33 jpeg-low, #46 photo): the
 * dots' bottom 1-3 rows above the capitals' top, 2-4 px wide, 0.7-1.0 dark; a lighter row (0.17-0.47)
 * between them and the letter even where the threshold joined them to it (#49) or to each other (#4).
 */
import { SLANT_FLAT, markSlant } from './glyph-accent.js';
import type { Blob, Gray } from './glyph-i.js';
import { letterSpans } from './glyph-marks.js';

/** What the ink over one glyph shows: two dots, one mark, nothing, or ink that tells none of these. */
export type OverInk = 'dots' | 'one' | 'none' | 'unclear';

/** A column belongs to a mark when its darkest pixel is at least this dark (0 paper, 1 the glyph's ink). */
const RUN_INK = 0.4;
/** A mark's run is taken only when its darkest pixel is at least this dark; fainter runs are unclear. */
const MARK_INK = 0.55;
/** Each of two dots is at least this dark (blurred 2 px dots of a monospaced face: 0.5-0.55). */
const DOT_INK = 0.5;
/**
 * A run stands apart from the glyph under it when some row between them is at most this share of the
 * run's darkness (final14 #49: dots 0.85 dark 1 px over a 14 px O, the row between them 0.47).
 */
const SEPARATE = 0.6;
/** No column darker than this: no mark. */
const NONE_INK = 0.3;
/** A dot is at most this share of the letters' height wide and tall (measured on final14: 0.1-0.2). */
const DOT_MAX = 0.3;
/** Two dots' centres differ in height by at most this share of the letters' height. */
const DOTS_MAX_RISE = 0.2;
/** Two dots span (left edge of one to right edge of the other) at least this share of the height. */
const DOTS_MIN_SPAN = 0.2;
/**
 * The darkest column between two dots is at most this share of the fainter dot's darkness (under
 * RUN_INK anyway: the runs are split there). Blurred 0.7 px, 2-3 px dots 2-3 px apart keep gaps of
 * 0.3-0.4 against dots of 0.6-0.75 (drawn words, DejaVu and Liberation at 12-16 px capitals).
 */
const GAP_SHARE = 0.7;
/** Two dots' midpoint is at most this share of their glyph's width from its middle. */
const DOTS_OFF_CENTRE = 0.2;
/** The band looked at over a glyph is this share of the letters' height tall. */
const BAND = 0.5;
/** Under this letter height (px) dots are a pixel or less: the ink is not judged. */
export const DOTS_MIN_HEIGHT = 12;
/** Glyph ink and paper must differ by at least this many levels. */
const MIN_CONTRAST = 40;

/** One run of dark columns over a glyph: its columns, its dark rows, its darkest pixel (0-1). */
export interface InkRun { x0: number; x1: number; y0: number; y1: number; peak: number }

/** The reading of the ink over one glyph: what it shows, and its runs (page px). */
export interface OverReading { kind: OverInk; runs: InkRun[] }

/** The `q` quantile (0-1) of a list of levels. */
function quantile(v: number[], q: number): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))] : 0;
}

/**
 * What the ink just above glyph `b` shows, over letters `letterH` px high whose tops lie at `lineTop`
 * (the glyphs' median top near it). The band ends at `lineTop` and is BAND of the height tall; its
 * columns are the glyph's, 1 px wider each side; in each column only pixels at least 2 rows above the
 * glyph's top there count (the row over a letter is its anti-aliasing), and a run of dark columns
 * counts only where a lighter row parts it from the glyph (SEPARATE). 'unclear' when the band does not fit
 * the page, the contrast is under MIN_CONTRAST, the runs are faint, or they are neither one mark nor two dots.
 */
export function inkOver(g: Gray, b: Blob, lineTop: number, letterH: number): OverReading {
  const unclear: OverReading = { kind: 'unclear', runs: [] };
  if (letterH < DOTS_MIN_HEIGHT) return unclear;
  // The band ends at the line's top; a glyph's pixels more than a row above it are no letter's (a mark
  // joined to it by the threshold: final14 #49's RÖHRIG, dots 1 px over a 14 px O).
  const Y1 = lineTop - 1, Y0 = Math.max(0, lineTop - Math.ceil(BAND * letterH));
  const X0 = Math.max(0, b.x0 - 1), X1 = Math.min(g.width - 1, b.x1 + 1);
  if (Y1 - Y0 < 2) return unclear;
  const around: number[] = [];
  for (let y = Y0; y <= Y1; y++) for (let x = Math.max(0, X0 - 3); x <= Math.min(g.width - 1, X1 + 3); x++) around.push(g.data[y * g.width + x]);
  const paper = quantile(around, 0.9);
  const ink = quantile(b.px.map((p) => g.data[p]), 0.1);
  if (paper - ink < MIN_CONTRAST) return unclear;
  const level = (x: number, y: number): number => Math.min(1, Math.max(0, (paper - g.data[y * g.width + x]) / (paper - ink)));
  // The glyph's own top in each column: its pixels from a row over the line's top down. Only pixels at
  // least 2 rows above it count: the row over a letter is its anti-aliasing (or a tilted line's lean).
  const colTop = new Map<number, number>();
  for (const p of b.px) {
    const x = p % g.width, y = Math.floor(p / g.width);
    if (y >= lineTop - 1 && y < (colTop.get(x) ?? Infinity)) colTop.set(x, y);
  }
  const dark = (x: number, y: number): number => (y > (colTop.get(x) ?? Infinity) - 2 ? 0 : level(x, y));
  const col: number[] = [];
  for (let x = X0; x <= X1; x++) { let m = 0; for (let y = Y0; y <= Y1; y++) m = Math.max(m, dark(x, y)); col.push(m); }
  const runs: InkRun[] = [];
  for (let k = 0; k < col.length; k++) {
    if (col[k] < RUN_INK) continue;
    let e = k;
    while (e + 1 < col.length && col[e + 1] >= RUN_INK) e++;
    let y0 = Infinity, y1 = -Infinity;
    for (let x = X0 + k; x <= X0 + e; x++) for (let y = Y0; y <= Y1; y++) if (dark(x, y) >= RUN_INK) { y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    const peak = Math.max(...col.slice(k, e + 1));
    // A mark stands apart from its letter: in some column of the run, a pixel between its ink and the
    // glyph's top there (down to the line's top at most: a letter's counter under its top is paper and
    // says nothing) is at most SEPARATE of the run's darkness. Ink that darkens down into the glyph is
    // the letter's own edge: a serif or a round top the threshold left out of its blob, blurred.
    let valley = 1;
    for (let x = X0 + k; x <= X0 + e; x++) {
      let last = -1;
      for (let y = Y0; y <= Y1; y++) if (dark(x, y) >= RUN_INK) last = y;
      const under = Math.min(colTop.get(x) ?? lineTop + 1, lineTop + 1);
      if (last < 0) continue;
      let m = 1;
      for (let y = last + 1; y < under; y++) m = Math.min(m, level(x, y));
      valley = Math.min(valley, m);
    }
    // A run reaching the band's top goes on above it: the feet of the label line over the value, or
    // print, not a mark (final11 #56, low light: ELENI given an Ë from the label's feet before this).
    if (valley <= SEPARATE * peak && y0 > Y0) runs.push({ x0: X0 + k, x1: X0 + e, y0, y1, peak });
    k = e;
  }
  if (!runs.length) return { kind: Math.max(0, ...col) < NONE_INK ? 'none' : 'unclear', runs };
  if (runs.length === 1) return { kind: runs[0].peak >= MARK_INK ? 'one' : 'unclear', runs };
  if (runs.length !== 2 || runs.some((r) => r.peak < DOT_INK)) return { kind: 'unclear', runs };
  const [l, r] = runs;
  const small = (u: InkRun): boolean => u.x1 - u.x0 + 1 <= Math.max(2, DOT_MAX * letterH) && u.y1 - u.y0 + 1 <= Math.max(2, DOT_MAX * letterH);
  const rise = Math.abs((l.y0 + l.y1) / 2 - (r.y0 + r.y1) / 2);
  const gap = Math.max(...col.slice(l.x1 - X0 + 1, r.x0 - X0));
  const span = r.x1 - l.x0 + 1;
  // Two dots stand over their letter's middle, one each side of it.
  const mid = (l.x0 + r.x1) / 2, centre = (b.x0 + b.x1) / 2, wide = b.x1 - b.x0 + 1;
  const centred = Math.abs(mid - centre) <= DOTS_OFF_CENTRE * wide && l.x1 < centre && r.x0 > centre;
  const dots = centred && small(l) && small(r) && rise <= DOTS_MAX_RISE * letterH && gap <= GAP_SHARE * Math.min(l.peak, r.peak) && span >= DOTS_MIN_SPAN * letterH;
  return { kind: dots ? 'dots' : 'unclear', runs };
}

/** Capitals with two dots above, by base letter (the vowels and Y). */
export const DIAERESIS: Record<string, string> = { A: 'Ä', E: 'Ë', I: 'Ï', O: 'Ö', U: 'Ü', Y: 'Ÿ' };
/** The letters whose ink above is judged, by the base letter they stand for: a plain vowel, or one read with an acute, a grave or two dots. */
const JUDGED: Record<string, string> = Object.fromEntries([
  ...Object.keys(DIAERESIS).map((b) => [b, b]), ...Object.entries(DIAERESIS).map(([b, c]) => [c, b]),
  ['Á', 'A'], ['É', 'E'], ['Í', 'I'], ['Ó', 'O'], ['Ú', 'U'], ['À', 'A'], ['È', 'E'], ['Ì', 'I'], ['Ò', 'O'], ['Ù', 'U'],
]);
/** Capitals the model writes with an acute. */
const ACUTE_READ = /[ÁÉÍÓÚ]/;
/**
 * One run over a letter read with an acute is no acute when it is at least this share of the letters'
 * height wide and at least FLAT_MIN_ASPECT times as wide as tall: two dots run together into one blob
 * (bold or blurred type: final14 #4, #59 7-8 x 4 px, #74 6 x 2 px), or a roof or a wave.
 */
const FLAT_MIN_WIDTH = 0.35;
const FLAT_MIN_ASPECT = 1.7;
/** Capitals that never carry a mark above (consonants; Ç's mark is below, Ñ's above): ink over them is print or dirt. */
const BARE = /^[BCDFGHJKLMPQRSTVWXZÇ]$/;

/**
 * The letters of a capital word (a trailing comma left out) whose glyph carries two dots (inkOver), by
 * index, and whether its ink leaves the word in doubt: two strong pieces of ink at one height over a
 * vowel that are not clearly two dots, two dots over a word whose glyphs do not pair one to one with its
 * letters, or two dots over a word with ink over a consonant too (print or dirt: then no letter is
 * written, only the doubt). Vowels read with a circumflex or a tilde are not judged (glyph-accent.ts
 * reads those; the model writes them). Empty and no doubt for words of other characters, no judged
 * vowel, or type under DOTS_MIN_HEIGHT.
 */
export function dotsReading(g: Gray, w: { text: string; x0: number; y0: number; x1: number; y1: number }, glyphsOf: (g: Gray, w: { x0: number; y0: number; x1: number; y1: number }) => Blob[]): { letters: Map<number, string>; doubt: boolean } {
  const letters = new Map<number, string>();
  const chars = [...w.text.replace(/,$/, '')];
  if (chars.some((c) => !/[A-ZÀ-ÖØ-Þ]/.test(c)) || !chars.some((c) => JUDGED[c])) return { letters, doubt: false };
  const glyphs = glyphsOf(g, w);
  if (!glyphs.length) return { letters, doubt: false };
  const hs = glyphs.map((b) => b.y1 - b.y0 + 1).sort((a, b) => a - b), letterH = hs[Math.floor(hs.length / 2)];
  if (letterH < DOTS_MIN_HEIGHT) return { letters, doubt: false };
  const lineTop = (i: number): number => {
    const near = glyphs.slice(Math.max(0, i - 2), i + 3).map((b) => b.y0).sort((a, b) => a - b);
    return near[Math.floor(near.length / 2)];
  };
  const readings = glyphs.map((b, i) => inkOver(g, b, lineTop(i), letterH));
  // One run wider and flatter than any acute over a letter read with one: two dots run together (bold or
  // blurred type), or a roof or a wave; never the acute read.
  const flat = (r: OverReading, i: number): boolean => r.kind === 'one' && r.runs[0].x1 - r.runs[0].x0 + 1 >= FLAT_MIN_WIDTH * letterH
    && r.runs[0].x1 - r.runs[0].x0 + 1 >= FLAT_MIN_ASPECT * (r.runs[0].y1 - r.runs[0].y0 + 1)
    && Math.abs(markSlant(g, r.runs[0], lineTop(i))) < SLANT_FLAT;
  // Glyphs paired with letters (glyph-marks.ts letterSpans: two capitals touching, "KA" in DejaVu Sans,
  // are one glyph twice as wide holding two letters, final18's ÖZKAN read "ÓZKAN"): a letter with a glyph
  // of its own is judged; a glyph of two letters is not.
  const spans = glyphs.length === chars.length ? undefined : letterSpans(glyphs, chars.length);
  const acutesOnly = chars.some((c) => ACUTE_READ.test(c)) && !chars.some((c) => /[ÂÃÊÔÕ]/.test(c));
  const shared = (r: OverReading, i: number): boolean => r.kind === 'dots' || (acutesOnly && flat(r, i));
  if (glyphs.length !== chars.length && !spans) {
    // Unpaired glyphs (letters run together): a flat run over any glyph of a word whose only marks read are acutes.
    return { letters, doubt: readings.some(shared) };
  }
  // Paired by width, a word keeps the doubt it had unpaired (two dots or a flat run over any of its glyphs): the
  // pairing is a guess, and such ink over a letter read plain is a mark the reading lacks (final16 #69: KOLÁŘ's
  // caron over the R, read "KOLÁR" at 0.911 once the R was judged alone; 0.718 unpaired).
  let doubt = spans ? readings.some(shared) : false, stray = false;
  chars.forEach((c, i) => {
    const k = spans ? spans[i].glyph : i;
    if (spans && !spans[i].whole) return;
    const r = readings[k], b = glyphs[k];
    if (BARE.test(c)) {
      stray ||= r.runs.some((u) => u.peak >= MARK_INK && b.x0 <= (u.x0 + u.x1) / 2 && (u.x0 + u.x1) / 2 <= b.x1);
      return;
    }
    const base = JUDGED[c];
    if (!base) return;
    if (r.kind === 'dots') { if (DIAERESIS[base] !== c) letters.set(i, DIAERESIS[base]); return; }
    if (ACUTE_READ.test(c) && flat(r, k)) { doubt = true; return; }
    // Two pieces of ink at one height that are not clearly two dots (one faint, or too close): the
    // ink cannot tell two dots from a broken mark, and the word is not left sure.
    if (r.kind === 'unclear' && r.runs.length === 2 && r.runs.every((u) => u.peak >= DOT_INK)
      && Math.abs((r.runs[0].y0 + r.runs[0].y1) / 2 - (r.runs[1].y0 + r.runs[1].y1) / 2) <= DOTS_MAX_RISE * letterH) doubt = true;
  });
  if (stray) return { letters: new Map(), doubt: doubt || letters.size > 0 };
  return { letters, doubt };
}
