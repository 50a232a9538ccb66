/**
 * A letter's body that the letter read does not account for (issue #17, twenty-sixth round). Hausa
 * names carry the hooked capitals Ɓ Ɗ Ƙ (ƁALA, ƊANJUMA, ƘWANKWASO), Sami ones the eng Ŋ and the barred Ŧ;
 * none of them is a Latin letter with a mark over or under it (glyph-accent, glyph-foreign, glyph-below)
 * but a letter drawn with more ink, and the Portuguese model reads the nearest Latin letter, sure of it
 * (final24: "DANJUMA" for ƊANJUMA, "KWANKWASO" for ƘWANKWASO at 0.8-0.92: 57 sure-wrong values; ŊUNNI
 * read "NUNNI", ŦANA "TANA"). What the ink shows, in the faces the cards are printed in
 * (test/ocr/drawn-word.ts CARD_FACES, drawn at 20-28 px, clean and blurred):
 * - Ɓ, Ɗ: the stem's top bends over to the left, a hook standing out left of the stem at the top of the
 *   letter and nowhere else (hookLeft). A serif face's B and D stand out as far at the foot as at the top
 *   (their serifs are drawn alike at both ends), so the top's reach is measured against the foot's;
 * - Ƙ: a hook at the top either on the arm's tip (DejaVu: the tip curls over and down on the right) or on
 *   the stem's top (Liberation: it curls over to the right), both a stroke in the top rows that a K lacks:
 *   rows there crossing three strokes where a K's cross two (the stem and the arm), or the stem's top
 *   standing out to the right further than to the left (kHook). DejaVu Serif and DejaVu Sans Mono draw Ƙ as
 *   a plain K: nothing tells them, and such a name keeps its reading;
 * - Ŋ: in the DejaVu faces an n-shaped capital whose right leg runs on under the baseline and turns back:
 *   ink under the word's baseline on a letter read N (engTail);
 * - Ŧ: a T with a bar across its stem at mid-height: ink on both sides of the stem in one short band of
 *   rows (barThroughT), where a T's stem runs bare from its bar to its foot (a serif at the foot only);
 *   over a glyph read T, or F (the bar taken for F's middle arm; an F's stem is its left edge).
 * Where the hook or bar is clear the letter is written (a letter the model cannot write: the word kept at
 * most glyph-accent.ts INK_LETTER_CAP); where the ink only half shows it, the word is doubted (at most
 * INK_LETTER_CAP, no letter given). A glyph that a mark above or ink from outside joins (its top above the
 * word's cap line) is not judged: the hooks are drawn within the capitals' height. Pure functions on a
 * gray page, called by glyph-below.ts mendInkMarks after glyph-own.ts.
 */
import { INK_LETTER_CAP } from './glyph-accent.js';
import { maskOf, otsu, wordGlyphs, type Blob, type Gray, type Mask } from './glyph-i.js';
import { JUDGED_LETTER, letterSpans } from './glyph-marks.js';
import { median, type OcrWord } from './words.js';

/** Capitals under this height (px) are not looked at: a hook is a pixel or two there. */
export const BODY_MIN_LETTER_HEIGHT = 14;
/**
 * Fewest letters of a word judged: shorter ones are the card's codes (a category B, D or AD beside its
 * box's rules, a state TO) and name particles (DA, DE, DO), where a rule or a speck touching a letter's
 * top would make a wrong code (glyph-below.ts BELOW_MIN_LETTERS likewise).
 */
export const BODY_MIN_LETTERS = 3;

/**
 * A mask set upright: each row shifted by the lean of the left edge of its rows between `from` and `to`
 * (shares of the height; least squares), so an italic's stem stands straight (the cards' italic faces
 * lean 10-12 degrees: a K's top would stand right of its stem's middle by a pixel or two).
 */
