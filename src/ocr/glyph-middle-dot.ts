/**
 * Catalan's middle dot (the ela geminada, L·L) told from a hyphen and from a word gap by its ink (issue #17,
 * twenty-fifth round). The Portuguese model has no "·": it reads the dot as a hyphen ("PETRONEL-LA" at 0.904,
 * "MARCEL-LA" 0.83, "ESTEL-LA" 0.848: final23 #44, #75, #80) or as a gap ("MARCEL LI" 0.818, #29), sure of
 * it. The two are told by shape, whatever the face: a hyphen is a bar, clearly wider than tall; a middle
 * dot is a small blob about as wide as tall, at mid-height between two letters. Written from the ink, "·"
 * is a character the recogniser cannot give, so the word keeps at most INK_LETTER_CAP (the value falls
 * under the low line), like every letter the ink readers write. Only between two L's for a gap (the one
 * place a Latin name carries the dot; a speck in a word gap elsewhere is the page's noise); a hyphen read
 * between any two letters is looked at. Pure functions on a gray page.
 */
import { INK_LETTER_CAP } from './glyph-accent.js';
import { blobs, otsu, wordGlyphs, type Blob, type Gray } from './glyph-i.js';
import type { OcrWord } from './words.js';

/** The middle dot (U+00B7). */
export const MIDDLE_DOT = '\u00b7';
/** A middle dot's box is at most this share of the letters' height wide and tall (drawn: 0.1-0.25). */
const DOT_MAX_SIZE = 0.32;
/** Its centre lies within this share of the letters' height of their middle (a period sits on the line). */
const DOT_MAX_OFF_MIDDLE = 0.22;

/**
 * The short blobs at mid-height in a box of a line of capitals from row `top` to `bottom`, left to right:
 * components of the box's ink (its own Otsu split) of 3 px or more, at most 0.45 of the letters' height
 * tall and 0.6 wide, whose middle lies within DOT_MAX_OFF_MIDDLE of the letters' middle height and whose
 * foot stands above the letters' foot (a hyphen, a middle dot; not a letter, a mark above, a comma or a
 * period). Found over the whole box, so letters the threshold runs together do not matter.
 */
export function midBlobs(g: Gray, box: Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'>, top: number, bottom: number): Blob[] {
  const x0 = Math.max(0, Math.floor(box.x0)), x1 = Math.min(g.width - 1, Math.ceil(box.x1));
  const y0 = Math.max(0, Math.min(Math.floor(box.y0), top)), y1 = Math.min(g.height - 1, Math.max(Math.ceil(box.y1), bottom));
  if (x1 - x0 < 3 || y1 - y0 < 6) return [];
  const h = bottom - top + 1, t = otsu(g, x0, y0, x1, y1);
  return blobs(g, x0, y0, x1, y1, t).filter((b) => b.px.length >= 3 && b.y1 - b.y0 + 1 <= 0.45 * h && b.x1 - b.x0 + 1 <= 0.6 * h
    && Math.abs((b.y0 + b.y1) / 2 - (top + bottom) / 2) <= DOT_MAX_OFF_MIDDLE * h && b.y1 < bottom - 0.1 * h && b.y0 > top + 0.1 * h).sort((a, b) => a.x0 - b.x0);
}

/**
 * How much wider than tall a blob's ink is by its gray levels: the root of the ratio of the gray-weighted
 * variances of its pixels' columns and rows over its box grown 2 px (each pixel weighed by how much darker
 * than the box's lightest level it is, less 20), so a blur or a threshold's stray pixel does not change it
 * much. Drawn in the seven card faces at 20 and 28 px, clean and blurred: middle dots 0.72-1.17, hyphens
 * 1.49-3.51.
 */
export function spread(g: Gray, b: Pick<Blob, 'x0' | 'y0' | 'x1' | 'y1'>): number {
  const X0 = Math.max(0, b.x0 - 2), X1 = Math.min(g.width - 1, b.x1 + 2), Y0 = Math.max(0, b.y0 - 2), Y1 = Math.min(g.height - 1, b.y1 + 2);
  let paper = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) paper = Math.max(paper, g.data[y * g.width + x]);
  let sw = 0, sx = 0, sy = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) { const v = Math.max(0, paper - g.data[y * g.width + x] - 20); sw += v; sx += v * x; sy += v * y; }
  if (!sw) return 0;
  const mx = sx / sw, my = sy / sw;
  let vx = 0, vy = 0;
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) { const v = Math.max(0, paper - g.data[y * g.width + x] - 20); vx += v * (x - mx) ** 2; vy += v * (y - my) ** 2; }
  return vy > 0 ? Math.sqrt(vx / vy) : 0;
}

/** A middle dot's spread lies in this range (drawn: 0.72-1.17; hyphens 1.49 or more). */
const DOT_MIN_SPREAD = 0.65;
const DOT_MAX_SPREAD = 1.3;

