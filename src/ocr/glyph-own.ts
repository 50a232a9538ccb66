/**
 * Letters of their own, read from their ink (issue #17, twenty-first round). Nordic, Icelandic and
 * Polish names carry capitals that are not a Latin letter with a mark over or under it but a letter
 * drawn otherwise: Ø (an O with a slash through its counter), Ł (an L with a short stroke across its
 * stem), Ð (a D with a bar across its stem; Đ looks the same), Þ (thorn: a stem the full capital height
 * with a bowl in its middle), Æ (A and E drawn as one letter). The Portuguese model cannot write them
 * and reads the nearest Latin letter, sure of it (final19: JØRGENSEN "JORGENSEN" 0.92, GŁOWACKI
 * "GLOWACKI" 0.91, ÞORSTEINSSON "PORSTEINSSON" 0.9, NÆSS "NASS" 0.896). This looks at each capital's
 * glyph (glyph-i.ts wordGlyphs), paired one to one with the word's letters (a glyph of Æ's shape may
 * hold the two letters "AE"), and at how the letter is drawn in any face:
 * - O: its counter cut in two by a stroke running up to the right (strokeThroughCounter): two holes, one
 *   above and left of the other; an O, a Q, a C have one hole or none;
 * - L, D: ink left of the stem in the middle of the height (barAcrossStem), a bar or slash crossing it;
 *   the stem of an L or a D runs straight there (serifs stick out at its top and foot only);
 * - P: its bowl's counter centred in the middle of the height (bowlCentre), where P's lies in the top
 *   half; a centre between the two only doubts the word;
 * - A or E (or "AE"): one glyph with an A's leaning left leg and an E's arm along the whole top right
 *   (ligatureAE): the top rows' ink one run from the apex to the right edge. Æ is written only over the
 *   two letters "AE" read from one glyph; over a glyph read A or E alone it only doubts the word (a
 *   monospaced face's blurred A passes the shape: final15 #74's NADIIA GEMMA made "NÆDIIÆ GEMMÆ",
 *   final13 #7's MBAYE lost).
 * Since the twenty-second round (final20's Croatian, Serbian and Vietnamese names): the stroked D is written Đ (U+0110) rather than the eth Ð (U+00D0) where its word starts with it or holds
 * a letter Icelandic and Faroese lack (strokedD); and a U or an O with the Vietnamese horn (glyph-horn.ts)
 * is written Ư, Ơ. Words holding letters the ink readers write (glyph-marks.ts INK_WRITTEN: ĐURĐEVIĆ's Ć)
 * are judged too.
 * Since the twenty-third round (final21's Maltese and Azerbaijani names): an H with a second bar joining its
 * stems above the crossbar is written Ħ, and a glyph read O, A or S with a schwa's shape Ə (glyph-bars.ts).
 * A letter written here is one the model cannot write, so its word's confidence is kept at most
 * INK_LETTER_CAP (glyph-accent.ts). Type under OWN_MIN_LETTER_HEIGHT px is not looked at (its counters
 * close). Pure functions on a gray page.
 */
import { INK_LETTER_CAP } from './glyph-accent.js';
import { maskOf, otsu, wordGlyphs, type Blob, type Gray, type Mask } from './glyph-i.js';
import { JUDGED_LETTER, letterSpans } from './glyph-marks.js';
import { barredH, schwaShape } from './glyph-bars.js';
import { HORN_PAIR_LEAN, hornLean, hornLetter, hornOnTop, hornPair } from './glyph-horn.js';
import type { OcrWord } from './words.js';


/** Capitals under this height (px) are not looked at: a 12 px O's counter is 4-5 px across. */
export const OWN_MIN_LETTER_HEIGHT = 14;

/** A hole of a glyph: paper enclosed by its ink (4-connected), its size (px) and centre (box coordinates). */
export interface Hole { n: number; cx: number; cy: number; rows: number }

/** The holes of a mask: 4-connected paper not reaching the box's edge, of at least `min` px. */
function holesOf({ w, h, m }: Mask, min: number): Hole[] {
  const seen = new Uint8Array(w * h), out: Hole[] = [];
  for (let s = 0; s < w * h; s++) {
    if (m[s] || seen[s]) continue;
    const stack = [s]; seen[s] = 1;
    let n = 0, sx = 0, sy = 0, edge = false, top = h, foot = 0;
    while (stack.length) {
      const p = stack.pop()!, x = p % w, y = (p - x) / w;
      n++; sx += x; sy += y; top = Math.min(top, y); foot = Math.max(foot, y);
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) edge = true;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, y > 0 ? p - w : -1, y < h - 1 ? p + w : -1]) {
        if (q >= 0 && !m[q] && !seen[q]) { seen[q] = 1; stack.push(q); }
      }
    }
    if (!edge && n >= min) out.push({ n, cx: sx / n, cy: sy / n, rows: foot - top + 1 });
  }
  return out;
}

