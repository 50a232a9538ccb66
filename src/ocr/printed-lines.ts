/**
 * The card's own print found on the page before recognition (issue #17, speed): text lines of the
 * gray page from its ink alone (binarised, connected components, lines, word gaps), and among them the
 * lines that hold no field: the header stack (REPÚBLICA FEDERATIVA DO BRASIL, MINISTÉRIO ...,
 * DEPARTAMENTO NACIONAL DE TRÂNSITO, CARTEIRA NACIONAL DE HABILITAÇÃO), the validity notice (VÁLIDA
 * EM TODO O TERRITÓRIO NACIONAL) and the back's signature lines (ASSINATURA DO PORTADOR / DO EMISSOR). A line is known by its words' count and relative widths, its type size
 * and where it stands among the side's lines (top of the stack, bottom of the side), never by a fixed
 * position. Pure functions on pixel buffers; no recognition here.
 */
import { keepThreshold, otsuOfHistogram } from './light.js';
import type { GrayImage } from './regions.js';
import type { OcrWord } from './words.js';

/** Level under which a pixel is ink (the prepared page is contrast-stretched: type ~0-80, security print ~215). */
export const INK_LEVEL = 128;

/** A text line of the page: its box (px) and its words' horizontal extents (px), left to right. */
export interface InkLine {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Median height of its glyph components, px (the type's cap height for capitals). */
  h: number;
  /** Horizontal extents (px) of its glyphs, left to right, merged where they overlap (accents, touching letters). */
  glyphs: Array<{ x0: number; x1: number }>;
  /** Clear width (px) of each gap between consecutive glyphs: its columns with no faint ink in the type's body (one fewer than glyphs). */
  gaps: number[];
}

interface Box { x0: number; y0: number; x1: number; y1: number }

/**
 * Bounding boxes (inclusive px) of the 8-connected components of pixels darker than `level`, in one
 * raster pass with a union-find over provisional labels (typed arrays: ~2 ms for a 0.75 MP side).
 */
function inkComponents(img: GrayImage, level = INK_LEVEL): Box[] {
  const { data, width: w, height: h } = img;
  const labels = new Int32Array(w * h);
  let parent = new Int32Array(1024);
  let next = 1;
  const find = (a: number): number => {
    let r = a;
    while (parent[r] !== r) r = parent[r];
    while (parent[a] !== r) { const up = parent[a]; parent[a] = r; a = up; }
    return r;
  };
  const union = (a: number, b: number): number => {
    if (a === b) return a;
    const ra = find(a), rb = find(b);
    if (ra < rb) { parent[rb] = ra; return ra; }
    parent[ra] = rb;
    return rb;
  };
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      if (data[i] >= level) continue;
      let l = x > 0 ? labels[i - 1] : 0;
      if (y > 0) {
        const up = i - w;
        if (x > 0 && labels[up - 1]) l = l ? union(l, labels[up - 1]) : labels[up - 1];
        if (labels[up]) l = l ? union(l, labels[up]) : labels[up];
        if (x < w - 1 && labels[up + 1]) l = l ? union(l, labels[up + 1]) : labels[up + 1];
      }
      if (!l) {
        if (next === parent.length) { const grown = new Int32Array(2 * next); grown.set(parent); parent = grown; }
        l = next;
        parent[next] = next;
        next++;
      }
      labels[i] = l;
    }
  }
  const x0 = new Int32Array(next).fill(w), y0 = new Int32Array(next).fill(h), x1 = new Int32Array(next).fill(-1), y1 = new Int32Array(next).fill(-1);
  const root = new Int32Array(next);
  for (let l = 1; l < next; l++) root[l] = find(l);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const l = labels[row + x];
      if (!l) continue;
      const r = root[l];
      if (x < x0[r]) x0[r] = x;
      if (x > x1[r]) x1[r] = x;
      if (y < y0[r]) y0[r] = y;
      y1[r] = y;
    }
  }
  const out: Box[] = [];
  for (let l = 1; l < next; l++) if (root[l] === l) out.push({ x0: x0[l], y0: y0[l], x1: x1[l], y1: y1[l] });
  return out;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

