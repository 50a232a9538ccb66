/**
 * The card's own print found on the page before recognition (issue #17, speed): among the text lines
 * of the gray page found from its ink alone (ink-lines.ts), the lines that hold no field: the header
 * stack (REPÚBLICA FEDERATIVA DO BRASIL, MINISTÉRIO ..., DEPARTAMENTO NACIONAL DE TRÂNSITO, CARTEIRA
 * NACIONAL DE HABILITAÇÃO), the validity notice (VÁLIDA EM TODO O TERRITÓRIO NACIONAL) and the back's
 * signature lines (ASSINATURA DO PORTADOR / DO EMISSOR). A line is known by its words' count and
 * relative widths, its type size and where it stands among the side's lines (top of the stack, bottom
 * of the side), never by a fixed position. Pure functions on pixel buffers; no recognition here.
 */
import { keepThreshold, otsuOfHistogram } from './light.js';
import { inkLines, wordsOf, type InkLine } from './ink-lines.js';
import type { GrayImage } from './regions.js';
import type { OcrWord } from './words.js';

/** Most text lines a page may have for the card's fixed print to be looked for (card sides: at most 70). */
const MAX_LINES = 300;

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
