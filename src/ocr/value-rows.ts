/**
 * Name and birth lines read again whole (index.ts secondLooks, after the suspects): a stain, a glare's
 * veil or a blotch of blur over part of a value line makes tesseract's sparse page pass drop the words
 * under it, or the line's label with them, while the line itself is legible (final8 #28: "JACÓ TADEU DA
 * FARO GÓIS" read "JA€" and "A FARO GÓIS", its label unread; #37: "S BUENO QUINTANILHA" for MERCEDES
 * BUENO QUINTANILHA under a stain; #52: "LUCIANO" and "FARO FREIRE" with MESSIAS DOS between them unread;
 * #48: "PANTO]," for PANTOJA RIOS at a stain's edge). Cut out alone as one line, its paper evened
 * (light.ts evenPaper: the blotch divided out) and read as a single line, each of those reads whole at
 * 0.79-0.96 a word. Only lines that show such a loss are read (a hole between words, a word with a mark
 * no name has, a word under WEAK_WORD, a line that starts right of where its column does, a birth line
 * without its state); one small recognition each, at most MAX_ROW_REREADS a page.
 */
import sharp from 'sharp';
import { CUT_PAD, grayOf, HAS_TEXT, paddedCut } from './cuts.js';
import { mendMarks } from './glyph-accent.js';
import { mendInkMarks } from './glyph-below.js';
import type { Gray } from './glyph-i.js';
import { detectModel, findLabels, labelCapHeight, labelHeight, valueBelow, type FoundLabel } from './layout.js';
import { evenPaper } from './light.js';
import { BIRTH_LINE, BIRTH_START, single, UFS } from './normalize.js';
import { markedNameWord } from './doubts.js';
import { parentLines } from './parents.js';
import { mendReadT } from './second-looks.js';
import { SEGMENTATION, type Recognizer } from './pool.js';
import type { PreparedImage } from './preprocess.js';
import { groupPhrases, median, type OcrWord, type Phrase } from './words.js';

/** A gap between two words of a name line wider than this many of its type heights held a word that was not read (spaces are 0.3-0.5). */
export const ROW_HOLE = 1.5;
/** A word of a name line read under this is worth reading the line again for. */
export const WEAK_WORD = 0.6;
/** At most this many lines are read again per page (the name, two parents, the birth line). */
export const MAX_ROW_REREADS = 4;
/** The cut reaches this many type heights right of the line's last word read (words lost at its end). */
const ROW_REACH = 8;
/** A word this many type heights or more after the last one taken is another column's (a line's words: a hole of MESSIAS DOS was 8.8). */
const ROW_WALK = 12;
/** The evened cut is read this many times enlarged (the stain's edge read as an accent over PANTOJA at 1 x: final8 #48). */
const ROW_SCALE = 2;
/** A new word under ROW_MIN_CONF is taken when at least this sure and it completes a word the old line cut short ("NAS:" -> NASSAR). */
const COMPLETED_CONF = 0.3;
/** A new reading's words must each be read at least this sure. */
const ROW_MIN_CONF = 0.5;
/** Words read at least this sure in the old line must all be in the new reading. */
const SURE_WORD = 0.85;