/** The holes of a glyph (`min`: fewest px, by default 2). */
export function glyphHoles(g: Gray, b: Blob, min = 2): Hole[] {
  return holesOf(maskOf(g, b), min);
}

/**
 * Whether an O's counter is cut by a stroke running up to the right (Ø): its two largest holes each hold
 * at least a fifth of the pair's paper, and the one on the left lies above the other by at least a
 * tenth of the glyph's height, and left of it by a tenth of its width (a slash from the lower left to
 * the upper right leaves the counter's upper-left and lower-right parts).
 */
export function strokeThroughCounter(g: Gray, b: Blob): boolean {
  const mk = maskOf(g, b);
  const holes = holesOf(mk, 2).sort((a, c) => c.n - a.n);
  if (holes.length < 2) return false;
  const [a, c] = holes, [l, r] = a.cx <= c.cx ? [a, c] : [c, a];
  return Math.min(a.n, c.n) >= 0.2 * (a.n + c.n) && r.cx - l.cx >= 0.1 * mk.w && r.cy - l.cy >= 0.1 * mk.h;
}

/** Leftmost ink of each row of a mask (box coordinates; w where the row has none). */
function leftEdges({ w, h, m }: Mask): number[] {
  return Array.from({ length: h }, (_, y) => { let x = 0; while (x < w && !m[y * w + x]) x++; return x; });
}

/**
 * Whether a bar or slash crosses the stem of an L or a D (Ł, Ð, Đ): the stem's left edge is the median of
 * its rows' leftmost ink (rows 0.1-0.9 of the height: serifs stick out at the top and the foot only); a
 * band of rows between 0.25 and 0.8 of the height, at most 0.3 of it thick, has ink at least
 * max(2 px, 0.08 of the height) left of that edge, and the rows just above and below the band (0.2 of the
 * height away) do not.
 */
export function barAcrossStem(g: Gray, b: Blob): boolean {
  const mk = maskOf(g, b), h = mk.h, left = leftEdges(mk);
  const body = left.slice(Math.round(0.1 * h), Math.round(0.9 * h) + 1).sort((a, c) => a - c);
  const stem = body[Math.floor(body.length / 2)];
  const reach = Math.max(2, 0.08 * h);
  const out = (y: number): boolean => left[y] <= stem - reach;
  const band: number[] = [];
  for (let y = Math.round(0.25 * h); y <= Math.round(0.8 * h); y++) if (out(y)) band.push(y);
  if (!band.length || band[band.length - 1] - band[0] + 1 > 0.3 * h) return false;
  const above = band[0] - Math.round(0.2 * h), below = band[band.length - 1] + Math.round(0.2 * h);
  return above >= 0 && below < h && !out(above) && !out(below);
}

/** Thorn's counter: its centre at least this share of the glyph's height down (P's lies at 0.2-0.35). */
export const THORN_MIN_CENTRE = 0.42;
/** A P's counter: its centre at most this share down; between the two the glyph only doubts its word. */
export const P_MAX_CENTRE = 0.36;

/** A counter at least this share of its glyph's height tall is a D's (P's and Þ's: 0.26-0.53). */
export const D_MIN_COUNTER = 0.6;
/** Thorn's counter is at most this share of the glyph's height tall; up to D_MIN_COUNTER the word is doubted. */
export const THORN_MAX_COUNTER = 0.5;

/** A P-like glyph's one counter's centre as a share of its height down; undefined without one hole. */
export function bowlCentre(g: Gray, b: Blob): number | undefined {
  const mk = maskOf(g, b), holes = holesOf(mk, 3);
  if (holes.length !== 1) return undefined;
  return (holes[0].cy + 0.5) / mk.h;
}

/** Æ is at least this many times as wide as high (a monospaced face squeezes it into one cell: 0.6-0.7). */
export const AE_MIN_WIDTH = 0.55;
/** Æ's left leg at mid-height stands at least this share of its width off its left edge. */
export const AE_MID_LEFT = 0.1;

