/**
 * Positioned words (from the recogniser or a PDF text layer) and their grouping into phrases:
 * horizontal runs of words on one text line, the unit labels and values are read from.
 */

/** One word: text, recogniser confidence 0..1 and its box in page pixels (x right, y down). */
export interface OcrWord {
  text: string;
  conf: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Read by the single-line second look under a label (its box height is not the type size). */
  reread?: boolean;
  /**
   * Every acute read over the word's capitals (Á, É, Ó) is one the ink shows clearly (glyph-accent.ts
   * mendMarks, clearAcute): spelling's circumflex rule does not overrule it (orthography.ts keepAcute).
   */
  acuteInk?: boolean;
  /**
   * A word read ending in AO whose ink shows nothing over the A (glyph-plain-ao.ts): printed without the
   * tilde, so spelling's -ÃO rule does not write one (orthography.ts plainAo).
   */
  plainInk?: boolean;
}

/** A horizontal run of words on one line (gaps below `maxGapRatio` x line height). */
export interface Phrase {
  words: OcrWord[];
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Median word height, px. */
  h: number;
}

/** The upper median of `xs` (the middle value, or the higher of the two middle ones); 0 when empty. */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

/** The median of `xs` (the middle value, or the mean of the two middle ones); 0 when empty. */
export const meanMedian = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b), mid = s.length / 2;
  return !s.length ? 0 : s.length % 2 ? s[Math.floor(mid)] : (s[mid - 1] + s[mid]) / 2;
};

/** Builds a phrase from words (sorted left to right). */
export function toPhrase(words: OcrWord[]): Phrase {
  const ws = [...words].sort((a, b) => a.x0 - b.x0);
  return {
    words: ws,
    text: ws.map((w) => w.text).join(' '),
    x0: Math.min(...ws.map((w) => w.x0)),
    y0: Math.min(...ws.map((w) => w.y0)),
    x1: Math.max(...ws.map((w) => w.x1)),
    y1: Math.max(...ws.map((w) => w.y1)),
    h: median(ws.map((w) => w.y1 - w.y0)),
  };
}

/**
 * Groups words into phrases: a word joins a phrase when its vertical centre lies within half a line
 * height of the phrase's last word and the horizontal gap is below `maxGapRatio` line heights.
 */
