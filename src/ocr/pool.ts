/**
 * tesseract.js worker pool: started once, a Portuguese LSTM model from local files (never the CDN,
 * see `portugueseModel`), the wasm core from `tesseract.js-core` in node_modules (tesseract.js's Node
 * worker requires it locally). A document holds one worker for all its recognitions; documents beyond
 * the busy workers wait in a bounded queue.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { OcrError } from './engine.js';
import { toPgm } from './regions.js';
import { warmupPage } from './warmup.js';
import type { OcrWord } from './words.js';

const require = createRequire(import.meta.url);

/** Folder holding por.traineddata.gz of the npm package `@tesseract.js-data/por` (tessdata 4.0.0). */
export function portugueseLangPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/por/package.json')), '4.0.0');
}

/**
 * A Portuguese LSTM model: where tesseract.js loads `por.traineddata` from (`gzip`: the file is
 * `por.traineddata.gz`), and the horizontal squeeze the page pass reads at with it (index.ts).
 */
export interface OcrModel {
  /** 'fast': tessdata_fast; 'npm': the npm package's tessdata 4.0.0. */
  id: 'fast' | 'npm';
  langPath: string;
  gzip: boolean;
  /** Width fraction the page pass reads a card at (recognition time follows the width read). */
  pageSqueeze: number;
}

/**
 * Folders where Debian's (and Ubuntu's) package `tesseract-ocr-por` installs por.traineddata: the
 * tessdata_fast model, network [1,36,0,1 Ct3,3,16 Mp3,3 Lfys48 Lfx96 Lrx96 Lfx192 O1c1].
 */
export const FAST_TESSDATA_DIRS = ['/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata'];

/**
 * The model the reader uses: the npm package's model, always, unless `prefer` is 'fast'. The project
 * takes model weights only from npm packages (tesseract data from `@tesseract.js-data/por`), so the
 * station never picks up a system model by itself: what it reads with does not depend on what else
 * the machine has installed. 'fast' (Debian's tessdata_fast, where installed) exists for the bench's
 * comparison only (`--model fast`). The npm package's LSTM (tessdata 4.0.0, the "best" network converted
 * to integers: [1,48,0,1 Ct3,3,16 Mp3,3 Lfys64 Lfx64 Lrx64 Lfx384 O1c1]) takes ~0.71 s of CPU for a card
 * page at 0.7 x width where tessdata_fast takes ~0.40 s. Tuning part of the widened set (issue #17 part
 * A, 44 documents): npm at 0.7 x width 97.4% exact over fields, 1.01 median CPU s per image; fast at
 * full width 98.6%, 0.79 s (fast at 0.85 x width fell to 95.5%). A preferred 'fast' that is not
 * installed throws OcrError UNAVAILABLE.
 */
export function portugueseModel(prefer?: OcrModel['id']): OcrModel {
  if (prefer !== 'fast') return { id: 'npm', langPath: portugueseLangPath(), gzip: true, pageSqueeze: 0.7 };
  const fast = FAST_TESSDATA_DIRS.find((d) => existsSync(path.join(d, 'por.traineddata')));
  if (!fast) throw new OcrError('UNAVAILABLE', 'OCR API unavailable');
  return { id: 'fast', langPath: fast, gzip: false, pageSqueeze: 1 };
}

/** Page segmentation used for whole cards (sparse text: fields are scattered), single lines and single words. */
export const SEGMENTATION = { sparse: PSM.SPARSE_TEXT, line: PSM.SINGLE_LINE, block: PSM.SINGLE_BLOCK, word: PSM.SINGLE_WORD } as const;

/** One exclusive worker lent to a document. */
export interface Recognizer {
  /**
   * Recognises a PNG/JPEG/PGM buffer; returns words with confidence 0..1 and boxes in the buffer's
   * pixels. `whitelist`: the only characters the recogniser may read (tesseract's
   * `tessedit_char_whitelist`, honoured by the LSTM recogniser since tesseract 4.1), for this call
   * only; every character when absent.
   */
  words(image: Buffer, psm?: PSM, whitelist?: string): Promise<OcrWord[]>;
  /** The model this worker runs. */
  readonly model: OcrModel;
}

class TesseractRecognizer implements Recognizer {
  private psm: PSM | null = null;
  private whitelist = '';
  constructor(readonly worker: Worker, readonly model: OcrModel) {}