export function upright(mk: Mask, from: number, to: number): Mask & { leaned?: boolean } {
  const { w, h, m } = mk;
  const ys: number[] = [], xs: number[] = [];
  for (let y = Math.round(from * h); y <= Math.min(h - 1, Math.round(to * h)); y++) {
    let x = 0; while (x < w && !m[y * w + x]) x++;
    if (x < w) { ys.push(y); xs.push(x); }
  }
  if (ys.length < 3) return mk;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length, mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  let sxy = 0, syy = 0;
  for (let k = 0; k < ys.length; k++) { sxy += (ys[k] - my) * (xs[k] - mx); syy += (ys[k] - my) ** 2; }
  const lean = syy ? sxy / syy : 0;
  // Only a lean an italic has (under 0.3 px a row): a hook does not tilt the fit that far.
  if (Math.abs(lean) < 0.05 || Math.abs(lean) > 0.3) return mk;
  const shift = (y: number): number => Math.round(-lean * (y - my));
  const pad = Math.ceil(Math.abs(lean) * h) + 1, W = w + 2 * pad, out = new Uint8Array(W * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (m[y * w + x]) out[y * W + x + pad + shift(y)] = 1;
  // Trim the empty columns on the left so that column 0 holds ink again.
  let x0 = W;
  for (let y = 0; y < h; y++) for (let x = 0; x < W; x++) if (out[y * W + x]) { x0 = Math.min(x0, x); break; }
  const w2 = W - x0, m2 = new Uint8Array(w2 * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w2; x++) m2[y * w2 + x] = out[y * W + x + x0];
  return { w: w2, h, m: m2, leaned: true };
}

/** The runs of ink of a mask's row `y`: [first, last] columns, left to right. */
export function runsOf({ w, m }: Mask, y: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let x = 0; x < w; x++) {
    if (!m[y * w + x]) continue;
    const last = out[out.length - 1];
    if (last && last[1] === x - 1) last[1] = x; else out.push([x, x]);
  }
  return out;
}


/** A hook stands out left of the stem at least this share of the letter's height (and 2 px) more at the top than at the foot. */
export const HOOK_MIN_REACH = 0.14;
/** Between HOOK_HALF_REACH and HOOK_MIN_REACH the ink only doubts its word. */
export const HOOK_HALF_REACH = 0.09;

/**
 * How far the top of a B or D stands out left of its stem more than its foot does, as a share of its
 * height: the stem's left edge is the median of the rows' leftmost ink between 0.35 and 0.85 of the height
 * (under the hook, over the foot's serif); the top's reach is how far the rows of its top 0.3 stand left of
 * it (the second furthest row: one row's speck is no hook), the foot's the furthest of its last 0.2. A serif face's B stands out as far at
 * both ends (0); Ɓ and Ɗ's hook 0.2-0.4 of the height at the top only.
 */
export function hookLeft(g: Gray, b: Blob): number {
  const mk = upright(maskOf(g, b), 0.35, 0.85), { w, h, m } = mk;
  if (h < 8 || w < 4) return 0;
  const left = Array.from({ length: h }, (_, y) => { let x = 0; while (x < w && !m[y * w + x]) x++; return x; });
  const stem = median(left.slice(Math.round(0.35 * h), Math.round(0.85 * h) + 1));
  // The second furthest row: a hook's curl spans rows, a speck of a dark page's grain touching the top one.
  const reaches = (from: number, to: number): number[] => [0, 0, ...left.slice(from, to).filter((x) => x < w).map((x) => stem - x)].sort((a, c) => c - a);
  return (reaches(0, Math.round(0.3 * h))[1] - reaches(Math.round(0.8 * h), h)[0]) / h;
}

/**
 * A K's rows in its top third crossing three strokes: at least this many rows (and this share of the
 * height) hold three runs of ink where a K's hold two (stem, arm).
 */
export const K_HOOK_ROWS = 2;
/** The stem's top stands out right of the stem at least this share of the height (and K_CURL_MIN_PX) more than left... */
export const K_STEM_CURL = 0.12;
/**
 * ...and at least this many pixels; a pixel less only doubts the word. Measured (the cards' seven faces
 * at 20-28 px, clean and blurred 0.8 px at JPEG 40, upright and italic): Liberation's Ƙ 2-7 px, K 0-1 px
 * upright and 0-2 px italic (a leaning stem's rows step by a pixel).
 */
export const K_CURL_MIN_PX = 3;

/**
 * What the top of a glyph read K shows: 'hook' where rows of its top third cross a third stroke (the arm's
 * tip curled over, or the stem's top curled over to the right: K_HOOK_ROWS rows or more with three runs
 * of ink, none of them under 1 px of paper apart) or where the stem's top run stands out to the right
 * K_STEM_CURL of the height (and K_CURL_MIN_PX) further than to the left (Liberation's Ƙ: the stem's top
 * bent over to the right, a K's serif stands out alike on both sides); 'doubt' where one row only shows
 * three runs, or (upright type) the stem's top stands out a pixel less; undefined for a K. The glyph is set upright first
 * (an italic's lean taken out).
 */