/**
 * Whether one glyph is A and E drawn as one letter (Æ): at least AE_MIN_WIDTH times as wide as high; its top
 * rows (the first tenth of the height) hold one run of ink (gaps of a pixel closed) starting at least a
 * fifth of the width from the left (an A's apex, not an E's stem) and reaching the last tenth of the
 * width (an E's arm); its foot (the last tenth) has ink in its first fifth (an A's left foot); it closes
 * a counter (the A half) and its left leg stands AE_MID_LEFT off the left edge at mid-height.
 */
export function ligatureAE(g: Gray, b: Blob): boolean {
  const mk = maskOf(g, b), { w, h, m } = mk;
  if (w < AE_MIN_WIDTH * h) return false;
  const band = (y0: number, y1: number): boolean[] => Array.from({ length: w }, (_, x) => {
    for (let y = y0; y <= y1; y++) if (m[y * w + x]) return true;
    return false;
  });
  const top = band(0, Math.max(0, Math.round(0.1 * h) - 1));
  const runs: Array<[number, number]> = [];
  for (let x = 0; x < w; x++) {
    if (!top[x]) continue;
    const last = runs[runs.length - 1];
    if (last && x - last[1] <= 2) last[1] = x; else runs.push([x, x]);
  }
  if (runs.length !== 1) return false;
  const [s, e] = runs[0];
  const foot = band(h - Math.max(1, Math.round(0.1 * h)), h - 1);
  if (!(s >= 0.2 * w && e >= 0.9 * w - 1 && foot.slice(0, Math.max(1, Math.round(0.2 * w))).some(Boolean))) return false;
  // An E on a tilted page has its top rows on the arm's right end only (final18: EAR, ERKAN, NEAGU made
  // "ÆAR", "ÆRKAN", "NÆAGU"): Æ's A half also closes a counter (an E has none) and its left leg stands
  // off the left edge at mid-height (an E's stem is that edge).
  const mid = leftEdges(mk).slice(Math.round(0.4 * h), Math.round(0.6 * h) + 1);
  return holesOf(mk, 3).length >= 1 && mid.every((x) => x >= AE_MID_LEFT * w);
}

/** An E's top arm reaches at least this share of its glyph's width (Ł's top, its stem and serifs, stops short of it). */
export const TOP_ARM_REACH = 0.7;

/** Whether the top tenth of a glyph's rows holds ink at TOP_ARM_REACH of its width or further right (an E's top arm). */
export function topArm(g: Gray, b: Blob): boolean {
  const { w, h, m } = maskOf(g, b);
  for (let y = 0; y < Math.max(1, Math.round(0.1 * h)); y++) {
    for (let x = Math.ceil(TOP_ARM_REACH * w) - 1; x < w; x++) if (m[y * w + x]) return true;
  }
  return false;
}

/**
 * What the ink of one glyph shows for a letter read as `c`: a letter of its own, a doubt, or nothing.
 * A bar across the stem makes an L or a D what its counters say: none an Ł, one an Ð; over a letter read
 * E (the bar taken for E's middle arm: final19's KOZŁOWSKI "KOZEOWSKI", GUÐMUNDSDÓTTIR "GUEMUNDSDÓTTIR")
 * the same, as an E's stem has nothing left of it, unless its top arm shows (topArm: then no Ł). A glyph read A or E with Æ's shape (ligatureAE) only
 * doubts: Æ is written where one glyph was read "AE" (paired).
 */
