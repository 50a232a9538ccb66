/**
 * Decode pool: the worker threads of the OCR input stage (decode-worker.ts) on the station's one
 * worker pool (src/runtime/worker-pool.ts). The event loop only queues and waits, so `/health` and
 * every other route stay responsive whatever the document holds.
 *
 * Budgets (budget.ts) per document, not per call: a `DecodeSession` shares `timeMs` of decode time over
 * all the document's decode calls (recognition, bounded by the prepared image size, is not counted).
 * A call still running when the document's time is spent fails with OcrError DOCUMENT_TOO_COMPLEX and
 * its worker is replaced (asked to stop, terminated after STOP_GRACE_MS: mupdf's synchronous WASM loop
 * cannot read the stop message, and WASM may be terminated); so does a call whose worker dies over its
 * heap limit. A worker that keeps more than `workerRetainMb` after a call is replaced, so one large
 * page does not keep its memory.
 */
import { DEFAULT_OCR_BUDGET, TOO_COMPLEX_MESSAGE, type OcrBudget } from './budget.js';
import { OcrError } from './engine.js';
import type { PdfPage } from './input.js';
import type { DecodeReply, DecodeRequest } from './decode-worker.js';
import type { PrepareOptions, PreparedImage } from './preprocess.js';
import { WorkerPool } from '../runtime/worker-pool.js';

/** How long a decode worker over its budget may take to stop by itself before it is terminated, ms. */
const STOP_GRACE_MS = 1_000;

const tooComplex = (): OcrError => new OcrError('DOCUMENT_TOO_COMPLEX', TOO_COMPLEX_MESSAGE);
const unavailable = (): OcrError => new OcrError('UNAVAILABLE', 'OCR API unavailable');
const asBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

export class DecodePool {
  private readonly pool: WorkerPool<DecodeRequest, DecodeReply>;

  /** Starts `size` decode workers now (each loads sharp, and mupdf on its first PDF). */
  constructor(size: number, readonly budget: OcrBudget = DEFAULT_OCR_BUDGET) {
    this.pool = new WorkerPool<DecodeRequest, DecodeReply>({
      module: new URL('./decode-worker.js', import.meta.url),
      size: Math.max(1, size),
      respawn: true,
      label: 'OCR decode worker',
      unavailable,
      revive: () => unavailable(), // the worker answers input faults as replies; a thrown error is the station's
      overBudget: tooComplex,
      // A worker that dies during a document (heap limit, crash in the decoder) refuses that document.
      lost: tooComplex,
      resourceLimits: { maxOldGenerationSizeMb: budget.workerHeapMb, maxYoungGenerationSizeMb: 32 },
      recycleAboveMb: budget.workerRetainMb,
      stopGraceMs: STOP_GRACE_MS,
    });
  }

  /** Workers replaced for running over a budget or keeping too much memory (for tests and metrics). */
  get recycled(): number {
    return this.pool.recycled;
  }

  /** A budget for one document: its decode calls share `budget.timeMs` of running time. */
  session(): DecodeSession {
    return new DecodeSession(this, this.budget.timeMs);
  }

  /**
   * @internal runs one request for at most `limitMs` once a worker takes it; see DecodeSession.
   * The bytes are copied (not transferred): the caller may still need them (a retry, the route's metadata).
   */
  call(request: DecodeRequest, limitMs: number): Promise<{ reply: DecodeReply; ranMs: number }> {
    return this.pool.runTimed(request, { timeMs: limitMs }).then(({ result, ranMs }) => ({ reply: result, ranMs }));
  }

  /** Resolves when every worker is ready. @throws OcrError UNAVAILABLE when they cannot start */
  async warm(): Promise<void> {
    await this.pool.ready().catch(() => {
      throw unavailable();
    });
  }

  /** Stops every worker; queued calls fail with UNAVAILABLE, running ones may finish first (the pool's close grace). */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** One document's decode calls under one time budget (DecodePool.session). */
export class DecodeSession {
  /** Milliseconds of decode time used so far (worker running time; not queueing or a worker's start). */
  spentMs = 0;
  constructor(private readonly pool: DecodePool, readonly budgetMs: number) {}

  private async run<T>(request: DecodeRequest): Promise<T> {
    const { reply, ranMs } = await this.pool.call(request, this.budgetMs - this.spentMs);
    this.spentMs += ranMs;
    if (!reply.ok) throw new OcrError(reply.error.kind, reply.error.message);
    return reply.result as T;
  }

  /** PDF bytes -> pages (text-layer words, or a raster within the page-pixel budget). */
  async pdf(bytes: Uint8Array): Promise<PdfPage[]> {
    const { maxPages, maxPagePixels } = this.pool.budget;
    const pages = await this.run<PdfPage[]>({ task: 'pdf', bytes, limits: { maxPages, maxPagePixels } });
    return pages.map((p) => (p.kind === 'image' ? { kind: 'image', png: asBuffer(p.png) } : p));
  }

  /** JPEG/PNG bytes -> how strongly a grating stands out over the scaled card crop (preprocess.ts surveyCardGrating), within the input-pixel budget. */
  async survey(bytes: Uint8Array, options: PrepareOptions = {}): Promise<number> {
    return this.run<number>({ task: 'survey', bytes, options, maxInputPixels: this.pool.budget.maxInputPixels });
  }

  /** JPEG/PNG bytes -> prepared card image (preprocess.ts), within the input-pixel budget. */
  async prepare(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage> {
    const prep = await this.run<PreparedImage>({ task: 'prepare', bytes, options, maxInputPixels: this.pool.budget.maxInputPixels });
    return { ...prep, png: asBuffer(prep.png) };
  }
}
