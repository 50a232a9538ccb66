/**
 * CNH reader: sniff -> (PDF text layer | preprocess + recognise) -> phrases -> fields.
 * `createCnhReader` (reader-thread.ts) starts the reader on its own thread, which starts the
 * tesseract.js pool once (`startCnhReaderInThread`); `read` holds one recogniser per document.
 */
import { CNH_FIELD_NAMES, NAME_FIELDS, NOT_A_CNH, OcrError, type CnhFieldName, type CnhReader, type CnhReadResult } from './engine.js';
import { extractFields, LOW_CONFIDENCE } from './fields.js';
import { DEFAULT_OCR_BUDGET, INVALID_DOCUMENT_MESSAGE, type OcrBudget } from './budget.js';
import { DecodePool, type DecodeSession } from './decode-pool.js';
import { sniffMime, type DocumentMime } from './input.js';
import { portugueseModel, RecognizerPool, SEGMENTATION, type OcrModel, type Recognizer } from './pool.js';
import { DARK_CONTRAST, mendCutWords, mergeReadings, readingMisses, secondFullWidth, secondRead, SMALL_CARD_CLIP, SMALL_CARD_PX, softSmallCard } from './second-read.js';
import { rereadEmptyValues, rereadLoneLetters, rereadMergedLines, rereadSuspects } from './second-looks.js';
import { rereadValueRows } from './value-rows.js';
import { rereadTallWords } from './tall-words.js';
import { clearBorderInk, columns, toPgm, type GrayImage } from './regions.js';
import { grayPage } from './cuts.js';
import { evenPaper } from './light.js';
import { whitenPrintedLines } from './printed-lines.js';
import type { PrepareOptions, PreparedImage } from './preprocess.js';
import sharp from 'sharp';
import { GRATING_PEAK } from './grating.js';
import { CORE_FIELDS, looksLikeCnh, readingGrade, worseGrade, type QualityGrade } from './quality.js';
import { fold, groupPhrases, readingText, type OcrWord } from './words.js';

/** The validity flag each field carries even when empty (spec: cpf `valido`, dates `valida`). */
const FLAG_OF: Partial<Record<CnhFieldName, { valido?: false; valida?: false }>> = {
  cpf: { valido: false }, data_nascimento: { valida: false }, data_validade: { valida: false }, data_emissao: { valida: false }, data_primeira_habilitacao: { valida: false },
};

export { OcrError } from './engine.js';
export type { CnhReader, CnhReadResult, CnhField, CnhFieldName } from './engine.js';
export { CNH_FIELD_NAMES, NOT_A_CNH } from './engine.js';
export { LOW_CONFIDENCE } from './fields.js';
export { createCnhReader } from './reader-thread.js';
export { MAX_LONE_LETTER_REREADS, rereadLoneLetters } from './second-looks.js';

export interface CnhReaderOptions {
  /** Recogniser workers; default: number of cores. */
  poolSize?: number;
  /** Documents waiting beyond the busy workers before UNAVAILABLE is thrown; default 2 x poolSize. */
  maxQueue?: number;
  /** Per-document budget of the decode stage (time, pixels, memory); default DEFAULT_OCR_BUDGET. */
  budget?: Partial<OcrBudget>;
  /** Recognition model (pool.ts portugueseModel); default: the npm package's ('fast' only for the bench's comparison). */
  model?: OcrModel['id'];
}

/** Image preparation, run on a decode worker under the document's budget. */
export type Prepare = (bytes: Uint8Array, options?: PrepareOptions) => Promise<PreparedImage>;

/**
 * How strongly a grating stands out over the upright card crop of `bytes` (preprocess.ts
 * surveyCardGrating, on a decode worker: DecodeSession.survey); GRATING_PEAK and more: moiré across the page.
 */
export type Survey = (bytes: Uint8Array) => Promise<number>;