  private async mode(psm: PSM, whitelist: string): Promise<void> {
    if (this.psm === psm && this.whitelist === whitelist) return;
    // tessedit_do_invert 0: skip the inverted-text retry of every line (cards print dark on light).
    // enable_noise_removal 0: tesseract's noise removal dropped the accent of capitals as a stray
    // blob (JÚLIO read JULIO, JÉSSICA read JESSICA on the tuning part; issue #17 part B).
    // An empty whitelist lets every character through.
    await this.worker.setParameters({ tessedit_pageseg_mode: psm, user_defined_dpi: '300', tessedit_do_invert: '0', enable_noise_removal: '0', tessedit_char_whitelist: whitelist });
    this.psm = psm;
    this.whitelist = whitelist;
  }

  async words(image: Buffer, psm: PSM = PSM.SPARSE_TEXT, whitelist = ''): Promise<OcrWord[]> {
    await this.mode(psm, whitelist);
    // TSV, not the blocks' JSON: the same words, confidences and boxes (the same iterator; identical on
    // 67 tuning page sides), 5-15 ms of CPU less per card side in two paired runs (load ~9) than
    // building and parsing the JSON tree of blocks, lines and symbols.
    const res = await this.worker.recognize(image, {}, { text: false, tsv: true });
    return wordsOfTsv(res.data.tsv ?? '');
  }
}

/**
 * Words of tesseract's TSV output (level 5 rows: level, page, block, paragraph, line, word, left, top,
 * width, height, conf, text), in reading order, blank words dropped; boxes in the image's px, `conf`
 * 0..1 from the word confidence truncated to a whole percent (as the blocks' JSON output gives it, so
 * thresholds on it read as they always did).
 */
export function wordsOfTsv(tsv: string): OcrWord[] {
  const out: OcrWord[] = [];
  for (const row of tsv.split('\n')) {
    if (!row.startsWith('5\t')) continue;
    const c = row.split('\t');
    if (c.length < 12) continue;
    const text = c.slice(11).join('\t');
    if (!text.trim()) continue;
    const x0 = Number(c[6]), y0 = Number(c[7]);
    out.push({ text, conf: Math.max(0, Math.min(1, Math.trunc(Number(c[10])) / 100)), x0, y0, x1: x0 + Number(c[8]), y1: y0 + Number(c[9]) });
  }
  return out;
}

/** Fixed-size pool with a bounded wait queue. */
export class RecognizerPool {
  private idle: TesseractRecognizer[] = [];
  private waiting: Array<(r: TesseractRecognizer) => void> = [];
  private closed = false;

  private constructor(private readonly all: TesseractRecognizer[], private readonly maxQueue: number) {
    this.idle = [...all];
  }

  /**
   * Starts `size` workers running `model` (each loads the wasm core and the model, ~1 s, then reads
   * the warm-up page, ~0.8 CPU s, warmup.ts).
   * Throws OcrError UNAVAILABLE when a worker cannot start.
   */
  static async start(size: number, maxQueue: number, model: OcrModel = portugueseModel()): Promise<RecognizerPool> {
    try {
      const workers = await Promise.all(Array.from({ length: Math.max(1, size) }, () =>
        createWorker('por', OEM.LSTM_ONLY, { langPath: model.langPath, gzip: model.gzip, cacheMethod: 'none', errorHandler: () => undefined })));
      const recs = workers.map((w) => new TesseractRecognizer(w, model));
      // One page read by each worker so that the first document is not read by cold code (warmup.ts).
      const page = toPgm(warmupPage());
      await Promise.all(recs.map((r) => r.words(page, SEGMENTATION.sparse)));
      return new RecognizerPool(recs, Math.max(0, maxQueue));
    } catch (err) {
      throw new OcrError('UNAVAILABLE', 'OCR API unavailable');
    }
  }

  get size(): number {
    return this.all.length;
  }

  /**
   * Runs `job` with one exclusive worker, plus up to `extra` more that are idle right now (never
   * waited for), so a lone document can spread over the cores. Throws OcrError UNAVAILABLE when the
   * pool is closed or `maxQueue` documents already wait.
   */
  async run<T>(job: (recs: Recognizer[]) => Promise<T>, extra = 0): Promise<T> {
    if (this.closed) throw new OcrError('UNAVAILABLE', 'OCR API unavailable');
    let worker = this.idle.pop();
    if (!worker) {
      if (this.waiting.length >= this.maxQueue) throw new OcrError('UNAVAILABLE', 'OCR API unavailable');
      worker = await new Promise<TesseractRecognizer>((resolve) => this.waiting.push(resolve));
    }
    const held = [worker];
    while (held.length <= extra && this.idle.length && this.waiting.length === 0) held.push(this.idle.pop() as TesseractRecognizer);
    try {
      return await job(held);
    } finally {
      for (const w of held) {
        const next = this.waiting.shift();
        if (next) next(w);
        else this.idle.push(w);
      }
    }
  }

  /** Terminates every worker; later `run` calls throw UNAVAILABLE. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.all.map((w) => w.worker.terminate().catch(() => undefined)));
  }
}