/**
 * What a short blob at mid-height (midBlobs) on a line of capitals `h` px high on page `g` is: 'dot' when
 * small (DOT_MAX_SIZE of the height) and as wide as tall by its gray levels (spread DOT_MIN_SPREAD to
 * DOT_MAX_SPREAD), 'bar' (a hyphen) otherwise.
 */
export function midInk(g: Gray, b: Blob, h: number): 'dot' | 'bar' {
  const bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1, r = spread(g, b);
  return bw <= DOT_MAX_SIZE * h && bh <= DOT_MAX_SIZE * h && r >= DOT_MIN_SPREAD && r <= DOT_MAX_SPREAD ? 'dot' : 'bar';
}

/** A line's top and bottom from its glyphs (their median top and foot). */
function lineOf(glyphs: Blob[]): [number, number] {
  const med = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  return [med(glyphs.map((b) => b.y0)), med(glyphs.map((b) => b.y1))];
}

/**
 * A word of capitals read with a hyphen between two letters (PETRONEL-LA) with each such hyphen whose ink
 * is a middle dot (midInk 'dot') written "·", its confidence kept at most INK_LETTER_CAP; the word itself
 * where its letters' glyphs do not pair one to one with its letters or no hyphen's ink is a dot.
 */
function dottedHyphens(g: Gray, w: OcrWord): OcrWord {
  const chars = [...w.text];
  if (!/\p{Lu}-\p{Lu}/u.test(w.text) || chars.some((c) => !/[\p{Lu}-]/u.test(c))) return w;
  const glyphs = wordGlyphs(g, w);
  if (glyphs.length < 2) return w;
  const [top, bottom] = lineOf(glyphs);
  const mids = midBlobs(g, w, top, bottom);
  // One short blob at mid-height per hyphen read, in order; else the word is left as read.
  if (mids.length !== chars.filter((c) => c === '-').length) return w;
  let k = 0, changed = false;
  const out = chars.map((c, i) => {
    if (c !== '-') return c;
    const m = mids[k++];
    const dot = i > 0 && i < chars.length - 1 && chars[i - 1] !== '-' && chars[i + 1] !== '-' && midInk(g, m, bottom - top + 1) === 'dot';
    changed ||= dot;
    return dot ? MIDDLE_DOT : c;
  });
  return changed ? { ...w, text: out.join(''), conf: Math.min(w.conf, INK_LETTER_CAP) } : w;
}

/**
 * Two words of capitals on one line, the first ending and the second starting with an L (MARCEL LA), with
 * a middle dot's ink between the L's (midInk 'dot'): one word "L·L", its box the two's, its confidence the
 * lower of theirs kept at most INK_LETTER_CAP; undefined otherwise.
 */
function dottedGap(g: Gray, a: OcrWord, b: OcrWord): OcrWord | undefined {
  const h = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  if (!/^\p{Lu}+L$/u.test(a.text) || !/^L\p{Lu}*,?$/u.test(b.text) || b.x0 <= a.x1 || b.x0 - a.x1 > 1.2 * h) return undefined;
  if (Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) < 0.5 * h) return undefined;
  const ga = wordGlyphs(g, a), gb = wordGlyphs(g, b);
  if (!ga.length || !gb.length) return undefined;
  const [top, bottom] = lineOf([...ga, ...gb]);
  const last = ga[ga.length - 1], first = gb[0];
  const box = { x0: (last.x0 + last.x1) / 2, y0: Math.min(a.y0, b.y0), x1: first.x0 + 0.2 * h, y1: Math.max(a.y1, b.y1) };
  const mids = midBlobs(g, box, top, bottom);
  if (mids.length !== 1 || midInk(g, mids[0], bottom - top + 1) !== 'dot') return undefined;
  return {
    ...a, text: a.text + MIDDLE_DOT + b.text, x0: a.x0, y0: Math.min(a.y0, b.y0), x1: b.x1, y1: Math.max(a.y1, b.y1),
    conf: Math.min(a.conf, b.conf, INK_LETTER_CAP),
  };
}

/**
 * Words with Catalan's middle dot read from the ink (this file's head): a hyphen between two letters whose
 * ink is a dot written "·" (dottedHyphens), and two words on one line split between two L's over a dot
 * joined as "L·L" (dottedGap), among the words `judged` accepts (the caller's: value-size words), their
 * confidence kept at most INK_LETTER_CAP; every other word as it was, in order. Nothing is read again.
 */
export function mendMiddleDots(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  const out: OcrWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i], next = words[i + 1];
    const joined = next && judged(w) && judged(next) ? dottedGap(g, w, next) : undefined;
    if (joined) { out.push(joined); i++; continue; }
    out.push(judged(w) ? dottedHyphens(g, w) : w);
  }
  return out;
}