/** A name word as printed: capitals (accents kept), apostrophes and hyphens inside, a trailing comma. */
const NAME_WORD = /^[A-ZÀ-ÖØ-Ý][A-ZÀ-ÖØ-Ý'-]*,?$/;

/** Whether `text` is a whole birth line with a state among the 27. */
export const isBirthRow = (text: string): boolean => UFS.has(BIRTH_LINE.exec(single(text))?.[1] ?? '');

type Kind = 'name' | 'birth';

/** A value line to look at: its words, the column's left edge (a label's or an anchor's x0), its kind. */
interface Row { words: OcrWord[]; left: number; kind: Kind }

/** Median top, bottom and height of a line's words read at WEAK_WORD or over (all its words when none). */
function band(ws: OcrWord[]): { top: number; bottom: number; h: number } {
  const sure = ws.filter((w) => w.conf >= WEAK_WORD && HAS_TEXT.test(w.text));
  const use = sure.length ? sure : ws;
  const top = median(use.map((w) => w.y0)), bottom = median(use.map((w) => w.y1));
  return { top, bottom, h: Math.max(1, bottom - top) };
}

/**
 * The words on the line of `seed` (their vertical centre within half its height of the seed's) that are
 * not labels' and not far taller than it, left to right, from `left` - 1 type height on; a word more
 * than ROW_REACH type heights after the last one taken ends the line (another column).
 */
function rowWords(seed: Phrase, words: OcrWord[], labelWords: Set<OcrWord>, left: number, right: number): OcrWord[] {
  const { top, bottom, h } = band(seed.words);
  const cy = (top + bottom) / 2;
  const on = words
    .filter((w) => !labelWords.has(w) && Math.abs((w.y0 + w.y1) / 2 - cy) < 0.5 * h && w.y1 - w.y0 < 2 * h && w.x0 >= left - h && w.x1 <= right)
    .sort((a, b) => a.x0 - b.x0);
  const out: OcrWord[] = [];
  for (const w of on) {
    if (out.length && w.x0 - out[out.length - 1].x1 > ROW_WALK * h) break;
    out.push(w);
  }
  return out;
}

/** Why a line is worth reading again (empty: it is not). */
function loss(row: Row): boolean {
  const ws = row.words.filter((w) => HAS_TEXT.test(w.text));
  if (!ws.length) return false;
  const { h } = band(ws);
  if (row.kind === 'birth') return !isBirthRow(ws.map((w) => w.text).join(' '));
  const hole = ws.some((w, i) => i > 0 && w.x0 - ws[i - 1].x1 > ROW_HOLE * h);
  const startLost = ws[0].x0 > row.left + 3 * h;
  return hole || startLost || ws.some((w) => markedNameWord(w.text) || w.conf < WEAK_WORD);
}

/** (mean + weakest) / 2 of words of two characters or more (doubts.ts valueConfidence's rule). */
function lineConf(ws: OcrWord[]): number {
  const long = ws.filter((w) => w.text.length > 1);
  const use = long.length ? long : ws;
  if (!use.length) return 0;
  return (use.reduce((s, w) => s + w.conf, 0) / use.length + Math.min(...use.map((w) => w.conf))) / 2;
}

/**
 * A name line read again, each new word that reads otherwise a word of the old line under it (three
 * letters or more, no mark, not the same letters nor the same with letters lost at either end) at the
 * lower of the two confidences: two readings disagree, and the ink did not tell which is right (final6
 * #47: UCHIDA read 0.52, then "UCMIDA" 0.83 in the line read again; the father would have been returned
 * at 0.87).
 */
export function disputed(old: OcrWord[], found: OcrWord[]): OcrWord[] {
  const letters = (t: string): string => t.replace(/[^A-Za-zÀ-ÿ]/g, '');
  return found.map((w) => {
    const o = old.find((x) => letters(x.text).length >= 3 && !markedNameWord(x.text) && Math.min(x.x1, w.x1) - Math.max(x.x0, w.x0) > 0.5 * Math.min(x.x1 - x.x0, w.x1 - w.x0));
    if (!o) return w;
    const a = letters(o.text), b = letters(w.text);
    return a === b || b.startsWith(a) || b.endsWith(a) ? w : { ...w, conf: Math.min(w.conf, o.conf) };
  });
}

/** Whether `subset`'s texts appear in `all`'s in order (a trailing comma aside). */
function inOrder(subset: string[], all: string[]): boolean {
  let i = 0;
  const bare = (t: string): string => t.replace(/,$/, '');
  for (const t of all) if (i < subset.length && bare(t) === bare(subset[i])) i++;
  return i === subset.length;
}

/**
 * Whether a new reading of a line replaces its old words: every word read at ROW_MIN_CONF or over;
 * for a name, two words or more, all printed name words, the old line's sure words (SURE_WORD) among
 * them in order, reaching as far left and right as the old line (within a type height) and at least
 * as sure on the whole (lineConf), or making whole a word the old line cut short (its letters the start
 * of a longer word read at COMPLETED_CONF or over: the value then takes that word's low confidence); for a birth line, a whole birth line (date, town, state) where the
 * old one was not.
 */
export function takesRow(kind: Kind, old: OcrWord[], found: OcrWord[], h: number): boolean {
  const letters = (t: string): string => t.replace(/[^A-Za-zÀ-ÿ]/g, '');
  // A word read unsure that is an old word cut short made whole ("NAS:" read NASSAR at 0.47): taken at its own confidence.
  const completes = (w: OcrWord): boolean => w.conf >= COMPLETED_CONF && old.some((o) => letters(o.text).length >= 2 && letters(w.text).length > letters(o.text).length && letters(w.text).startsWith(letters(o.text)));
  if (!found.length || found.some((w) => w.conf < ROW_MIN_CONF && !completes(w))) return false;
  const text = found.map((w) => w.text);
  if (kind === 'birth') return isBirthRow(text.join(' ')) && !isBirthRow(old.map((w) => w.text).join(' '));
  if (found.length < 2 || !text.every((t) => NAME_WORD.test(t))) return false;
  const sure = old.filter((w) => w.conf >= SURE_WORD && NAME_WORD.test(w.text) && w.text.length > 1).map((w) => w.text);
  if (!inOrder(sure, text)) return false;
  const ox0 = Math.min(...old.map((w) => w.x0)), ox1 = Math.max(...old.map((w) => w.x1));
  const nx0 = Math.min(...found.map((w) => w.x0)), nx1 = Math.max(...found.map((w) => w.x1));
  return nx0 <= ox0 + h && nx1 >= ox1 - h && (lineConf(found) >= lineConf(old) || found.some((w) => w.conf < ROW_MIN_CONF && completes(w)));
}

/** A name word whose first letter may be a vertical rule read as a letter (I, l, |, 1 before a capital). */
const RULE_INITIAL = /^[Il|1][A-ZÀ-ÖØ-Ý]{2,}/;
/** Share of a column's pixels, over RULE_SPAN of the word's heights above and below it, dark enough for a rule. */
const RULE_DARK = 0.9;
/** How far above and below its word (in the word's heights) a rule's column runs on. */
const RULE_SPAN = 1;

/**
 * Whether the first letter of `w` is a vertical rule (a frame or the photo's edge) and no letter: a
 * column within 0.3 of the word's height of its left edge is dark (under 128) on RULE_DARK of the rows
 * from RULE_SPAN heights above the word to as far below it. A letter's stem ends with its line. The
 * value layer printed against the photo's frame read "IDAGOBERTO" at 0.92 for DAGOBERTO (final8 #26:
 * the frame's 1 px line 5 px left of the D, dark over the whole photo's height). Pixels only.
 */
export function ruleAt(g: Gray, w: OcrWord): boolean {
  const h = w.y1 - w.y0;
  if (h < 8) return false;
  const y0 = Math.max(0, Math.floor(w.y0 - RULE_SPAN * h)), y1 = Math.min(g.height - 1, Math.ceil(w.y1 + RULE_SPAN * h));
  // The span must reach past the word on both sides (a word at the page's edge is not judged).
  if (w.y0 - y0 < 0.8 * RULE_SPAN * h || y1 - w.y1 < 0.8 * RULE_SPAN * h) return false;
  for (let x = Math.max(0, Math.floor(w.x0 - 0.3 * h)); x <= Math.min(g.width - 1, Math.ceil(w.x0 + 0.3 * h)); x++) {
    let dark = 0;
    for (let y = y0; y <= y1; y++) if (g.data[y * g.width + x] < 128) dark++;
    if (dark >= RULE_DARK * (y1 - y0 + 1)) return true;
  }
  return false;
}

/**
 * Region `box` of the page cut out, padded (cuts.ts paddedCut), its paper evened (light.ts evenPaper)
 * and enlarged ROW_SCALE times (cubic).
 */
async function evenedCut(png: Buffer, box: { left: number; top: number; width: number; height: number }): Promise<Buffer> {
  const cut = await paddedCut(png, box);
  const { data, info } = await sharp(cut).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const px = new Uint8Array(data.buffer, data.byteOffset, data.length);
  evenPaper(px, info.width, info.height);
  return sharp(px, { raw: { width: info.width, height: info.height, channels: 1 } }).resize({ width: info.width * ROW_SCALE, kernel: 'cubic' }).png({ compressionLevel: 1 }).toBuffer();
}

/** A word's box read in an evenedCut whose region's corner is (`left`, `top`) on the page. */
const placed1 = (w: OcrWord, left: number, top: number): Pick<OcrWord, 'x0' | 'x1' | 'y0' | 'y1'> =>
  ({ x0: w.x0 / ROW_SCALE - CUT_PAD + left, x1: w.x1 / ROW_SCALE - CUT_PAD + left, y0: w.y0 / ROW_SCALE - CUT_PAD + top, y1: w.y1 / ROW_SCALE - CUT_PAD + top });

/**
 * The lines to look at on a page: the holder's name (under NOME; without the label, the value line
 * right above the next field's label or the 2022 birth line, on the older card right above DOC.
 * IDENTIDADE), the parents (under FILIAÇÃO) and the 2022 birth line (under field 3's label, or the
 * line that starts with a date and a comma).
 */
function rowsOf(words: OcrWord[], sideOf: (x: number) => [number, number]): Row[] {
  const phrases = groupPhrases(words);
  const labels = findLabels(phrases);
  const labelPhrases = new Set([...labels.values()].map((l) => l.phrase));
  const labelWords = new Set([...labelPhrases].flatMap((p) => p.words));
  const lh = Math.max(4, labelHeight(labels)), ch = labelCapHeight(labels);
  const model = detectModel(labels, words.map((w) => w.text).join(' '));
  const below = (l: FoundLabel | undefined, n = 1): Phrase[] => (l ? valueBelow(l, phrases, labelPhrases, n, lh, ch) : []);
  const rows: Row[] = [];
  const add = (seed: Phrase | undefined, left: number, kind: Kind): void => {
    if (!seed) return;
    const [s0, s1] = sideOf((seed.x0 + seed.x1) / 2);
    const ws = rowWords(seed, words, labelWords, Math.max(s0, Math.min(left, seed.x0)), s1);
    if (ws.length && !rows.some((r) => r.words.some((w) => ws.includes(w)))) rows.push({ words: ws, left: Math.max(s0, Math.min(left, seed.x0)), kind });
  };
  const birthLabel = labels.get('nascimento3');
  const birthSeed = model !== '2022' ? undefined : birthLabel ? below(birthLabel)[0] : phrases.find((p) => !labelPhrases.has(p) && BIRTH_START.test(p.words[0].text));
  const nome = labels.get('nome');
  if (nome) add(below(nome)[0], nome.phrase.x0, 'name');
  else {
    // Label unread: the value line right above the next field's label (or the birth line), within 5 label heights.
    const anchor = model === '2022' ? (birthLabel?.phrase ?? birthSeed) : labels.get('identidade')?.phrase;
    if (anchor) {
      const seed = phrases
        .filter((p) => !labelPhrases.has(p) && p.h >= 1.2 * lh && p.y1 <= anchor.y0 + 0.3 * lh && p.y1 > anchor.y0 - 5 * lh && p.x1 > anchor.x0 - 3 * lh && p.x0 < anchor.x0 + 40 * lh && /[A-Za-zÀ-ÿ]{2}/.test(p.text))
        .sort((a, b) => b.y1 - a.y1)[0];
      add(seed, anchor.x0, 'name');
    }
  }
  const fil = labels.get('filiacao');
  // The parents' lines as fields.ts finds them (parents.ts: the block under a label box grown by blur).
  if (fil) for (const p of parentLines(fil, below(fil, 2), phrases, labelPhrases, lh).lines) add(p, fil.phrase.x0, 'name');
  if (birthSeed) add(birthSeed, birthLabel?.phrase.x0 ?? birthSeed.x0, 'birth');
  return rows;
}

/**
 * Value lines that lost words (see the header) read again whole: cut from a type height left of their
 * column (or of their first word, if further left) to ROW_REACH type heights past their last word (on
 * their side of `splitX`), their band grown by 0.35 of its height above and below, paper evened, read as
 * a single line. The new words (boxes on the page) replace the line's when takesRow says so; the
 * line's words are kept otherwise.
 */
export async function rereadValueRows(rec: Recognizer, prep: PreparedImage, words: OcrWord[]): Promise<OcrWord[]> {
  const split = prep.splitX;
  const sideOf = (x: number): [number, number] => (split === undefined ? [0, prep.width] : x < split ? [0, split] : [split, prep.width]);
  // A name's first letter that is a rule beside it (the photo's frame read as an I), in the page
  // pass's words and in a line read again (whose cut may reach the frame: tuning #11's "ISANDRA").
  let gray: Gray | undefined;
  const mendRules = async (ws: OcrWord[]): Promise<OcrWord[]> => {
    const initials = rowsOf(ws, sideOf).filter((r) => r.kind === 'name').map((r) => r.words.find((w) => HAS_TEXT.test(w.text))).filter((w): w is OcrWord => !!w && RULE_INITIAL.test(w.text));
    if (!initials.length) return ws;
    gray ??= await grayOf(prep);
    const g = gray;
    const mended = new Map(initials.filter((w) => ruleAt(g, w)).map((w) => [w, { ...w, text: w.text.slice(1) }]));
    return mended.size ? ws.map((w) => mended.get(w) ?? w) : ws;
  };
  words = await mendRules(words);
  const rows = rowsOf(words, sideOf).filter(loss).slice(0, MAX_ROW_REREADS);
  let out = words;
  for (const row of rows) {
    const ws = row.words.filter((w) => HAS_TEXT.test(w.text));
    const { top, bottom, h } = band(ws);
    const [s0, s1] = sideOf((ws[0].x0 + ws[ws.length - 1].x1) / 2);
    const left = Math.max(s0, Math.floor(Math.min(row.left, ws[0].x0) - h));
    const right = Math.min(s1, Math.ceil(ws[ws.length - 1].x1 + ROW_REACH * h));
    const y0 = Math.max(0, Math.floor(top - 0.35 * h)), y1 = Math.min(prep.height, Math.ceil(bottom + 0.35 * h));
    if (right - left < 8 || y1 - y0 < 8) continue;
    const read = (await rec.words(await evenedCut(prep.png, { left, top: y0, width: right - left, height: y1 - y0 }), SEGMENTATION.line)).filter((w) => HAS_TEXT.test(w.text));
    // A birth line's state read with a mark after it ("PR." at a stain's edge) is the state.
    const tidy = (w: OcrWord, i: number): OcrWord => (row.kind === 'birth' && i === read.length - 1 ? { ...w, text: w.text.replace(/[.:;…]+$/, '') } : w);
    const placed = read.map(tidy).map((w) => ({ ...w, ...placed1(w, left, y0) }));
    // Specks read unsure past either end of the old line are not the line's words.
    const x0 = ws[0].x0 - h, x1 = ws[ws.length - 1].x1 + h;
    // A capital I the line's new reading took for a T is mended as in the page pass's words
    // (second-looks.ts mendReadT: final5 #3's OTONIEL, mended there, read "OTONTEL" again here).
    const kept = placed.filter((w) => w.conf >= ROW_MIN_CONF || (w.x1 > x0 && w.x0 < x1));
    gray ??= await grayOf(prep);
    // Its marks too, as the page pass's (glyph-accent.ts, glyph-foreign.ts: final13 #56's YOLÈNE read "YOLENE" here again; glyph-below.ts: final17 #36's SKUJIŅA).
    const found = kept.length ? mendInkMarks(gray, mendMarks(gray, mendReadT(gray, [...out.filter((w) => !row.words.includes(w)), ...kept]).slice(-kept.length))) : kept;
    if (!takesRow(row.kind, ws, found, h)) continue;
    out = [...out.filter((w) => !row.words.includes(w)), ...(row.kind === 'name' ? disputed(ws, found) : found).map((w) => ({ ...w, reread: true }))];
  }
  return out === words ? out : mendRules(out);
}