export function ownLetter(g: Gray, b: Blob, c: string, top = b.y0): { letter?: string; doubt?: boolean } {
  // A U or an O read plain: the horn (a letter read with a mark takes it only after a U given one,
  // hornPair: an acute blurred on to its letter leans right like a horn, ÚRSULA's Ú).
  if (c === 'O' && strokeThroughCounter(g, b)) return { letter: 'Ø' };
  // A capital schwa read O, A or S, and a barred H read H (glyph-bars.ts: final21's MƏMMƏDOV, ĦABEL).
  if ('OAS'.includes(c) && schwaShape(g, b)) return { letter: 'Ə' };
  if (c === 'H') { const bar = barredH(g, b); return bar === 'Ħ' ? { letter: bar } : bar ? { doubt: true } : {}; }
  if ((c === 'U' || c === 'O') && hornOnTop(g, b, top)) return { letter: hornLetter(c) };
  if (c === 'O') return {};
  if (c === 'L' || c === 'D' || c === 'E') {
    if (barAcrossStem(g, b)) {
      const holes = glyphHoles(g, b, 3).length;
      const letter = holes === 0 ? 'Ł' : holes === 1 ? 'Ð' : undefined;
      // An E keeps its top arm (Ł's top is its stem alone): a spur left of an E's stem is no Ł (final13 #7:
      // MBAYE made "MBAYŁ" under glare, and the name's tail left out).
      if (letter === 'Ł' && c === 'E' && topArm(g, b)) return {};
      if (letter && (c === 'E' || (c === 'L') === (letter === 'Ł'))) return { letter };
      return {};
    }
    if (c === 'L' || c === 'D') return {};
  }
  if (c === 'P') {
    // A counter a D's height (P's and Þ's span 0.26-0.53 of the glyph, D's and Ð's 0.53-0.9): Ð read P
    // (final19 #4: SIGURÐUR "SIGURPUR") where a bar crosses the stem, else a D or Ð: the word doubted.
    const holes = glyphHoles(g, b, 3);
    const rows = holes.length === 1 ? holes[0].rows / (b.y1 - b.y0 + 1) : 0;
    if (rows >= D_MIN_COUNTER) return barAcrossStem(g, b) ? { letter: 'Ð' } : { doubt: true };
    if (rows > THORN_MAX_COUNTER) return { doubt: true };
    const at = bowlCentre(g, b);
    if (at === undefined || at <= P_MAX_CENTRE) return {};
    return at >= THORN_MIN_CENTRE ? { letter: 'Þ' } : { doubt: true };
  }
  // A glyph read A or E alone with Æ's shape: a blurred monospaced A passes it too (final15 #74, final13 #7
  // in DejaVu Sans Mono and Liberation Mono), so the word is doubted, not written (paired writes "AE" read
  // from one glyph).
  if (c === 'A' || c === 'E') return ligatureAE(g, b) ? { doubt: true } : {};
  return {};
}

/**
 * A capital word's letters (a trailing comma left out) with the letters of their own its glyphs show,
 * and whether a glyph doubts it; undefined when its glyphs do not pair with its letters or its type is
 * under OWN_MIN_LETTER_HEIGHT. Glyphs pair one letter each, a glyph of Æ's shape "AE" or one letter;
 * failing that, by glyph-marks.ts letterSpans (two touching capitals one blob twice as wide), and then
 * only letters with a glyph of their own are looked at (no Æ).
 */
export function ownReading(g: Gray, w: OcrWord): { text: string; doubt: boolean } | undefined {
  const chars = [...w.text.replace(/,$/, '')];
  if (!chars.length || chars.some((c) => !JUDGED_LETTER.test(c))) return undefined;
  const glyphs = wordGlyphs(g, w);
  if (!glyphs.length) return undefined;
  const heights = glyphs.map((b) => b.y1 - b.y0 + 1).sort((a, c) => a - c);
  if (heights[Math.floor(heights.length / 2)] < OWN_MIN_LETTER_HEIGHT) return undefined;
  // A glyph the word's box cuts (ink goes on past it: tuning #1's "DA" boxed through its A's right leg,
  // the cut A's apex and leg one run to the box's edge like an Æ's top) is not looked at.
  const X0 = Math.max(0, Math.floor(w.x0)), Y0 = Math.max(0, Math.floor(w.y0));
  const X1 = Math.min(g.width - 1, Math.ceil(w.x1)), Y1 = Math.min(g.height - 1, Math.ceil(w.y1));
  const t = otsu(g, X0, Y0, X1, Y1);
  const inkAt = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < g.width && y < g.height && g.data[y * g.width + x] <= t;
  // Ink 1 and 2 px past the edge: a blur's halo at the box's own split reaches 1 px.
  const past = (x: number, y: number, dx: number, dy: number): boolean => inkAt(x + dx, y + dy) && inkAt(x + 2 * dx, y + 2 * dy);
  const cut = (b: Blob): boolean => {
    for (let y = b.y0; y <= b.y1; y++) if ((b.x0 <= X0 && past(X0, y, -1, 0)) || (b.x1 >= X1 && past(X1, y, 1, 0))) return true;
    for (let x = b.x0; x <= b.x1; x++) if ((b.y0 <= Y0 && past(x, Y0, 0, -1)) || (b.y1 >= Y1 && past(x, Y1, 0, 1))) return true;
    return false;
  };
  const whole = glyphs.map((b) => !cut(b));
  const tops = glyphs.map((b) => b.y0).sort((a, c) => a - c), top = tops[Math.floor(tops.length / 2)];
  const r = paired(g, glyphs, chars, whole, top) ?? spanned(g, glyphs, chars, whole, top);
  return r && { ...r, text: strokedD(hornPair(r.text)) };
}