export function kHook(g: Gray, b: Blob): 'hook' | 'doubt' | undefined {
  const mk = upright(maskOf(g, b), 0.15, 0.85), { w, h } = mk;
  if (h < 8 || w < 5) return undefined;
  const top = Math.round(0.35 * h);
  let three = 0;
  for (let y = 0; y < top; y++) if (runsOf(mk, y).length >= 3) three++;
  // The stem: the first run of the rows between 0.15 and 0.35 of the height (over the arm's join).
  // Its outer edges there (the leftmost start and rightmost end: a leaning stem's rows step by a pixel).
  const firsts = Array.from({ length: Math.round(0.3 * h) - Math.round(0.15 * h) + 1 }, (_, k) => runsOf(mk, Math.round(0.15 * h) + k)[0]).filter((r): r is [number, number] => !!r);
  if (!firsts.length) return undefined;
  const sl = Math.min(...firsts.map((r) => r[0])), sr = Math.max(...firsts.map((r) => r[1]));
  // The stem's top: the run over the stem's columns in each of the top rows (0.12 of the height).
  let curl = 0;
  for (let y = 0; y < Math.max(2, Math.round(0.12 * h)); y++) {
    const r = runsOf(mk, y).find(([a, c]) => a <= sr && c >= sl);
    if (r) curl = Math.max(curl, (r[1] - sr) - (sl - r[0]));
  }
  if (three >= K_HOOK_ROWS || curl >= Math.max(K_CURL_MIN_PX, K_STEM_CURL * h)) return 'hook';
  // A pixel under K_CURL_MIN_PX doubts only an upright glyph: an italic's rows, set upright, step by one.
  return three === 1 || (curl >= K_CURL_MIN_PX - 1 && !mk.leaned) ? 'doubt' : undefined;
}

/** An eng's tail reaches at least this share of the letters' height under their baseline... */
export const TAIL_MIN_DEPTH = 0.2;
/** ...a tail under TAIL_MIN_DEPTH but at least this deep only doubts the word. */
export const TAIL_HALF_DEPTH = 0.12;

/** An eng's tail hangs from its right leg: the ink under the baseline is centred at least this share of the glyph's width from its left. */
export const TAIL_RIGHT = 0.55;

/**
 * How far (share of `letterH`) a glyph's ink runs under the word's baseline `base` (the row of the
 * letters' feet); 0 when it does not.
 */
export function tailDepth(g: Gray, b: Blob, base: number, letterH: number): number {
  if (b.y1 <= base) return 0;
  // The tail hangs from the right leg: the ink under the baseline centred in the glyph's right part (a
  // comma or cedilla below, Ņ's, hangs from the middle: glyph-below.ts's).
  let n = 0, sx = 0;
  for (const p of b.px) if (Math.floor(p / g.width) > base) { n++; sx += p % g.width; }
  const w = b.x1 - b.x0 + 1;
  return n && (sx / n - b.x0) / w >= TAIL_RIGHT ? (b.y1 - base) / letterH : 0;
}

/**
 * The shape of a glyph read N: `top`, the share of its columns holding ink in its top 0.2 of rows (an
 * arch's: all; an N's: its stem and diagonal's start and its right stem, with paper between), and `cross`,
 * the share of its rows between 0.3 and 0.7 of the height crossing three strokes (an N's diagonal between
 * its stems; an arch's legs are two). Measured (the seven card faces at 20-28 px, clean and blurred 0.8
 * px at JPEG 40): Ŋ upright top 0.86-1.00, italic 0.77-0.92, cross 0 always; N upright top 0.45-0.78,
 * italic 0.38-0.71, cross mostly 0.4-1.0 (0.0-0.2 in a blurred bold condensed face). Not set upright: an
 * eng's tail, under the left stem's rows, would be taken for a lean.
 */
export function nShape(g: Gray, b: Blob): { top: number; cross: number } {
  const mk = maskOf(g, b), { w, h, m } = mk;
  let cols = 0;
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < Math.max(2, Math.round(0.2 * h)); y++) if (m[y * w + x]) { cols++; break; }
  }
  let rows = 0, three = 0;
  for (let y = Math.round(0.3 * h); y <= Math.round(0.7 * h); y++) { rows++; if (runsOf(mk, y).length >= 3) three++; }
  return { top: cols / w, cross: rows ? three / rows : 0 };
}

