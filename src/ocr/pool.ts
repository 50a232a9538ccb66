/**
 * tesseract.js worker pool: started once, Portuguese LSTM data from the npm package
 * `@tesseract.js-data/por` (local path, never the CDN), the wasm core from `tesseract.js-core` in
 * node_modules (tesseract.js's Node worker requires it locally). A document holds one worker for all
 * its recognitions; documents beyond the busy workers wait in a bounded queue.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { OcrError } from './engine.js';
import type { OcrWord } from './words.js';

const require = createRequire(import.meta.url);

/** Folder holding por.traineddata.gz (the package's 4.0.0 "fast integer" LSTM model). */
export function portugueseLangPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/por/package.json')), '4.0.0');
}

/** Page segmentation used for whole cards (sparse text: fields are scattered) and single lines. */
export const SEGMENTATION = { sparse: PSM.SPARSE_TEXT, line: PSM.SINGLE_LINE, block: PSM.SINGLE_BLOCK } as const;

/** One exclusive worker lent to a document. */
export interface Recognizer {
  /**
   * Recognises a PNG/JPEG buffer; returns words with confidence 0..1 and boxes in the buffer's pixels.
   * `rectangle` restricts recognition to a region (px).
   */
  words(image: Buffer, psm?: PSM, rectangle?: { left: number; top: number; width: number; height: number }): Promise<OcrWord[]>;
}

class TesseractRecognizer implements Recognizer {
  private psm: PSM | null = null;
  constructor(readonly worker: Worker) {}

  async words(image: Buffer, psm: PSM = PSM.SPARSE_TEXT, rectangle?: { left: number; top: number; width: number; height: number }): Promise<OcrWord[]> {
    if (this.psm !== psm) {
      // tessedit_do_invert 0: skip the inverted-text retry of every line (cards print dark on light).
      // enable_noise_removal 0: tesseract's noise removal dropped the accent of capitals as a stray
      // blob (JÚLIO read JULIO, JÉSSICA read JESSICA on the tuning part; issue #17 part B).
      await this.worker.setParameters({ tessedit_pageseg_mode: psm, user_defined_dpi: '300', tessedit_do_invert: '0', enable_noise_removal: '0' });
      this.psm = psm;
    }
    const res = await this.worker.recognize(image, rectangle ? { rectangle } : {}, { text: false, blocks: true });
    const out: OcrWord[] = [];
    for (const b of res.data.blocks ?? []) {
      for (const p of b.paragraphs) {
        for (const l of p.lines) {
          for (const w of l.words) {
            if (!w.text.trim()) continue;
            out.push({ text: w.text, conf: Math.max(0, Math.min(1, w.confidence / 100)), ...w.bbox });
          }
        }
      }
    }
    return out;
  }
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
   * Starts `size` workers (each loads the wasm core and the language data, ~1 s).
   * Throws OcrError UNAVAILABLE when a worker cannot start.
   */
  static async start(size: number, maxQueue: number): Promise<RecognizerPool> {
    const langPath = portugueseLangPath();
    try {
      const workers = await Promise.all(Array.from({ length: Math.max(1, size) }, () =>
        createWorker('por', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', errorHandler: () => undefined })));
      return new RecognizerPool(workers.map((w) => new TesseractRecognizer(w)), Math.max(0, maxQueue));
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