/**
 * A stroked D's code point by its word: a D with a bar across its stem is Icelandic and Faroese
 * Ð (U+00D0, the eth) or Croatian, Serbian, Bosnian and Vietnamese Đ (U+0110); the two capitals look the
 * same, so the word's other letters decide. No Icelandic or Faroese word starts with Ð (the eth stands only
 * after a vowel), and a word that also holds a letter those alphabets lack (any mark over or under a letter
 * outside Latin-1, Ć Č Š Ž, the Vietnamese horn and tones) is not theirs: there every Ð is written Đ.
 */
export const NOT_ICELANDIC = /[\u0100-\u010f\u0111-\u024f\u1e00-\u1eff]/;

/** `text` with its Ð written Đ where it starts the word or the word holds a letter NOT_ICELANDIC. */
export function strokedD(text: string): string {
  if (!text.includes('Ð')) return text;
  return text.startsWith('Ð') || NOT_ICELANDIC.test(text) ? text.replace(/Ð/g, 'Đ') : text;
}

/** ownReading's first pairing: each glyph one letter, an Æ-shaped glyph "AE" where the counts call for it. */
function paired(g: Gray, glyphs: Blob[], chars: string[], whole: boolean[], top: number): { text: string; doubt: boolean } | undefined {
  let extra = chars.length - glyphs.length, i = 0, doubt = false;
  if (extra < 0) return undefined;
  const out: string[] = [];
  for (const [k, b] of glyphs.entries()) {
    if (i >= chars.length) return undefined;
    if (extra > 0 && chars[i] === 'A' && chars[i + 1] === 'E' && whole[k] && ligatureAE(g, b)) { out.push('Æ'); i += 2; extra--; continue; }
    const seen = whole[k] ? ownLetter(g, b, chars[i], top) : {};
    out.push(seen.letter ?? chars[i]);
    if (seen.doubt) doubt = true;
    // A U before an O given the horn whose top leans right less clearly (HORN_PAIR_LEAN): ươ, the pair
    // Vietnamese writes (a U's horn stands out 2-3 px on 20 px type, an O's rises clear of its bowl).
    const prev = out.length - 2;
    if (prev >= 0 && out[prev] === chars[i - 1] && hornLetter(out[prev]) && out[prev].normalize('NFD')[0] === 'U' && out[prev + 1] !== chars[i]
      && out[prev + 1].normalize('NFD').startsWith('O\u031b') && whole[k - 1] && hornLean(g, glyphs[k - 1], top, out[prev] !== 'U') >= HORN_PAIR_LEAN) out[prev] = hornLetter(out[prev])!;
    i++;
  }
  return i === chars.length && extra === 0 ? { text: out.join(''), doubt } : undefined;
}

/** ownReading's second pairing: glyph-marks.ts letterSpans, letters with a glyph of their own looked at. */
function spanned(g: Gray, glyphs: Blob[], chars: string[], whole: boolean[], top: number): { text: string; doubt: boolean } | undefined {
  const spans = letterSpans(glyphs, chars.length);
  if (!spans) return undefined;
  let doubt = false;
  const out = chars.map((c, i) => {
    if (!spans[i].whole || !whole[spans[i].glyph]) return c;
    const seen = ownLetter(g, glyphs[spans[i].glyph], c, top);
    // Æ's shape over a glyph read A or E is not looked at here (as before the doubt: letters spanned by width).
    if ((c === 'A' || c === 'E') && !seen.letter) return c;
    if (seen.doubt) doubt = true;
    return seen.letter ?? c;
  });
  return { text: out.join(''), doubt };
}

/**
 * Words with each letter of their own the ink shows (ownReading: JØRGENSEN for "JORGENSEN", GŁOWACKI for
 * "GLOWACKI", ÞORSTEINSSON for "PORSTEINSSON", SÆTHER for "SAETHER") written, and words a glyph doubts,
 * their confidence kept at most INK_LETTER_CAP, among the words `judged` accepts (the caller's:
 * value-size words); every other word as it was. Nothing is read again.
 */
export function mendOwnLetters(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  return words.map((w) => {
    if (!/[OLDPAEUHS]/.test(w.text.normalize('NFD')) || !judged(w)) return w;
    const r = ownReading(g, w);
    const plain = w.text.replace(/,$/, '');
    if (!r || (r.text === plain && !r.doubt)) return w;
    const comma = /,$/.test(w.text) ? ',' : '';
    return { ...w, text: r.text + comma, conf: Math.min(w.conf, INK_LETTER_CAP) };
  });
}