export function groupPhrases(words: OcrWord[], maxGapRatio = 2.2): Phrase[] {
  const ws = dedupe(words.filter((w) => w.text.trim() !== '')).sort((a, b) => a.x0 - b.x0);
  const open: OcrWord[][] = [];
  for (const w of ws) {
    const cy = (w.y0 + w.y1) / 2;
    const h = w.y1 - w.y0;
    let best = -1;
    let bestGap = Infinity;
    open.forEach((run, i) => {
      const last = run[run.length - 1];
      const lh = Math.max(h, last.y1 - last.y0);
      const lcy = (last.y0 + last.y1) / 2;
      const gap = w.x0 - last.x1;
      const sizeRatio = Math.max(h, last.y1 - last.y0) / Math.max(1, Math.min(h, last.y1 - last.y0));
      if (Math.abs(cy - lcy) < lh * 0.45 && (gap > -lh * 0.5 || inWideTail(w, last)) && gap < maxGapRatio * lh && sizeRatio < 1.9 && gap < bestGap) {
        best = i;
        bestGap = gap;
      }
    });
    if (best >= 0) open[best].push(w);
    else open.push([w]);
  }
  return open.flatMap(peelMarks).map(toPhrase).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/** Width of a capital letter, as a share of its type's height, under which no type prints its capitals on average (inWideTail). */
const MIN_CAP_WIDTH = 0.55;

/**
 * Whether `w` starts inside the back part of `last`'s box that `last`'s letters do not need: the
 * recogniser boxed a word over the ink of the next one as well and read that one too, on its own
 * ("MARGRIET" boxed 175 px for 8 letters over the VAN after it, VAN read at 0.96 inside it: final11
 * #80, the mother's VAN lost from her line). Only where the part of `last`'s box before `w` still
 * holds `last`'s letters at MIN_CAP_WIDTH x its height each, `w` ends near where `last` ends, and
 * `w` is not the end of `last` read twice.
 */
function inWideTail(w: OcrWord, last: OcrWord): boolean {
  const h = last.y1 - last.y0;
  const letters = last.text.replace(/[^\p{L}]/gu, '').length;
  const a = fold(last.text), b = fold(w.text);
  return letters >= 2 && /\p{L}{2}/u.test(w.text) && w.x0 > last.x0 && w.x1 <= last.x1 + h
    && w.x0 - last.x0 >= MIN_CAP_WIDTH * h * letters && !a.endsWith(b) && !b.startsWith(a);
}

/** A word the recogniser made of something else than type: see peelMarks. */
function isMark(w: OcrWord, typeH: number): boolean {
  const h = w.y1 - w.y0;
  if (!/[\p{L}\p{N}]/u.test(w.text)) return w.conf < 0.5 && h >= 0.8 * typeH;
  return w.conf < MARK_CONF && h > MARK_HEIGHT * typeH;
}
/** A lettered word under this confidence and taller than MARK_HEIGHT x its line's type is a mark (peelMarks). */
const MARK_CONF = 0.3;
const MARK_HEIGHT = 1.5;

/**
 * A run of words (left to right) with the marks at its ends put in runs of their own: an unsure word
 * without a letter or digit as tall as the line's type (a crease read "-" at 0.41, a stamp's border
 * read "|"), or an unsure lettered word far taller than the type (noise read "ERRADAS" at 0.17, 2.2 x
 * the type). They are no part of the line: left in it they stretch its box, so that the rest of the
 * line broken off after them is not joined to it (final10 #6: KOSLOWSKI PASTUCH starting under the
 * crease's "-") and the line no longer starts under its label (final10 #35: the mother's line boxed
 * from the card's left edge). Peeled from the ends only, while other words remain; the type is the
 * median height of the run's other words. Only in runs with a word of two letters or more.
 */
function peelMarks(run: OcrWord[]): OcrWord[][] {
  // Lines of words only (names, towns, labels): a number's line keeps its marks (final9 #3: a "—" left of
  // a misread registration number widened the box its second look read the whole number from).
  if (run.length < 2 || !run.some((w) => /[A-Za-zÀ-ÿ]{2}/.test(w.text))) return [run];
  const ws = [...run].sort((a, b) => a.x0 - b.x0);
  const peeled: OcrWord[][] = [];
  for (;;) {
    if (ws.length < 2) break;
    const typeOf = (skip: OcrWord): number => median(ws.filter((w) => w !== skip).map((w) => w.y1 - w.y0));
    const first = ws[0], last = ws[ws.length - 1];
    if (isMark(last, typeOf(last))) peeled.push([ws.pop() as OcrWord]);
    else if (isMark(first, typeOf(first))) peeled.push([ws.shift() as OcrWord]);
    else break;
  }
  return [ws, ...peeled];
}

/**
 * Drops words the recogniser reported twice over the same ink (boxes overlapping by more than 60% of
 * the smaller one): the longer reading wins, then the more confident.
 */
export function dedupe(words: OcrWord[]): OcrWord[] {
  const area = (w: OcrWord): number => Math.max(1, (w.x1 - w.x0) * (w.y1 - w.y0));
  const better = (a: OcrWord, b: OcrWord): boolean => a.text.length > b.text.length || (a.text.length === b.text.length && a.conf >= b.conf);
  const dropped = new Set<OcrWord>();
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j < words.length; j++) {
      const a = words[i], b = words[j];
      if (dropped.has(a) || dropped.has(b)) continue;
      const ix = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const iy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (ix <= 0 || iy <= 0 || ix * iy < 0.6 * Math.min(area(a), area(b))) continue;
      dropped.add(better(a, b) ? b : a);
    }
  }
  return dropped.size ? words.filter((w) => !dropped.has(w)) : words;
}

/** Reading-order text: phrases grouped into lines top to bottom, joined with newlines. */
export function readingText(phrases: Phrase[]): string {
  const lines: Phrase[][] = [];
  for (const p of [...phrases].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2)) {
    const cy = (p.y0 + p.y1) / 2;
    const line = lines.find((l) => Math.abs((l[0].y0 + l[0].y1) / 2 - cy) < Math.max(l[0].h, p.h) * 0.5);
    if (line) line.push(p);
    else lines.push([p]);
  }
  return lines.map((l) => l.sort((a, b) => a.x0 - b.x0).map((p) => p.text).join('  ')).join('\n');
}

/** Uppercase, accents stripped, ª/º/° -> A/O, for label matching. */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[ª]/g, 'A').replace(/[º°]/g, 'O').toUpperCase();
}

/** Levenshtein distance (small strings). */
export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}

/**
 * Value type height of a page (px): the upper quartile of the heights of confidently read words of two
 * characters or more (labels are the lower half, values the upper); 0 with fewer than 8 such words.
 */
export function valueHeight(words: OcrWord[]): number {
  const hs = words.filter((w) => w.conf >= 0.8 && w.text.length >= 2).map((w) => w.y1 - w.y0).sort((a, b) => a - b);
  return hs.length >= 8 ? hs[Math.floor(0.75 * (hs.length - 1))] : 0;
}

/** A lone stroke read at most this many of its left neighbour's heights after it touches it (joinGluedI). */
export const GLUED_GAP = 0.15;