/** An arch's top holds ink over at least this share of the glyph's columns... */
export const ARCH_MIN_TOP = 0.85;
/** ...and at most this share of its middle rows cross three strokes (an N's most of them). */
export const ARCH_MAX_CROSS = 0.2;

/** A bar through a T's stem stands out at least this share of the height (and 2 px) each side of it. */
export const T_BAR_REACH = 0.1;

/**
 * Whether a glyph read T has a bar across its stem (Ŧ): the stem is the median run of the rows between
 * 0.25 and 0.9 of the height; a band of rows between 0.3 and 0.75, at most 0.25 of the height thick, has
 * ink at least max(2 px, T_BAR_REACH of the height) out on both sides of the stem, and the rows 0.15 of
 * the height above and below the band do not (a T's stem runs bare from its bar to its foot).
 */
export function barThroughT(g: Gray, b: Blob): boolean {
  const mk = maskOf(g, b), { h } = mk;
  if (h < 8) return false;
  const rows = Array.from({ length: h }, (_, y) => runsOf(mk, y));
  // The stem: in each row the run nearest the glyph's middle.
  const mid = (mk.w - 1) / 2;
  const stemRun = (y: number): [number, number] | undefined => rows[y].slice().sort((a, c) => Math.abs((a[0] + a[1]) / 2 - mid) - Math.abs((c[0] + c[1]) / 2 - mid))[0];
  const body = Array.from({ length: Math.round(0.9 * h) - Math.round(0.25 * h) + 1 }, (_, k) => stemRun(Math.round(0.25 * h) + k)).filter((r): r is [number, number] => !!r);
  if (!body.length) return false;
  const sl = median(body.map((r) => r[0])), sr = median(body.map((r) => r[1]));
  const reach = Math.max(2, T_BAR_REACH * h);
  const out = (y: number): boolean => rows[y].some(([a]) => a <= sl - reach) && rows[y].some(([, c]) => c >= sr + reach);
  const band: number[] = [];
  for (let y = Math.round(0.3 * h); y <= Math.round(0.75 * h); y++) if (out(y)) band.push(y);
  if (!band.length || band[band.length - 1] - band[0] + 1 > 0.25 * h) return false;
  const above = band[0] - Math.round(0.15 * h), below = band[band.length - 1] + Math.round(0.15 * h);
  return above >= 0 && below < h && !out(above) && !out(below);
}

/** The letters drawn with more body than their Latin twin, by the letter read. */
const BODY_LETTER: Record<string, string> = { B: 'Ɓ', D: 'Ɗ', K: 'Ƙ', N: 'Ŋ', T: 'Ŧ', F: 'Ŧ' };

/**
 * What one glyph read as `c` shows, on a line whose capitals are `letterH` px high with their feet at
 * row `base`: the letter with more body (BODY_LETTER), a doubt, or nothing.
 */
export function bodyLetter(g: Gray, b: Blob, c: string, base: number, letterH: number): { letter?: string; doubt?: boolean } {
  if (c === 'B' || c === 'D') {
    const r = hookLeft(g, b), px = r * (b.y1 - b.y0 + 1);
    if (r >= HOOK_MIN_REACH && px >= 2) return { letter: BODY_LETTER[c] };
    return r >= HOOK_HALF_REACH && px >= 2 ? { doubt: true } : {};
  }
  if (c === 'K') {
    const k = kHook(g, b);
    return k === 'hook' ? { letter: 'Ƙ' } : k ? { doubt: true } : {};
  }
  if (c === 'N') {
    const d = tailDepth(g, b, base, letterH), n = nShape(g, b);
    const arch = n.top >= ARCH_MIN_TOP && n.cross <= ARCH_MAX_CROSS;
    if (d >= TAIL_MIN_DEPTH || arch) return { letter: 'Ŋ' };
    return d >= TAIL_HALF_DEPTH ? { doubt: true } : {};
  }
  // A Ŧ read F (its bar taken for F's middle arm): an F's stem is its left edge, nothing stands left of it.
  if (c === 'T' || c === 'F') return barThroughT(g, b) ? { letter: 'Ŧ' } : {};
  return {};
}

