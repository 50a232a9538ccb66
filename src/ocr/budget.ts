/**
 * Per-request budget of the OCR input stage (PDF parsing and rendering, image decoding and
 * preparation), which runs on decode worker threads (decode-pool.ts) so that a hostile document can
 * never hold the station's event loop. Work over any limit is cancelled (the worker is terminated) and
 * the request is refused with OcrError DOCUMENT_TOO_COMPLEX (HTTP 400).
 */
export interface OcrBudget {
  /** Wall-clock milliseconds for all decode work of one document (every page, every retry). */
  timeMs: number;
  /** Largest decoded JPEG/PNG accepted, pixels (width x height from the header, checked before decoding). */
  maxInputPixels: number;
  /** Largest raster of one PDF page, pixels: bigger pages are rendered below 300 dpi to fit. */
  maxPagePixels: number;
  /** PDF pages read (further pages are ignored). */
  maxPages: number;
  /** JavaScript heap of one decode worker, MiB (V8 resource limit; over it the worker dies and the request is refused). */
  workerHeapMb: number;
  /**
   * Memory a decode worker may keep after a document (its WASM and buffer memory, MiB): a worker over it
   * is replaced once its answer is sent, so one large page does not keep the memory.
   */
  workerRetainMb: number;
}

/**
 * Defaults: 15 s covers the slowest legitimate input measured (a 4-page image-only PDF at 300 dpi takes
 * ~2 s of decode on one core); 40 MP is a 7,700 x 5,200 photo; a 300 dpi A4 page is 8.7 MP.
 */
export const DEFAULT_OCR_BUDGET: OcrBudget = {
  timeMs: 15_000,
  maxInputPixels: 40_000_000,
  maxPagePixels: 12_000_000,
  maxPages: 4,
  workerHeapMb: 384,
  workerRetainMb: 256,
};

/** Message of DOCUMENT_TOO_COMPLEX. */
export const TOO_COMPLEX_MESSAGE = 'Documento excede os limites de processamento';
/** Message of INVALID_DOCUMENT. */
export const INVALID_DOCUMENT_MESSAGE = 'Arquivo corrompido ou ilegível';