/** Fewer labels than this on the first pass triggers a second pass turned 180 degrees (then mirrored ones: ORIENTATIONS). */
const MIN_LABELS = 4;
/** The page's other orientations, in the order they are read while fewer than MIN_LABELS labels are found. */
const ORIENTATIONS: { extraTurnDeg: number; mirrored: boolean }[] = [
  { extraTurnDeg: 180, mirrored: false }, { extraTurnDeg: 0, mirrored: true }, { extraTurnDeg: 180, mirrored: true },
];
const GRADES: QualityGrade[] = ['excelente', 'boa', 'regular', 'ruim'];

/**
 * A page's words; `second`: the words of a second reading with another preparation (second-read.ts), when one was due;
 * `degrated`: read from a preparation with a grating notched out (grating.ts).
 */
interface PageText { words: OcrWord[]; grade: QualityGrade; heightPx: number; second?: OcrWord[]; third?: OcrWord[]; degrated?: boolean }

/**
 * Confidence cap of a name read from a page whose grating was notched out (grating.ts): the notch takes
 * out the grating's period, 4-12 px, which is the size of the marks over and under letters (Ć's acute,
 * Ư's horn, Ạ's dot), and the tiles' seams ring there; whether a mark was read or lost on such a page is
 * not sure (final20 #31's "HUONG HORVAT MAC" 0.825 for HƯƠNG HORVAT MẠC, #75's STOJANOVIÉ 0.874).
 */
export const DEGRATED_NAME_CAP = 0.75;

/**
 * Words of a prepared page (boxes in the prepared image's px), read narrowed to the model's
 * `pageSqueeze` of its width (pool.ts portugueseModel: the recogniser's time grows with the width in
 * px of the lines it reads, hardly with their height, so the npm model reads at 0.7 x width with the
 * full height small label type needs), after the ink touching the page's border is cleared
 * (regions.ts clearBorderInk: card edges and corners otherwise read as page-wide lines of noise). Two
 * sides next to each other are cut at `splitX` and recognised in parallel when a second worker is
 * free (sequentially otherwise). Pages go to the recogniser as PGM (no PNG compression round trip).
 * `s` overrides the squeeze (1: full width, a blurred page's second reading, second-read.ts).
 */
async function pageWords(recs: Recognizer[], prep: PreparedImage, s = recs[0].model.pageSqueeze): Promise<{ words: OcrWord[]; evened: boolean }> {
  const width = Math.max(1, Math.round(prep.width * s));
  const page = await grayPage(s === 1 ? sharp(prep.png) : sharp(prep.png).resize({ width, height: prep.height, fit: 'fill', kernel: 'lanczos3' }));
  // A fill refused for running too far met dark light falloff along the border (vignetting): the
  // paper is evened out first, then the border's ink is cleared.
  const evened = clearBorderInk(page) < 0;
  if (evened) {
    evenPaper(page.data, page.width, page.height);
    clearBorderInk(page);
  }
  const back = (w: OcrWord, dx: number): OcrWord => ({ ...w, x0: (w.x0 + dx) / s, x1: (w.x1 + dx) / s });
  // The card's fixed print (header, validity notice, signature labels) is whitened and its words given without reading them (printed-lines.ts).
  const read = async (rec: Recognizer, side: GrayImage): Promise<OcrWord[]> => { const printed = whitenPrintedLines(side); return [...await rec.words(toPgm(side), SEGMENTATION.sparse), ...printed]; };
  if (prep.splitX === undefined) return { words: (await read(recs[0], page)).map((w) => back(w, 0)), evened };
  const x = Math.round(prep.splitX * s);
  const left = columns(page, 0, x), right = columns(page, x, page.width);
  const [a, b] = recs.length > 1
    ? await Promise.all([read(recs[0], left), read(recs[1], right)])
    : [await read(recs[0], left), await read(recs[0], right)];
  return { words: [...a.map((w) => back(w, 0)), ...b.map((w) => back(w, x))], evened };
}

/** The prepared page with its paper evened out (light.ts evenPaper), for the second looks' cuts. */
async function evenedPage(prep: PreparedImage): Promise<PreparedImage> {
  const page = await grayPage(sharp(prep.png));
  evenPaper(page.data, page.width, page.height);
  const png = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
  return { ...prep, png };
}

