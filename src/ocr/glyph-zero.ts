/**
 * A dotted zero read as another digit (issue #17, seventeenth round). Monospaced faces print their zero
 * with a dot in its middle (Liberation Mono, DejaVu Sans Mono, their bold), so that it is not an O. Worn,
 * blurred or photographed, the ring fades on one side while the dot stays, and the recogniser reads a 9,
 * an 8 or a B: final15 #47 (old photo, Liberation Mono) rg "499450251" for 409450251 at 0.952, cpf and
 * CNH number 0 read 9; #46 CNH number "B6184546579" for 06184546579. No other digit holds a blob in the
 * middle of its counter with paper round it: a 9's or 6's loop is empty, an 8's waist runs out to its
 * sides. This reads each glyph of a number word from the page's gray levels and gives the zero back where
 * the dot is seen, only on pages whose zeros read as zeros show the dot (the face has one). Pure
 * functions on a gray page (glyph-i.ts Gray).
 */
import { INK_LETTER_CAP } from './glyph-accent.js';
import { wordGlyphs, type Blob, type Gray } from './glyph-i.js';
import type { OcrWord } from './words.js';

/** The dot's core is at least this dark (0 paper, 1 ink: the glyph box's 95th and 5th percentiles)... */
const CORE = 0.55;
/** ...within this share of the glyph's width and height of its middle (the dot is centred in the zero)... */
const OFF_X = 0.12;
const OFF_Y = 0.1;
/** ...and round it the counter: darkness falls to GAP x the core's within REACH_X of the width (REACH_Y of the height)... */
const GAP = 0.6;
const REACH_X = 0.3;
const REACH_Y = 0.25;
/** ...and rises again to WALL (the ring) before the box's edge, to the left, right, top and bottom. */
const WALL = 0.4;

/**
 * Whether a glyph (its box on `g`) holds a dot in the middle of a ring: a pixel near its middle at least
 * CORE dark from which, along the row and the column both ways, the darkness falls to GAP x its own
 * within a short reach (the counter) and rises to WALL before the box (grown 1 px) ends (the ring), and
 * along the four diagonals falls within the same reach (a loop's arc, a waist or a crossing runs on along
 * one of them). Measured on 0-9 B D O Q drawn in 16 DejaVu and Liberation faces at 18-30 px, blurred 0-1.4
 * px, JPEG 90 and 40: the zeros of the three monospaced faces 60-97 % seen; of the other faces' digits
 * 7 glyphs in 4000 (thin DejaVu Sans Light 6 and 9, one blurred 18 px Liberation Mono 9), which the page's
 * own zeros keep out (mendDottedZeros).
 */
export function dottedZero(g: Gray, b: Pick<Blob, 'x0' | 'y0' | 'x1' | 'y1'>): boolean {
  const X0 = Math.max(0, b.x0 - 1), X1 = Math.min(g.width - 1, b.x1 + 1), Y0 = Math.max(0, b.y0 - 1), Y1 = Math.min(g.height - 1, b.y1 + 1);
  const vals: number[] = [];
  for (let y = Y0; y <= Y1; y++) for (let x = X0; x <= X1; x++) vals.push(g.data[y * g.width + x]);
  vals.sort((p, q) => p - q);
  const ink = vals[Math.floor(0.05 * vals.length)], paper = vals[Math.floor(0.95 * vals.length)];
  if (paper - ink < 30) return false;
  const dark = (x: number, y: number): number => Math.max(0, Math.min(1, (paper - g.data[y * g.width + x]) / (paper - ink)));
  const w = b.x1 - b.x0 + 1, h = b.y1 - b.y0 + 1, mx = (b.x0 + b.x1) / 2, my = (b.y0 + b.y1) / 2;
  const rx = Math.max(2, Math.round(REACH_X * w)), ry = Math.max(2, Math.round(REACH_Y * h)), rd = Math.min(rx, ry);
  const inBox = (x: number, y: number): boolean => x >= X0 && x <= X1 && y >= Y0 && y <= Y1;
  /** From (x, y) in steps (dx, dy): the counter within `reach` steps, then (when `wall`) the ring. */
  const ray = (x: number, y: number, dx: number, dy: number, core: number, reach: number, wall: boolean): boolean => {
    let gap = false;
    for (let k = 1; ; k++) {
      const xx = x + k * dx, yy = y + k * dy;
      if (!inBox(xx, yy)) return false;
      const v = dark(xx, yy);
      if (!gap) {
        if (v <= GAP * core) { gap = true; if (!wall) return true; } else if (k > reach) return false;
      } else if (v >= WALL) return true;
    }
  };
  for (let y = Math.round(my - OFF_Y * h); y <= Math.round(my + OFF_Y * h); y++) {
    for (let x = Math.round(mx - OFF_X * w); x <= Math.round(mx + OFF_X * w); x++) {
      const c = dark(x, y);
      if (c < CORE) continue;
      const axes = ray(x, y, -1, 0, c, rx, true) && ray(x, y, 1, 0, c, rx, true) && ray(x, y, 0, -1, c, ry, true) && ray(x, y, 0, 1, c, ry, true);
      if (axes && [[1, 1], [1, -1], [-1, 1], [-1, -1]].every(([dx, dy]) => ray(x, y, dx, dy, c, rd, false))) return true;
    }
  }
  return false;
}

