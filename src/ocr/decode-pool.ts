/**
 * Decode pool: worker threads for the OCR input stage (decode-worker.ts). The event loop only queues
 * and waits, so `/health` and every other route stay responsive whatever the document holds.
 *
 * Budgets (budget.ts) per document, not per call: a `DecodeSession` shares `timeMs` of decode time over
 * all the document's decode calls (recognition, bounded by the prepared image size, is not counted).
 * A call still running when the document's time is spent has its worker terminated (the WASM
 * loop cannot be interrupted otherwise) and fails with OcrError DOCUMENT_TOO_COMPLEX, as does a worker
 * that dies over its heap limit. A worker that keeps more than `workerRetainMb` after a call is
 * replaced, so one large page does not keep its memory. Workers start lazily and are replaced on demand.
 */
import { Worker } from 'node:worker_threads';
import { DEFAULT_OCR_BUDGET, TOO_COMPLEX_MESSAGE, type OcrBudget } from './budget.js';
import { OcrError } from './engine.js';
import type { PdfPage } from './input.js';
import type { DecodeReply, DecodeRequest } from './decode-worker.js';
import type { PrepareOptions, PreparedImage } from './preprocess.js';

interface Job {
  request: DecodeRequest;
  /** Milliseconds the call may run once a worker takes it. */
  limitMs: number;
  resolve: (r: DecodeReply) => void;
  /** When the worker took the call (ms, Date.now()). */
  startedAt: number;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./decode-worker-bootstrap.mjs', here) : new URL('./decode-worker.js', here);
}

/** A request without its id (distributes over the union's members). */
type DecodeCall = DecodeRequest extends infer R ? (R extends DecodeRequest ? Omit<R, 'id'> : never) : never;

const tooComplex = (): OcrError => new OcrError('DOCUMENT_TOO_COMPLEX', TOO_COMPLEX_MESSAGE);
const asBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

export class DecodePool {
  private readonly slots: Array<Slot | null>;
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;
  /** Workers terminated for running over a budget or keeping too much memory (for tests and metrics). */
  recycled = 0;

  constructor(size: number, readonly budget: OcrBudget = DEFAULT_OCR_BUDGET) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => null);
  }

  /** A budget for one document: its decode calls share `budget.timeMs` of running time. */
  session(): DecodeSession {
    return new DecodeSession(this, this.budget.timeMs);
  }

  /** @internal runs one request for at most `limitMs` once a worker takes it; see DecodeSession. */
  call(request: DecodeCall, limitMs: number): Promise<{ reply: DecodeReply; ranMs: number }> {
    if (this.closed) return Promise.reject(new OcrError('UNAVAILABLE', 'OCR API unavailable'));
    if (limitMs <= 0) return Promise.reject(tooComplex());
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      const job: Job = {
        request: { ...request, id } as DecodeRequest, limitMs, startedAt: 0, reject,
        resolve: (reply) => resolve({ reply, ranMs: Date.now() - job.startedAt }),
      };
      this.queue.push(job);
      this.pump();
    });
  }

  /** Starts every worker now (each loads sharp and, for PDFs, mupdf lazily); resolves when they are ready. */
  async warm(): Promise<void> {
    await Promise.all(this.slots.map((s, i) => (s ?? (this.slots[i] = this.spawn(i))).ready));
  }

  private spawn(i: number): Slot {
    const worker = new Worker(workerUrl(), {
      resourceLimits: { maxOldGenerationSizeMb: this.budget.workerHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    worker.unref();
    let markReady: () => void = () => undefined;
    let started = false;
    const slot: Slot = { worker, job: null, timer: null, ready: new Promise((r) => { markReady = r; }) };
    worker.on('message', (m: DecodeReply | { ready: true }) => {
      if ('ready' in m) {
        started = true;
        return markReady();
      }
      const job = slot.job;
      if (!job || job.request.id !== m.id) return;
      this.finish(i, slot);
      job.resolve(m);
      if (m.retainedMb > this.budget.workerRetainMb) this.retire(i, slot);
      this.pump();
    });
    const died = (): void => {
      if (this.slots[i] !== slot) return;
      const job = slot.job;
      this.finish(i, slot);
      this.slots[i] = null;
      // A worker that dies during a document (heap limit, crash in the decoder) refuses that document;
      // one that never started is the station's fault.
      job?.reject(started ? tooComplex() : new OcrError('UNAVAILABLE', 'OCR API unavailable'));
      this.pump();
    };
    worker.on('error', died);
    worker.on('exit', died);
    return slot;
  }

  private finish(_i: number, slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }

  private retire(i: number, slot: Slot): void {
    if (this.slots[i] === slot) this.slots[i] = null;
    this.recycled++;
    void slot.worker.terminate();
  }

  private pump(): void {
    while (this.queue.length) {
      let i = this.slots.findIndex((s) => s !== null && s.job === null);
      if (i < 0) i = this.slots.findIndex((s) => s === null);
      if (i < 0) return;
      const job = this.queue.shift() as Job;
      const slot = this.slots[i] ?? (this.slots[i] = this.spawn(i));
      slot.job = job;
      // The document's time runs from when the worker, started, takes the call: a cold start (tsx,
      // sharp; ~0.3-2 s on a loaded machine) after a cancelled document is not charged to the next.
      void slot.ready.then(() => {
        if (slot.job !== job) return;
        job.startedAt = Date.now();
        slot.timer = setTimeout(() => {
          if (slot.job !== job) return;
          this.finish(i, slot);
          this.retire(i, slot);
          job.reject(tooComplex());
          this.pump();
        }, job.limitMs);
        // The bytes are copied (not transferred): the caller may still need them (a retry, the route's metadata).
        slot.worker.postMessage(job.request);
      });
    }
  }

  /** Terminates every worker; queued and running calls fail with UNAVAILABLE. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new OcrError('UNAVAILABLE', 'OCR API unavailable'));
    await Promise.all(this.slots.map(async (s, i) => {
      if (!s) return;
      this.slots[i] = null;
      if (s.timer) clearTimeout(s.timer);
      s.job?.reject(new OcrError('UNAVAILABLE', 'OCR API unavailable'));
      s.job = null;
      await s.worker.terminate();
    }));
  }
}

/** One document's decode calls under one time budget (DecodePool.session). */
export class DecodeSession {
  /** Milliseconds of decode time used so far (worker running time; not queueing or a worker's start). */
  spentMs = 0;
  constructor(private readonly pool: DecodePool, readonly budgetMs: number) {}

  private async run<T>(request: DecodeCall): Promise<T> {
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

  /** JPEG/PNG bytes -> prepared card image (preprocess.ts), within the input-pixel budget. */
  async prepare(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage> {
    const prep = await this.run<PreparedImage>({ task: 'prepare', bytes, options, maxInputPixels: this.pool.budget.maxInputPixels });
    return { ...prep, png: asBuffer(prep.png) };
  }
}