/**
 * Second looks (second-looks.ts) on a page read by the page pass: boxes that swallowed two lines (and a
 * line's first word that swallowed the label tight over it: tall-words.ts),
 * values missed under found labels, values that failed their format, name and birth lines that lost
 * words (value-rows.ts), unsure lone letters; cut from the page as the recogniser read it (evened where
 * the page pass evened it).
 */
async function secondLooks(recs: Recognizer[], prep: PreparedImage, words: OcrWord[], evened: boolean): Promise<OcrWord[]> {
  if (evened) prep = await evenedPage(prep);
  words = await rereadMergedLines(recs[0], prep, words);
  words = await rereadTallWords(recs[0], prep, words);
  words = await rereadEmptyValues(recs[0], prep.png, words, prep.width, prep.height, prep.splitX);
  words = await rereadSuspects(recs[0], prep, words);
  words = await rereadValueRows(recs[0], prep, words);
  return rereadLoneLetters(recs[0], prep, words);
}

/** Fields of a page's words alone (its reading order as the full text). */
const fieldsOf = (words: OcrWord[]): ReturnType<typeof extractFields> => extractFields(groupPhrases(words), words.map((w) => w.text).join(' '));

/** Full text without the recogniser's noise from backgrounds (words under 25% confidence). */
const textOf = (words: OcrWord[]): string => readingText(groupPhrases(words.filter((w) => w.conf >= 0.25)));

/** Fields of a document's words, as the reader answers them (full text without the noise: textOf). */
const documentFields = (words: OcrWord[], textLayer = false): ReturnType<typeof extractFields> => extractFields(groupPhrases(words), textOf(words), textLayer);

/** Words with their boxes scaled by `kx`, `ky` (1: the same words). */
const rescaled = (words: OcrWord[], kx: number, ky: number): OcrWord[] =>
  (kx === 1 && ky === 1 ? words : words.map((w) => ({ ...w, x0: w.x0 * kx, x1: w.x1 * kx, y0: w.y0 * ky, y1: w.y1 * ky })));

/**
 * A card small in the frame (second-read.ts SMALL_CARD_PX) whose first reading found at least
 * SMALL_CARD_CORE core fields: shown well enough for a second reading even when its labels were too
 * small to read and the page did not pass looksLikeCnh (final4 #3: no label, CPF and registration
 * number read with their check digits).
 */
const SMALL_CARD_CORE = 2;
function smallCardShown(prep: PreparedImage, campos: ReturnType<typeof extractFields>['campos']): boolean {
  return prep.quality.resolutionPx < SMALL_CARD_PX && CORE_FIELDS.filter((k) => campos[k].valor).length >= SMALL_CARD_CORE;
}

/**
 * A hard page (dark: contrast under DARK_CONTRAST; or small in the frame: under SMALL_CARD_PX) whose
 * first reading glimpsed a CNH without passing looksLikeCnh: a label, or the card's header words
 * (HABILITA, DETRAN, RENACH). Its label type is what the noise or the upscale took first, so the first
 * reading cannot show the card; the second reading's preparation (a median for the dark page's speckle,
 * a larger page for the small one) is the one that can (final13 #78: a low-light card 347 px tall read
 * "CARTEIRA NACIONAL DE HABILITAÇÃO", no label, every field lost). A page with no such glimpse (a photo,
 * a blank page) is not read again.
 */
export function hardPageGlimpsed(prep: PreparedImage, labelsFound: number, foldedText: string): boolean {
  const hard = prep.quality.contrast < DARK_CONTRAST || prep.quality.resolutionPx < SMALL_CARD_PX;
  return hard && (labelsFound >= 1 || /HABILITA|DETRAN|RENACH/.test(foldedText));
}

/**
 * Words of a reading at confidence 0.8 or more with two letters or digits or more. Print read the right
 * way up gives the recogniser many (final19's mirrored frames read flopped: 30-70), print read backwards
 * or upside down few (0-12 on the same pages), however many labels noise happens to spell; the
 * orientation search (recognizeImage) keeps another orientation only when it reads more of them.
 */