/** The part of a glyph `b` within columns `x0`-`x1` (its box shrunk to that part's ink). */
export function columns(g: Gray, b: Blob, x0: number, x1: number): Blob {
  const px = b.px.filter((p) => p % g.width >= x0 && p % g.width <= x1);
  if (!px.length) return { ...b, px };
  const xs = px.map((p) => p % g.width), ys = px.map((p) => Math.floor(p / g.width));
  return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys), px };
}

/** A glyph whose top stands this share of the letters' height above their median top has a mark or outside ink joined to it: not judged. */
const JOINED_ABOVE = 0.12;

/**
 * A capital word's letters (a trailing comma left out) with the letters of more body its glyphs show
 * (bodyLetter), and whether a glyph doubts it; undefined when its glyphs do not pair with its letters
 * (glyph-marks.ts letterSpans: only a letter with a glyph of its own is looked at), its type is under
 * BODY_MIN_LETTER_HEIGHT, it has under BODY_MIN_LETTERS letters, or it holds no B, D, K, N, T or F.
 */
export function bodyReading(g: Gray, w: OcrWord): { text: string; doubt: boolean } | undefined {
  const chars = [...w.text.replace(/,$/, '')];
  if (chars.length < BODY_MIN_LETTERS || !chars.some((c) => c in BODY_LETTER) || chars.some((c) => !JUDGED_LETTER.test(c))) return undefined;
  const glyphs = wordGlyphs(g, w);
  if (!glyphs.length) return undefined;
  const spans = letterSpans(glyphs, chars.length);
  if (!spans) return undefined;
  const heights = glyphs.map((b) => b.y1 - b.y0 + 1), letterH = median(heights);
  if (letterH < BODY_MIN_LETTER_HEIGHT) return undefined;
  const top = median(glyphs.map((b) => b.y0)), base = median(glyphs.map((b) => b.y1));
  // A glyph cut by the word's box (ink runs on past it) is not looked at.
  const X0 = Math.max(0, Math.floor(w.x0)), X1 = Math.min(g.width - 1, Math.ceil(w.x1));
  const Y1 = Math.min(g.height - 1, Math.ceil(w.y1));
  const t = otsu(g, X0, Math.max(0, Math.floor(w.y0)), X1, Y1);
  const inkAt = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < g.width && y < g.height && g.data[y * g.width + x] <= t;
  const cut = (b: Blob): boolean => {
    for (let y = b.y0; y <= b.y1; y++) if ((b.x0 <= X0 && inkAt(X0 - 1, y) && inkAt(X0 - 2, y)) || (b.x1 >= X1 && inkAt(X1 + 1, y) && inkAt(X1 + 2, y))) return true;
    for (let x = b.x0; x <= b.x1; x++) if (b.y1 >= Y1 && inkAt(x, Y1 + 1) && inkAt(x, Y1 + 2)) return true;
    return false;
  };
  let doubt = false;
  const out = chars.map((c, i) => {
    const s = spans[i];
    if (!(c in BODY_LETTER)) return c;
    // A T or F sharing its glyph (two Ŧ's bars run together: GUOŦŦÁ read "GUOTTÁ") is looked at in its own
    // columns: a neighbour's stem in them runs the height and makes no short bar (barThroughT).
    const shared = !s.whole && (c === 'T' || c === 'F');
    if (!s.whole && !shared) return c;
    const b = shared ? columns(g, glyphs[s.glyph], s.x0, s.x1) : glyphs[s.glyph];
    if (top - b.y0 > JOINED_ABOVE * letterH || cut(b)) return c;
    const seen = bodyLetter(g, b, c, base, letterH);
    if (seen.doubt) doubt = true;
    return seen.letter ?? c;
  });
  return { text: out.join(''), doubt };
}

/**
 * Words with each letter of more body the ink shows written (ƊANJUMA for "DANJUMA", ƘWANKWASO for
 * "KWANKWASO": bodyReading) and words a glyph doubts, their confidence kept at most INK_LETTER_CAP, among
 * the words `judged` accepts (the caller's: value-size words); every other word as it was. Nothing is
 * read again.
 */
export function mendBodyLetters(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!/[BDKNTF]/.test(w.text) || !judged(w)) return w;
    const r = bodyReading(g, w);
    const plain = w.text.replace(/,$/, '');
    if (!r || (r.text === plain && !r.doubt)) return w;
    const comma = /,$/.test(w.text) ? ',' : '';
    return { ...w, text: r.text + comma, conf: Math.min(w.conf, INK_LETTER_CAP) };
  });
}
