/**
 * The tilde over an N that the recogniser read plain (issue #17, thirteenth round). The Portuguese model
 * has no Ñ: a Spanish name printed with one (ACUÑA, MUÑOZ, NÚÑEZ, IBÁÑEZ; final12's names) comes back with
 * a plain N, read sure (NÚNEZ at 0.927, ACUNA at 0.913: 10 of final12's 17 sure-wrong values). glyph-accent.ts
 * judges the marks over capitals read with one; this looks over the N's read without: the word's glyphs
 * (glyph-i.ts wordGlyphs) are paired with its letters when there are as many of each, and a blob of ink
 * just above an N's glyph (within MARK_GAP of the letters' top) whose shape is named a tilde (glyph-accent.ts
 * markShape: a wave, wider than tall, of a mark's size over type at least 18 px high) makes it Ñ.
 * Ñ is no Portuguese letter, so on a Brazilian card it is rare and the ink's word alone does not make it
 * sure: the word's confidence is kept at most TILDE_N_CAP, so its value falls under the low-confidence line. Pure functions on
 * a gray page.
 */
import { markShape } from './glyph-accent.js';
import { blobs, otsu, wordGlyphs, type Gray } from './glyph-i.js';
import type { OcrWord } from './words.js';

/** How far above its letter (x the letter's height) a mark is looked for (as glyph-accent.ts). */
const MARK_REACH = 0.7;
/** A mark's foot is at most this far (x the letter's height) above its letter's top (as glyph-accent.ts). */
const MARK_GAP = 0.4;
/**
 * A word mended to Ñ keeps at most this confidence. A value's confidence is about the mean of its words'
 * and its weakest's (doubts.ts valueConfidence), so with every other word at 1 the name stays under
 * (1 + 0.6) / 2 = 0.8, the low line; 0.75 left final12 #0's "NÓÑEZ" (its Ú read Ó) at 0.8.
 */
export const TILDE_N_CAP = 0.6;

/**
 * Indices into `w.text` of the N's with a tilde above their glyph, in a word of capitals (a trailing comma
 * left out) whose glyphs pair one to one with its letters; [] when they do not (touching letters) or no N
 * carries one.
 */
export function tildesOverN(g: Gray, w: OcrWord): number[] {
  const chars = [...w.text.replace(/,$/, '')];
  if (!chars.includes('N') || chars.some((c) => !/[A-ZÀ-ÖØ-Þ]/.test(c))) return [];
  const glyphs = wordGlyphs(g, w);
  if (glyphs.length !== chars.length) return [];
  const heights = glyphs.map((b) => b.y1 - b.y0 + 1).sort((a, b) => a - b);
  const letterH = heights[Math.floor(heights.length / 2)];
  const top = Math.min(...glyphs.map((b) => b.y0));
  const x0 = glyphs[0].x0, x1 = glyphs[glyphs.length - 1].x1;
  const y0 = Math.max(0, Math.floor(top - MARK_REACH * letterH)), y1 = top - 1;
  if (y1 - y0 < 2) return [];
  const t = otsu(g, x0, y0, x1, Math.max(...glyphs.map((b) => b.y1)));
  const out: number[] = [];
  for (const m of blobs(g, x0, y0, x1, y1, t)) {
    if (top - m.y1 > MARK_GAP * letterH || m.px.length < 4) continue;
    const centre = (m.x0 + m.x1) / 2;
    const i = glyphs.findIndex((b) => b.x0 <= centre && centre <= b.x1);
    if (i >= 0 && chars[i] === 'N' && markShape(m.px, g.width, letterH).mark === 'tilde') out.push(i);
  }
  return out;
}

/**
 * Words with each N whose ink carries a tilde (tildesOverN) made Ñ, their confidence kept at most
 * TILDE_N_CAP, among the words `judged` accepts (the caller's: value-size words); every other word as it
 * was. Nothing is read again: only the page's pixels over words with an N are looked at.
 */
export function mendTildeN(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!w.text.includes('N') || !judged(w)) return w;
    const at = tildesOverN(g, w);
    if (!at.length) return w;
    const chars = [...w.text];
    for (const i of at) chars[i] = 'Ñ';
    return { ...w, text: chars.join(''), conf: Math.min(w.conf, TILDE_N_CAP) };
  });
}