const sureWords = (words: OcrWord[]): number => words.filter((w) => w.conf >= 0.8 && (w.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2).length;

/**
 * Sure words (sureWords) from which a page's first reading is taken as read the right way up: the other
 * orientations (ORIENTATIONS) are then not read, however few labels it found (a blurred, halftoned or
 * faded card read upright, its label type lost). Why it holds for any page: the search keeps another
 * orientation only when it reads more sure words than the reading it has, and print read backwards or
 * upside down gives the recogniser few (measured: final19's mirrored frames 0-6 read upright and 2-12
 * turned, final21 #56's flop 2; the 18 wrong-way readings of final23's six hard upright pages 0-4),
 * whatever the font or the names, since an LSTM line model reads mirrored or turned glyphs as noise; a
 * page read right gives 30-70, a hard upright one 0-27 (final23 #9 8, #24 18, #27 27, #30 6, #72 19,
 * #81 0). A first reading with this many is the right way up, and the three other readings (a
 * preparation and a page pass each, 3.7-6.3 CPU s on those pages) would be discarded; under it they are
 * read as before.
 */
export const UPRIGHT_SURE_WORDS = 16;

/** A Survey through a full preparation (prepareImage's `surveyGrating`): for callers without a decode session's survey. */
const surveyByPreparing = (prepareImage: Prepare): Survey => async (bytes) => (await prepareImage(bytes, { surveyGrating: true })).grating ?? 0;

/**
 * One JPEG/PNG page -> words (px of its prepared image), quality grade and prepared height: prepare,
 * recognise (retrying turned 180 degrees, then mirrored, when fewer than MIN_LABELS labels are read: ORIENTATIONS), then the second
 * looks. A hard photograph read poorly (second-read.ts secondRead: a dark or blurred page missing core
 * fields) is prepared again another way and read again whole; its words come back as `second`, for
 * readDocument to merge field by field. Exported for tuning tools (transparency), not part of the contract.
 */
export async function recognizeImage(recs: Recognizer[], bytes: Uint8Array, prepareImage: Prepare, survey?: Survey): Promise<PageText> {
  let prep = await prepareImage(bytes);
  let turn = 0, mirrored = false, degrate = false;
  let { words, evened } = await pageWords(recs, prep);
  let fields = fieldsOf(words);
  // Fewer than MIN_LABELS labels under a fine grating across the page (moiré: its rings, stretched, hide
  // the label type; grating.ts gratingPeak over GRATING_PEAK): the page prepared again with the grating
  // notched out and read; kept when it finds more labels, and every later preparation of the page notches
  // too. The survey is taken only here, for a page short of labels (most pages never need it: lazy, on
  // the same scaled crop the first preparation read, so the answer is the one it would have given).
  if (fields.labelsFound < MIN_LABELS && (await (survey ?? surveyByPreparing(prepareImage))(bytes)) >= GRATING_PEAK) {
    const other = await prepareImage(bytes, { degrate: true });
    const read = await pageWords(recs, other);
    const fields2 = fieldsOf(read.words);
    if (fields2.labelsFound > fields.labelsFound) ({ prep, words, evened, fields, degrate } = { prep: other, words: read.words, evened: read.evened, fields: fields2, degrate: true });
  }
  // Fewer than MIN_LABELS labels: the page turned 180 degrees, then mirrored left to right (a selfie
  // camera's or a webcam preview's frame: every line reads backwards), upright and turned; the reading
  // that finds the most labels is kept, and the search stops at the first that finds MIN_LABELS. Another
  // orientation is kept only when it also reads more sure words (sureWords): one label spelt by noise in a
  // flopped dark page (final21 #56: 1 label and 2 sure words flopped, 0 labels and 5 sure words upright)
  // otherwise turned every later reading of the page backwards.
  // A first reading with UPRIGHT_SURE_WORDS sure words is the right way up: the search would discard its readings.
  const upright = sureWords(words) >= UPRIGHT_SURE_WORDS;
  for (const o of ORIENTATIONS) {
    if (fields.labelsFound >= MIN_LABELS || upright) break;
    const other = await prepareImage(bytes, { ...o, degrate });
    const read = await pageWords(recs, other);
    const fields2 = fieldsOf(read.words);
    if (fields2.labelsFound > fields.labelsFound && sureWords(read.words) > sureWords(words)) {
      prep = other;
      turn = o.extraTurnDeg;
      mirrored = o.mirrored;
      words = read.words;
      evened = read.evened;
      fields = fields2;
    }
  }
  words = await secondLooks(recs, prep, words, evened);
  // Only a page that shows a CNH is read again (a blank page or a photo has no field to recover).
  const first = documentFields(words);
  const shown = looksLikeCnh(first.labelsFound, fold(textOf(words)), first.campos) || smallCardShown(prep, first.campos) || hardPageGlimpsed(prep, first.labelsFound, fold(textOf(words)));
  const again = shown ? secondRead(prep.quality, readingMisses(first.campos), first.labelsFound) : null;
  const notched = degrate ? { degrated: true } : {};
  if (!again) return { words, grade: prep.quality.grade, heightPx: prep.height, ...notched };
  const again2 = async (options: PrepareOptions): Promise<OcrWord[] | undefined> => {
    const other = await prepareImage(bytes, { ...again.prepare, ...options, extraTurnDeg: turn, mirrored, degrate });
    const read2 = await pageWords(recs, other, secondFullWidth(again, prep.quality) ? 1 : undefined);
    const second = await secondLooks(recs, other, read2.words, read2.evened);
    // A preparation of the same crop: its words stack like the first's once brought to the first's
    // scale (a small card's second preparation is larger, second-read.ts SMALL_CARD_HEIGHT_PX).
    const sameCrop = other.height === prep.height || Math.abs(other.width / other.height - prep.width / prep.height) < 0.01;
    return sameCrop ? mendCutWords(rescaled(second, prep.width / other.width, prep.height / other.height), words) : undefined;
  };
  const second = await again2({});
  // A small card in a soft frame is read a third time with the clipped stretch (SMALL_CARD_CLIP).
  const third = softSmallCard(prep.quality) ? await again2({ clip: SMALL_CARD_CLIP }) : undefined;
  return { words, grade: prep.quality.grade, heightPx: prep.height, ...(second ? { second } : {}), ...(third ? { third } : {}), ...notched };
}

/** Pages stacked top to bottom into one word list (front and back on one page or on two). */
function stack(pages: PageText[]): OcrWord[] {
  const out: OcrWord[] = [];
  let dy = 0;
  for (const p of pages) {
    for (const w of p.words) out.push({ ...w, y0: w.y0 + dy, y1: w.y1 + dy });
    dy += p.heightPx + 50;
  }
  return out;
}

async function readDocument(recs: Recognizer[], file: Uint8Array, mime: DocumentMime, decode: DecodeSession): Promise<CnhReadResult> {
  let pages: PageText[];
  let fromTextLayer = false;
  const prepare: Prepare = (bytes, options) => decode.prepare(bytes, options);
  const survey: Survey = (bytes) => decode.survey(bytes);
  if (mime === 'application/pdf') {
    const pdf = await decode.pdf(file);
    if (!pdf.length) throw new OcrError('INVALID_DOCUMENT', INVALID_DOCUMENT_MESSAGE);
    pages = [];
    for (const p of pdf) {
      if (p.kind === 'text') pages.push({ words: p.words, grade: 'excelente', heightPx: p.heightPx });
      else pages.push(await recognizeImage(recs, p.png, prepare, survey));
    }
    fromTextLayer = pdf.every((p) => p.kind === 'text');
  } else {
    pages = [await recognizeImage(recs, file, prepare, survey)];
  }
  const words = stack(pages);
  const texto = textOf(words);
  let { campos, model, labelsFound } = documentFields(words, fromTextLayer);
  if (pages.some((p) => p.second)) {
    // Pages read twice (second-read.ts): the other reading's fields, taken field by field where surer.
    const words2 = stack(pages.map((p) => (p.second ? { ...p, words: p.second } : p)));
    const other = documentFields(words2);
    campos = mergeReadings(campos, other.campos);
    labelsFound = Math.max(labelsFound, other.labelsFound);
  }
  if (pages.some((p) => p.third)) {
    // A small soft card's third reading (SMALL_CARD_CLIP), merged after the second in the same way.
    const other = documentFields(stack(pages.map((p) => (p.third ? { ...p, words: p.third } : p))));
    campos = mergeReadings(campos, other.campos);
    labelsFound = Math.max(labelsFound, other.labelsFound);
  }
  if (pages.some((p) => p.degrated)) {
    for (const k of NAME_FIELDS) campos[k] = { ...campos[k], confianca: Math.min(campos[k].confianca, DEGRATED_NAME_CAP) };
  }
  const worst = Math.max(...pages.map((p) => GRADES.indexOf(p.grade)));
  const base = { texto_completo_ocr: texto, tipo_arquivo: mime, origem_texto: fromTextLayer ? 'pdf_texto' as const : 'ocr' as const };
  if (!looksLikeCnh(labelsFound, fold(texto), campos)) {
    // Not a CNH: no field is guessed from whatever text there is.
    const empty = Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: '', confianca: 0, ...FLAG_OF[k] }])) as CnhReadResult['campos'];
    return { ...base, documento_tipo: 'DESCONHECIDO', motivo: NOT_A_CNH, campos: empty, qualidade_imagem: 'ruim', modelo: model === '2022' ? 'CNH_2022' : 'CNH_ANTERIOR' };
  }
  return {
    documento_tipo: 'CNH',
    campos,
    qualidade_imagem: worseGrade(GRADES[worst], readingGrade(campos, LOW_CONFIDENCE)),
    texto_completo_ocr: texto,
    tipo_arquivo: mime,
    modelo: model === '2022' ? 'CNH_2022' : 'CNH_ANTERIOR',
    origem_texto: fromTextLayer ? 'pdf_texto' : 'ocr',
  };
}