/** A number word: digits with the letters a zero is misread as, and the separators of CPF, dates and codes. */
const NUMBER_WORD = /^[0-9BDOQ.,/-]+$/;
/** The characters a dotted zero is read as (a zero read as a zero is left alone). */
const ZERO_MISREAD = /[689BDOQ]/;
/** A page's zeros show their dot when at least this many of them... */
const DOTTED_MIN = 2;
/** ...and at least this share of those read in paired number words do. */
const DOTTED_SHARE = 0.5;

/** The glyphs of a number word paired one to one with its characters (separators under the glyphs' height left out), or undefined. */
function pairedGlyphs(g: Gray, w: OcrWord): { chars: string[]; glyphs: Blob[] } | undefined {
  if (!NUMBER_WORD.test(w.text) || (w.text.match(/[0-9]/g) ?? []).length < 4) return undefined;
  const chars = [...w.text].filter((c) => !/[.,-]/.test(c));
  const glyphs = wordGlyphs(g, w);
  return glyphs.length === chars.length ? { chars, glyphs } : undefined;
}

/**
 * Number words (4 digits or more, read with digits, B D O Q and separators) with each 6, 8, 9, B, D, O or
 * Q whose glyph holds a dotted zero's dot (dottedZero) written 0, their confidence kept at most
 * INK_LETTER_CAP (the ink overruled the recogniser), among the words `judged` accepts (the caller's:
 * value-size words); only on a page whose zeros show the dot: at least DOTTED_MIN glyphs read 0 in
 * paired number words do, and at least DOTTED_SHARE of them (a face without a dotted zero never
 * qualifies, so its thin 6s and 9s are never looked at). Every other word as it was; nothing is read again.
 */
export function mendDottedZeros(g: Gray, words: OcrWord[], judged: (w: OcrWord) => boolean = () => true): OcrWord[] {
  const paired = new Map<OcrWord, { chars: string[]; glyphs: Blob[] }>();
  for (const w of words) {
    if (!judged(w)) continue;
    const p = pairedGlyphs(g, w);
    if (p) paired.set(w, p);
  }
  let zeros = 0, dotted = 0;
  for (const { chars, glyphs } of paired.values()) chars.forEach((c, i) => { if (c === '0') { zeros++; if (dottedZero(g, glyphs[i])) dotted++; } });
  if (dotted < DOTTED_MIN || dotted < DOTTED_SHARE * zeros) return words;
  return words.map((w) => {
    const p = paired.get(w);
    if (!p || !ZERO_MISREAD.test(w.text)) return w;
    const mended = new Set<number>();
    p.chars.forEach((c, i) => { if (ZERO_MISREAD.test(c) && dottedZero(g, p.glyphs[i])) mended.add(i); });
    if (!mended.size) return w;
    let k = -1;
    const text = [...w.text].map((c) => (/[.,-]/.test(c) ? c : (k++, mended.has(k) ? '0' : c))).join('');
    return { ...w, text, conf: Math.min(w.conf, INK_LETTER_CAP) };
  });
}