/** Tallest glyph component, px (cap heights on the 820 px card: labels ~13, values ~20). */
const MAX_GLYPH_PX = 60;
/** Glyph components are 8 to MAX_GLYPH_PX tall and not rules. */
const isGlyph = (b: Box): boolean => {
  const h = b.y1 - b.y0 + 1, w = b.x1 - b.x0 + 1;
  return h >= 8 && h <= MAX_GLYPH_PX && w <= 25 * h;
};

/**
 * Most glyph components a page may have for its lines to be looked for: card sides have 333 (median)
 * to 554 (405 sides of the five seen parts); a page crafted with tens of thousands of dashes (review:
 * 80,730 in a 4.2 MP page took 25 s here) is read by the recogniser as it is, nothing whitened, so
 * this main-thread step stays bounded (~0.1 s at the cap) on any page.
 */
const MAX_GLYPHS = 4_000;
/** Most text lines a page may have for the card's fixed print to be looked for (card sides: at most 70). */
const MAX_LINES = 300;

/**
 * Text lines of a page: glyph components chained left to right when their vertical centres lie within
 * 0.45 of the taller one's height and the gap is under 1.5 of it (as words.ts groupPhrases chains
 * words).
 */
export function inkLines(img: GrayImage, level = INK_LEVEL, faint = FAINT_LEVEL): InkLine[] {
  const glyphs = inkComponents(img, level).filter(isGlyph).sort((a, b) => a.x0 - b.x0);
  if (glyphs.length > MAX_GLYPHS) return [];
  // Runs still open to the next glyph: those whose last glyph ends within 1.5 of the tallest glyph
  // height before it (glyphs come left to right), so each glyph is tried against nearby runs only.
  let open: Box[][] = [];
  const done: Box[][] = [];
  for (const g of glyphs) {
    if (open.length > 64) {
      const still: Box[][] = [];
      for (const run of open) (g.x0 - run[run.length - 1].x1 >= 1.5 * MAX_GLYPH_PX ? done : still).push(run);
      open = still;
    }
    const gh = g.y1 - g.y0 + 1, cy = (g.y0 + g.y1) / 2;
    let best = -1, bestGap = Infinity;
    open.forEach((run, i) => {
      const last = run[run.length - 1];
      const lh = Math.max(gh, last.y1 - last.y0 + 1);
      const gap = g.x0 - last.x1;
      if (Math.abs(cy - (last.y0 + last.y1) / 2) < 0.45 * lh && gap < 1.5 * lh && gap < bestGap) { best = i; bestGap = gap; }
    });
    if (best >= 0) open[best].push(g);
    else open.push([g]);
  }
  return [...done, ...open].map((run) => {
    const h = median(run.map((b) => b.y1 - b.y0 + 1));
    const glyphs: Array<{ x0: number; x1: number }> = [];
    for (const b of run) {
      const last = glyphs[glyphs.length - 1];
      if (last && b.x0 <= last.x1 + 1) last.x1 = Math.max(last.x1, b.x1);
      else glyphs.push({ x0: b.x0, x1: b.x1 });
    }
    const y0 = Math.min(...run.map((b) => b.y0)), y1 = Math.max(...run.map((b) => b.y1));
    // The gaps are looked at in the type's body only (its glyphs' median top to median bottom): not
    // in the rows of accents, cedillas or a rule under the line, which would bridge them.
    const band0 = median(run.map((b) => b.y0)), band1 = median(run.map((b) => b.y1));
    return {
      x0: Math.min(...run.map((b) => b.x0)), y0, x1: Math.max(...run.map((b) => b.x1)), y1, h, glyphs,
      gaps: glyphs.slice(1).map((g, i) => clearColumns(img, glyphs[i].x1 + 1, g.x0 - 1, band0, band1, faint)),
    };
  }).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/**
 * Level under which a pixel is faint ink for the word gaps. Serif type's hairlines and feet fade to
 * 128-190 under blur, glare or low light and break its letters into pieces with gaps as wide as a
 * word's; counted with the faint ink they bridge those gaps, while a word gap stays clear (paper and
 * security print, ~215, above it).
 */
export const FAINT_LEVEL = 190;

/** Columns x0..x1 of `img` with no pixel under `faint` in rows y0..y1. */
function clearColumns(img: GrayImage, x0: number, x1: number, y0: number, y1: number, faint: number): number {
  let clear = 0;
  for (let x = x0; x <= x1; x++) {
    let y = y0;
    while (y <= y1 && img.data[y * img.width + x] >= faint) y++;
    if (y > y1) clear++;
  }
  return clear;
}

/**
 * The line cut into `k` words at its k - 1 widest gaps: the words' extents and how clearly those gaps
 * stand out (the narrowest of them over the widest of the others, Infinity when there are no others;
 * 0 when the line has fewer than k glyphs).
 */
function wordsOf(l: InkLine, k: number): { words: Array<{ x0: number; x1: number }>; clarity: number } {
  const gs = l.gaps;
  if (gs.length < k - 1) return { words: [], clarity: 0 };
  const order = gs.map((g, i) => i).sort((a, b) => gs[b] - gs[a]);
  const cuts = order.slice(0, k - 1).sort((a, b) => a - b);
  const narrowestCut = k > 1 ? Math.min(...cuts.map((i) => gs[i])) : Infinity;
  const widestOther = gs.length > k - 1 ? gs[order[k - 1]] : 0;
  const words: Array<{ x0: number; x1: number }> = [];
  let start = 0;
  for (const c of [...cuts, gs.length]) {
    words.push({ x0: l.glyphs[start].x0, x1: l.glyphs[c].x1 });
    start = c + 1;
  }
  return { words, clarity: widestOther > 0 ? narrowestCut / widestOther : Infinity };
}

/** A line of the card's fixed print: its words as printed, in the order the header stack prints them. */
/**
 * A line of the card's fixed print: its words as printed, whether it belongs to the header stack, and
 * `unsure`: indices of words not handed back, because another printing with the same widths holds
 * other words there (SECRETARIA NACIONAL DE TRÂNSITO, on newer cards, fits DEPARTAMENTO's; ASSINATURA
 * DO EMISSOR fits DO PORTADOR's in monospaced type): they are whitened, never guessed.
 */
interface PrintedKind { text: string; header: boolean; unsure?: readonly number[] }

/**
 * The lines looked for. Header lines stand in this order from the top of a card side (older model:
 * REPÚBLICA, MINISTÉRIO DAS CIDADES, DEPARTAMENTO, CARTEIRA; 2022 model: REPÚBLICA, MINISTÉRIO DOS
 * TRANSPORTES, CARTEIRA); the notice is the lowest line of the back. The signature lines are apart
 * (SIGNATURE_KINDS).
 */
const PRINTED_KINDS: readonly PrintedKind[] = [
  { text: 'REPÚBLICA FEDERATIVA DO BRASIL', header: true },
  { text: 'MINISTÉRIO DOS TRANSPORTES', header: true },
  { text: 'MINISTÉRIO DAS CIDADES', header: true },
  { text: 'DEPARTAMENTO NACIONAL DE TRÂNSITO', header: true, unsure: [0] },
  { text: 'CARTEIRA NACIONAL DE HABILITAÇÃO', header: true },
  { text: 'VÁLIDA EM TODO O TERRITÓRIO NACIONAL', header: false },
];

/**
 * The signature lines of the back (older model: PORTADOR under the holder's signature, EMISSOR under
 * the issuer's; 2022: EMISSOR). Their widths alone also fit MINISTÉRIO DAS CIDADES and labels cut at
 * letter gaps, so they are looked for apart from PRINTED_KINDS (signatureOf, printedLines).
 */
export const SIGNATURE_KINDS: readonly PrintedKind[] = [
  // Only ASSINATURA DO is handed back: the widths do not always tell PORTADOR from EMISSOR (one letter
  // apart; on the seen parts, with the serif pass's word cuts, 2 of 183 lines fit the wrong one better).
  { text: 'ASSINATURA DO PORTADOR', header: false, unsure: [2] },
  { text: 'ASSINATURA DO EMISSOR', header: false, unsure: [2] },
];

/**
 * Largest difference between a word's share of the line's ink width and its share of the letters
 * (tuning part, 0.7 x width: 0.003-0.042 on lines read as the kind, sans and mono fonts; serif fonts
 * failed the gap test instead, their broken letters' gaps as wide as word gaps, until the gaps were
 * measured with the faint ink: FAINT_LEVEL).
 */
const MAX_SHARE_DEVIATION = 0.05;
/** The word gaps must be at least this many times the widest gap inside a word (tuning part: 1.6-5 on clean reads). */
const MIN_GAP_CLARITY = 1.4;

/** How `line`, cut into `kind`'s word count, fits its words' widths: the largest share deviation (Infinity when its gaps are under `minClarity`). */
function fitOf(line: InkLine, kind: PrintedKind, minClarity: number): { kind: PrintedKind; words: Array<{ x0: number; x1: number }>; dev: number } {
  const letters = kind.text.split(' ').map((w) => w.length);
  const { words, clarity } = wordsOf(line, letters.length);
  if (!words.length || clarity < minClarity) return { kind, words, dev: Infinity };
  const ink = words.reduce((s, w) => s + w.x1 - w.x0 + 1, 0);
  const total = letters.reduce((a, b) => a + b, 0);
  return { kind, words, dev: Math.max(...words.map((w, i) => Math.abs((w.x1 - w.x0 + 1) / ink - letters[i] / total))) };
}

/** The kind whose word widths `line` has (one only; none when two fit or none does), with its word boxes. */
export function kindOf(line: InkLine): { kind: PrintedKind; words: Array<{ x0: number; x1: number }> } | null {
  const fits = PRINTED_KINDS.map((kind) => fitOf(line, kind, MIN_GAP_CLARITY)).filter((f) => f.dev <= MAX_SHARE_DEVIATION);
  return fits.length === 1 ? { kind: fits[0].kind, words: fits[0].words } : null;
}

/**
 * Signature lines fit their widths closer than other kinds need to (seen parts, sans and mono fonts:
 * 0.006-0.023, the other signature kind 0.034-0.049; MINISTÉRIO DAS CIDADES 0.042-0.062).
 */
const MAX_SIGNATURE_DEVIATION = 0.03;
/** Their word gaps (seen parts: 1.25-4 on the lines taken; serif fonts' wrong cuts 1.0-1.2). */
const MIN_SIGNATURE_CLARITY = 1.25;

/** The signature kind `line` fits (the closer of the two, within MAX_SIGNATURE_DEVIATION), with its word boxes. */
export function signatureOf(line: InkLine): { kind: PrintedKind; words: Array<{ x0: number; x1: number }> } | null {
  const [a, b] = SIGNATURE_KINDS.map((kind) => fitOf(line, kind, MIN_SIGNATURE_CLARITY));
  const best = a.dev <= b.dev ? a : b;
  return best.dev <= MAX_SIGNATURE_DEVIATION ? { kind: best.kind, words: best.words } : null;
}

/** A line that makes a line of text rather than a speck: at least 3 glyphs and 3 of its heights wide. */
const substantial = (l: InkLine): boolean => l.glyphs.length >= 3 && l.x1 - l.x0 >= 3 * l.h;

/**
 * Lines of `img` (one card side, or a page of sides stacked) that are the card's fixed print, with the
 * kind each one is:
 * - header: the stack of left-aligned lines (left edges within 2 line heights, gaps under 2 line
 *   heights) that starts with the side's topmost line of text, at most four lines, of which at least
 *   two have a header kind's word widths, those in the header's order; only these are taken;
 * - notice: the side's lowest line of text when it has the notice's six word widths;
 * - signature: a line of small type alone under empty space or a line of value type, with nothing
 *   close below it, whose three word widths fit ASSINATURA DO PORTADOR or DO EMISSOR within 0.03.
 * Header and notice in the side's small type (at most 1.3 x its 20th percentile line height, CARTEIRA
 * 1.6 x), and the header only with at least two lines of value type below it (>= 1.35 x that height,
 * or x the header lines' own height where smaller). Anything else is left: a
 * name in value type further down can have a header line's widths (FRANCISCO RODRIGUES DA SILVA and
 * REPÚBLICA FEDERATIVA DO BRASIL), but it neither starts the side, nor stands in such a stack, nor is
 * in small type.
 */
export function printedLines(img: GrayImage, lines: InkLine[] = inkLines(img)): Array<{ line: InkLine; kind: PrintedKind; words: Array<{ x0: number; x1: number }> }> {
  let text = lines.filter(substantial);
  // A card side makes a few dozen lines; a page of hundreds is no card side (and its pairwise checks
  // below would grow with their square): nothing is taken.
  if (!text.length || text.length > MAX_LINES) return [];
  const out: Array<{ line: InkLine; kind: PrintedKind; words: Array<{ x0: number; x1: number }> }> = [];
  // Type sizes: the side's small type (labels, ~13 px cap height on the 820 px card) is the 20th
  // percentile of its lines' heights; header and notice lines are printed in it (CARTEIRA a little
  // larger), and a card side shows values in larger type (~1.6 x) below its header. Lines over 2.5 x
  // the small type are no card text (a screenshot's bar, a frame).
  const hs = text.map((l) => l.h).sort((a, b) => a - b);
  const small = hs[Math.floor(0.2 * (hs.length - 1))];
  const inSmallType = (l: InkLine, k: PrintedKind): boolean => l.h <= (k.text.startsWith('CARTEIRA') ? 1.6 : 1.3) * small;
  text = text.filter((l) => l.h <= 2.5 * small);
  // Header stack from the topmost line down.
  const top = text.reduce((a, b) => (b.y1 < a.y0 ? b : a));
  const stack = [top];
  for (const l of text) {
    const prev = stack[stack.length - 1];
    if (stack.length >= 4) break;
    if (l === prev || l.y0 <= prev.y1) continue;
    const h = Math.max(prev.h, l.h);
    if (l.y0 - prev.y1 < 2 * h && Math.abs(l.x0 - top.x0) < 2 * h) stack.push(l);
  }
  let order = -1;
  const header = stack.flatMap((line) => {
    const k = kindOf(line);
    if (!k || !k.kind.header || !inSmallType(line, k.kind)) return [];
    const i = PRINTED_KINDS.indexOf(k.kind);
    if (i <= order) return [];
    order = i;
    return [{ line, ...k }];
  });
  // Value type below: 1.35 x the small type, or x the header lines' own type where that is smaller
  // (blurred or small sides, where the labels do not all make lines and the 20th percentile is larger).
  const type = Math.min(small, ...header.map((f) => f.line.h));
  const valuesBelow = text.filter((l) => l.y0 > stack[stack.length - 1].y1 && l.h >= 1.35 * type).length;
  if (header.length >= 2 && valuesBelow >= 2) out.push(...header);
  // Notice: the lowest line.
  const bottom = text.reduce((a, b) => (b.y0 > a.y1 ? b : a));
  const k = kindOf(bottom);
  if (k && !k.kind.header && inSmallType(bottom, k.kind)) out.push({ line: bottom, ...k });
  // Signature lines: in small type, 8-24 of their heights wide (seen parts, 0.7 x width: 10.6-15),
  // not the side's lowest line, nothing within 3 heights below (the next line, LOCAL or the card number, stands 6-34 away), and
  // above no line of small type within 2.5 heights (the signature's space, or the issuer's DETRAN
  // line in value type); a header line has the header's lines right above and below it, a label its value.
  const taken = new Set(out.map((f) => f.line));
  const near = (l: InkLine, o: InkLine): boolean => o !== l && o.x1 >= l.x0 && o.x0 <= l.x1;
  for (const line of text) {
    const w = line.x1 - line.x0;
    if (taken.has(line) || line.h > 1.3 * small || w < 8 * line.h || w > 24 * line.h) continue;
    if (text.some((o) => near(line, o) && o.y0 > line.y1 && o.y0 - line.y1 < 3 * line.h)) continue;
    // The signature's label stands above more of the side (LOCAL, the card number, the notice): never
    // the side's lowest line, which on the 2022 front is RENACH and its number (heldout #26 fit the widths).
    if (!text.some((o) => o.y0 > line.y1)) continue;
    if (text.some((o) => near(line, o) && o.y1 < line.y0 && line.y0 - o.y1 < 2.5 * line.h && o.h < 1.3 * small)) continue;
    const s = signatureOf(line);
    if (s) out.push({ line, ...s });
  }
  return out;
}

/** Confidence given to the words of a line known by its shape (tesseract gives these clean lines 0.91-0.96). */
const PRINTED_WORD_CONFIDENCE = 0.9;

/**
 * Whitens, in place, the card's fixed print found by printedLines (whole lines: the line's box grown by
 * 0.6 of its height above for accents, 0.35 below for cedillas and 0.3 sideways, never into another line
 * of text; ink that makes no glyph there, a rule or a photo's edge, goes with it) and returns the words
 * printed there but its kind's `unsure` ones, one per word box found, in `img`'s px with
 * PRINTED_WORD_CONFIDENCE, so that what reads the words downstream (the CNH evidence of quality.ts
 * looksLikeCnh, the card model of layout.ts detectModel, the full text) still has them without
 * the recogniser reading them. The side's Otsu threshold is kept as it was (keepThreshold).
 */
export function whitenPrintedLines(img: GrayImage): OcrWord[] {
  const lines = inkLines(img);
  const found = printedLines(img, lines);
  const out: OcrWord[] = [];
  if (!found.length) return out;
  const hist = new Float64Array(256);
  for (let i = 0; i < img.data.length; i++) hist[img.data[i]]++;
  const threshold = otsuOfHistogram(hist);
  const taken = new Set(found.map((f) => f.line));
  for (const { line, kind, words } of found) {
    let top = Math.floor(line.y0 - 0.6 * line.h), bottom = Math.ceil(line.y1 + 0.35 * line.h);
    const left = Math.max(0, Math.floor(line.x0 - 0.3 * line.h)), right = Math.min(img.width - 1, Math.ceil(line.x1 + 0.3 * line.h));
    for (const o of lines) {
      if (taken.has(o) || o.x1 < left || o.x0 > right) continue;
      if (o.y1 < line.y0) top = Math.max(top, o.y1 + 1);
      else if (o.y0 > line.y1) bottom = Math.min(bottom, o.y0 - 1);
    }
    top = Math.max(0, top);
    bottom = Math.min(img.height - 1, bottom);
    for (let y = top; y <= bottom; y++) {
      for (let i = y * img.width + left; i <= y * img.width + right; i++) { hist[img.data[i]]--; img.data[i] = 255; }
      hist[255] += right - left + 1;
    }
    kind.text.split(' ').forEach((text, i) => {
      if (!kind.unsure?.includes(i)) out.push({ text, conf: PRINTED_WORD_CONFIDENCE, x0: words[i].x0, y0: line.y0, x1: words[i].x1 + 1, y1: line.y1 + 1 });
    });
  }
  keepThreshold(img.data, hist, threshold);
  return out;
}