/**
 * Starts `poolSize` tesseract.js workers (Portuguese, local model: pool.ts portugueseModel) and a decode pool of as many threads
 * (PDF rendering and image preparation, decode-pool.ts) and returns a reader whose own work (the page
 * analysis, second looks and field extraction between recognitions) runs on the calling thread. The
 * station does not call it on its event loop: `createCnhReader` (reader-thread.ts) runs it on the
 * reader thread (reader-worker.ts).
 * Throws OcrError UNAVAILABLE when the workers cannot start (or `options.model` is 'fast' and
 * tesseract-ocr-por is not installed). `read` throws UNSUPPORTED_TYPE for
 * bytes that are not JPEG/PNG/PDF, UNAVAILABLE when `maxQueue` documents already wait or after
 * `close`, INVALID_DOCUMENT when the file cannot be decoded, DOCUMENT_TOO_COMPLEX when decoding
 * exceeds the budget (the work is cancelled), PROCESSING_FAILED for a fault of the station.
 */
export async function startCnhReaderInThread(options: CnhReaderOptions = {}): Promise<CnhReader> {
  const { availableParallelism } = await import('node:os');
  const poolSize = Math.max(1, options.poolSize ?? availableParallelism());
  const pool = await RecognizerPool.start(poolSize, options.maxQueue ?? 2 * poolSize, portugueseModel(options.model));
  const decoder = new DecodePool(poolSize, { ...DEFAULT_OCR_BUDGET, ...options.budget });
  await decoder.warm();
  return {
    async read(file: Uint8Array): Promise<CnhReadResult> {
      const mime = sniffMime(file);
      return pool.run(async (recs) => {
        try {
          return await readDocument(recs, file, mime, decoder.session());
        } catch (err) {
          if (err instanceof OcrError) throw err;
          throw new OcrError('PROCESSING_FAILED', 'Erro ao processar documento');
        }
      }, 1);
    },
    async close() {
      await Promise.all([pool.close(), decoder.close()]);
    },
  };
}