/**
 * A phrase with each lone stroke read as its own word ("l", "I", "|") that touches the capitals' word
 * before it (gap at most GLUED_GAP x that word's height, its height 0.8-1.25 x the word's) joined to
 * that word as its last letter I: the recogniser split a word at its final I and read the I apart,
 * often at confidence 0 ("AHMADZA" + "l" at 0.00 for AHMADZAI, final14 #36, monospaced type). A printed
 * space is a third of the type's height or more; the joined word keeps the lower confidence.
 */
export function joinGluedI(p: Phrase): Phrase {
  const out: OcrWord[] = [];
  let changed = false;
  for (const w of p.words) {
    const prev = out[out.length - 1];
    const h = prev ? prev.y1 - prev.y0 : 0;
    const wh = w.y1 - w.y0;
    if (prev && /^[lI|]$/.test(w.text) && /^[A-ZÀ-Ý'-]{3,}$/.test(prev.text) && w.x0 - prev.x1 <= GLUED_GAP * h && wh >= 0.8 * h && wh <= 1.25 * h) {
      out[out.length - 1] = { ...prev, text: `${prev.text}I`, conf: Math.min(prev.conf, w.conf), x0: prev.x0, y0: Math.min(prev.y0, w.y0), x1: Math.max(prev.x1, w.x1), y1: Math.max(prev.y1, w.y1) };
      changed = true;
    } else out.push(w);
  }
  return changed ? toPhrase(out) : p;
}

/** A gap between two capital words at most this share of the phrase's other gaps (their median) is inside a word (joinSplitWords)... */
export const SPLIT_GAP_SHARE = 0.5;
/** ...and at most this many of the words' height: a printed space is a third of the type's height or more. */
export const SPLIT_GAP_MAX = 0.25;
/** Particles of Portuguese names: never joined to a neighbour (joinSplitWords). */
const NAME_PARTICLE = /^(D[AEIOU]S?|E|Y)$/;
/**
 * Two consonants that end a syllable and begin the next inside a word, and begin no name in the languages a
 * CNH's names come from (joinSplitWords): a word starting so is a word's second half.
 */
const SPLIT_ONSET = /^(N[TDSCÇQJ]|R[TDNSCMLGP]|L[TDSMNCGP]|M[PN]|S[SÇ])/;

/**
 * A phrase with two capital words the recogniser split inside one word joined back: their gap at most
 * SPLIT_GAP_SHARE of the median of the phrase's other gaps between capital words (at least two of them) and
 * at most SPLIT_GAP_MAX of their height, the two of about one height (0.8-1.25), neither a particle, and
 * neither a word of its own (the first of one or two letters, the second starting with two consonants that
 * begin no name: SPLIT_ONSET). A line of names is printed with one space width, so a gap half as wide is
 * the letters' own spacing (final30 #17: GENTIL read "GE" + "NTIL" at 0.96 and 0.92, 3.3 px apart, its other
 * gaps 7-8 px, capitals 21 px: the father's name "GE NTIL ODENILDO ..." at 0.821). The joined word keeps the
 * lower confidence.
 */
export function joinSplitWords(p: Phrase): Phrase {
  const capital = (w: OcrWord): boolean => /^[A-ZÀ-Ý'-]{1,}$/.test(w.text);
  const gaps: number[] = [];
  for (let i = 1; i < p.words.length; i++) if (capital(p.words[i - 1]) && capital(p.words[i])) gaps.push(p.words[i].x0 - p.words[i - 1].x1);
  if (gaps.length < 3) return p;
  const out: OcrWord[] = [];
  let changed = false;
  for (const w of p.words) {
    const prev = out[out.length - 1];
    if (prev && capital(prev) && capital(w) && !NAME_PARTICLE.test(prev.text) && !NAME_PARTICLE.test(w.text)) {
      const gap = w.x0 - prev.x1, h = prev.y1 - prev.y0, wh = w.y1 - w.y0;
      const others = [...gaps];
      const at = others.indexOf(gap);
      if (at >= 0) others.splice(at, 1);
      const m = median(others);
      // A box's gap alone does not tell (final30 #26: ALCIDÉIA and JATENE 4 px apart, its other gaps 9-10, the
      // recogniser's boxes of a tilted line): two halves that are no words are needed too. A piece misread
      // where the recogniser broke the word ("KI UIPERS" for KUIPERS, final11 #36) is left apart, to be
      // doubted (line-gaps.ts tightGap), not joined into a sure wrong word.
      const half = prev.text.length <= 2 && SPLIT_ONSET.test(w.text);
      if (half && gap <= SPLIT_GAP_SHARE * m && gap <= SPLIT_GAP_MAX * h && wh >= 0.8 * h && wh <= 1.25 * h) {
        out[out.length - 1] = { ...prev, text: prev.text + w.text, conf: Math.min(prev.conf, w.conf), y0: Math.min(prev.y0, w.y0), x1: Math.max(prev.x1, w.x1), y1: Math.max(prev.y1, w.y1) };
        changed = true;
        continue;
      }
    }
    out.push(w);
  }
  return changed ? toPhrase(out) : p;
}
