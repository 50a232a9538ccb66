/**
 * A name word printed "-AO" without the tilde, told by its ink (issue #17, thirty-fourth round).
 * orthography.ts NASAL_AO writes ÃO for a name word read ending in AO: the recogniser drops tildes far
 * more often than it invents them, and Portuguese spelling writes the final nasal diphthong "ão". But
 * registries keep some surnames without it (CALHAO, an old family of Cuiabá: final32 read it "CALHÃO"
 * six times, a tilde the card never printed), and the reader must give what the card prints. Where the
 * ink above the A is blank, there is no tilde to have lost: the word is flagged (OcrWord.plainInk) and
 * name-spelling.ts leaves it as read, the name capped like a declined restoration (a lost tilde fainter
 * than the band's noise cannot be ruled out entirely).
 *
 * The test, on the gray page: the word read in plain capitals ending in AO or AOS; its glyphs pair one to
 * one with its letters (glyph-marks.ts letterSpans, each whole); no blob of ink above its letters
 * (glyph-accent.ts markInk: a tilde the recogniser lost leaves one there, and glyph-accent.ts reads it);
 * and the band where a mark stands over the A (glyph-faint-mark.ts's band: from BAND_REACH of the capitals'
 * height above their top down to BAND_FOOT px over it, over the A's columns and one on either side) holds
 * no pixel FAINT_INK levels under the band's paper, nor any column darker than CLEAN_BAND (the faint
 * tilde of a low-light or blurred page that the threshold lost: glyph-faint-mark.ts). Pure functions on a
 * gray page.
 */
import { markInk } from './glyph-accent.js';
import { BAND_FOOT, BAND_REACH, CLEAN_BAND } from './glyph-faint-mark.js';
import { letterSpans } from './glyph-marks.js';
import type { Gray } from './glyph-i.js';
import type { OcrWord } from './words.js';

/**
 * Whether `w` (plain capitals ending in AO or AOS, an optional trailing comma) shows no ink over its A
 * (module comment); false when that cannot be told (glyphs that do not pair with the letters, no room
 * above the word).
 */
export function blankOverAo(g: Gray, w: OcrWord): boolean {
  const text = w.text.replace(/,$/, '');
  const m = /^[A-Z]+A(O|OS)$/.exec(text);
  if (!m || text.length < 3) return false;
  const ink = markInk(g, w);
  if (!ink || ink.marks.length) return false;
  const spans = letterSpans(ink.glyphs, text.length);
  if (!spans || spans.some((s) => !s.whole)) return false;
  const a = spans[text.length - m[1].length - 1];
  const y0 = Math.max(0, Math.round(ink.top - BAND_REACH * ink.letterH)), y1 = ink.top - BAND_FOOT;
  const x0 = Math.max(0, a.x0 - 1), x1 = Math.min(g.width - 1, a.x1 + 1);
  if (y1 - y0 < 2) return false;
  // The band's paper: its 90th percentile over the whole word's width (the A's columns alone may be all mark).
  const levels: number[] = [];
  for (let y = y0; y <= y1; y++) for (let x = Math.max(0, spans[0].x0 - 1); x <= Math.min(g.width - 1, spans[spans.length - 1].x1 + 1); x++) levels.push(g.data[y * g.width + x]);
  levels.sort((p, q) => p - q);
  const paper = levels[Math.floor(0.9 * (levels.length - 1))];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (paper - g.data[y * g.width + x] > CLEAN_BAND) return false;
  return true;
}

/** Words (among those `judged` accepts) that blankOverAo finds with no tilde over their A, flagged `plainInk`; every other word as it was. */
export function flagPlainAo(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => (judged(w) && !w.plainInk && blankOverAo(g, w) ? { ...w, plainInk: true } : w));
}
