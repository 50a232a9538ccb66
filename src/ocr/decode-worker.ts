/**
 * Decode worker (one thread of the decode pool, decode-pool.ts, on the runtime worker pool): PDF
 * parsing/rendering (mupdf, synchronous WASM) and image decoding/preparation (sharp plus the pure-JS
 * analysis of preprocess.ts), off the event loop. DecodeRequest in, DecodeReply out. Input faults come
 * back as OcrError kinds (INVALID_DOCUMENT, DOCUMENT_TOO_COMPLEX); the pool enforces time, heap and
 * retained memory by replacing the worker.
 */
import { isMainThread } from 'node:worker_threads';
import sharp from 'sharp';
import { INVALID_DOCUMENT_MESSAGE, TOO_COMPLEX_MESSAGE } from './budget.js';
import { OcrError, type OcrErrorKind } from './engine.js';
import { readPdf, type PdfLimits, type PdfPage } from './input.js';
import { prepareImage, surveyCardGrating, type PrepareOptions, type PreparedImage } from './preprocess.js';
import { serveWorker } from '../runtime/worker-serve.js';

export type DecodeRequest =
  | { task: 'pdf'; bytes: Uint8Array; limits: PdfLimits }
  | { task: 'prepare'; bytes: Uint8Array; options: PrepareOptions; maxInputPixels: number }
  | { task: 'survey'; bytes: Uint8Array; options: PrepareOptions; maxInputPixels: number };

export type DecodeReply =
  | { ok: true; result: PdfPage[] | PreparedImage | number }
  | { ok: false; error: { kind: OcrErrorKind; message: string } };

/**
 * JPEG/PNG bytes -> prepared card image. The header's size is checked before any pixel is decoded
 * (DOCUMENT_TOO_COMPLEX over `maxInputPixels`); undecodable bytes are INVALID_DOCUMENT.
 */
export async function prepareChecked(bytes: Uint8Array, options: PrepareOptions, maxInputPixels: number): Promise<PreparedImage> {
  return checked(bytes, maxInputPixels, () => prepareImage(bytes, { ...options, limitInputPixels: maxInputPixels }));
}

/**
 * JPEG/PNG bytes -> how strongly a grating stands out over the scaled card crop (preprocess.ts
 * surveyCardGrating), under the same checks as prepareChecked.
 */
export async function surveyChecked(bytes: Uint8Array, options: PrepareOptions, maxInputPixels: number): Promise<number> {
  return checked(bytes, maxInputPixels, () => surveyCardGrating(bytes, { ...options, limitInputPixels: maxInputPixels }));
}

async function checked<T>(bytes: Uint8Array, maxInputPixels: number, run: () => Promise<T>): Promise<T> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new OcrError('INVALID_DOCUMENT', INVALID_DOCUMENT_MESSAGE);
  }
  const w = meta.width ?? 0, h = meta.height ?? 0;
  if (w < 1 || h < 1) throw new OcrError('INVALID_DOCUMENT', INVALID_DOCUMENT_MESSAGE);
  if (w * h > maxInputPixels || (meta.pages ?? 1) > 1) throw new OcrError('DOCUMENT_TOO_COMPLEX', TOO_COMPLEX_MESSAGE);
  try {
    return await run();
  } catch (err) {
    if (err instanceof OcrError) throw err;
    throw new OcrError('INVALID_DOCUMENT', INVALID_DOCUMENT_MESSAGE);
  }
}

async function handle(req: DecodeRequest): Promise<DecodeReply> {
  try {
    const result = req.task === 'pdf' ? await readPdf(req.bytes, req.limits)
      : req.task === 'survey' ? await surveyChecked(req.bytes, req.options, req.maxInputPixels)
        : await prepareChecked(req.bytes, req.options, req.maxInputPixels);
    return { ok: true, result };
  } catch (err) {
    const error = err instanceof OcrError ? { kind: err.kind, message: err.message } : { kind: 'INVALID_DOCUMENT' as const, message: INVALID_DOCUMENT_MESSAGE };
    return { ok: false, error };
  }
}

// A pooled worker (src/runtime/worker-pool.ts, which also lowers this thread's priority). Guarded so that
// prepareChecked can be imported in the main thread.
if (!isMainThread) serveWorker(() => handle);
