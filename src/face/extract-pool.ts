/**
 * Face extraction on worker threads. onnxruntime-node runs a session synchronously on the calling
 * thread, so in-process extraction holds the event loop for its whole 25-40 ms and a station serves
 * one face at a time. The pool keeps one engine per worker (one intra-op thread each) and hands each
 * request to the next idle worker; the main thread only queues, decodes templates and scores.
 *
 * A worker that dies (crash, out of memory) fails its request with ENGINE_UNAVAILABLE and is replaced;
 * the queue waits for the replacement. Input errors keep their codes (NO_FACE, INVALID_IMAGE, ...).
 */
import { Worker } from 'node:worker_threads';
import { FaceError, type FaceErrorCode } from './errors.js';
import type { FaceEngine, FaceExtractMode, FaceExtraction } from './engine.js';
import type { CreateFaceEngineOptions } from './tuning.js';
import type { FaceTemplateSpace } from './template/template-space.js';

/** Main thread -> worker. */
export interface ExtractRequest {
  id: number;
  image: Uint8Array;
  mode: FaceExtractMode;
}

/** Worker -> main thread. */
export type ExtractReply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: FaceExtraction }
  | { type: 'error'; id: number; error: { code?: FaceErrorCode; message: string; details?: Record<string, unknown> } };

/** Worker options: everything of createFaceEngine that can cross a thread (not intraOpNumThreads, always 1). */
export type PoolEngineOptions = Pick<CreateFaceEngineOptions, 'modelsDir' | 'tuning'>;

interface Job {
  request: ExtractRequest;
  resolve: (r: FaceExtraction) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./extract-worker-bootstrap.mjs', here) : new URL('./extract-worker.js', here);
}

/** Starts one worker; resolves once its engine is loaded. */
function spawn(options: PoolEngineOptions): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(), { workerData: options });
    const fail = (e: Error): void => {
      void worker.terminate();
      reject(e);
    };
    worker.once('error', fail);
    worker.once('exit', (code) => reject(new Error(`face worker exited with code ${code} while loading`)));
    worker.once('message', (m: ExtractReply) => {
      worker.removeAllListeners('error');
      worker.removeAllListeners('exit');
      if (m.type === 'ready') resolve(worker);
      else fail(new Error(m.type === 'failed' ? m.message : `unexpected first message ${m.type}`));
    });
  });
}

export class FaceExtractorPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;
  private replacing = 0;
  private failure: string | null = null;

  private constructor(private readonly options: PoolEngineOptions) {}

  /**
   * Starts `size` workers and waits until every one has loaded its models.
   * @throws FaceError ENGINE_UNAVAILABLE when a worker cannot load the models.
   */
  static async start(size: number, options: PoolEngineOptions = {}): Promise<FaceExtractorPool> {
    const pool = new FaceExtractorPool(options);
    const started = await Promise.allSettled(Array.from({ length: Math.max(1, size) }, () => spawn(options)));
    for (const s of started) if (s.status === 'fulfilled') pool.adopt(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      await pool.close();
      throw new FaceError('ENGINE_UNAVAILABLE', `The face workers could not start: ${(failed.reason as Error).message}`);
    }
    return pool;
  }

  /** Workers running now (a crashed one is counted again once its replacement is up). */
  get size(): number {
    return this.slots.length;
  }

  /**
   * Extracts the dominant face's template on a worker (FaceEngine.extract).
   * @throws FaceError with the engine's codes, or ENGINE_UNAVAILABLE when the pool is closed,
   *   every worker is gone, or the worker died during this request.
   */
  extract(image: Uint8Array, mode: FaceExtractMode): Promise<FaceExtraction> {
    if (this.closed || this.failure) {
      return Promise.reject(new FaceError('ENGINE_UNAVAILABLE', this.failure ?? 'The face workers are stopped'));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, image, mode }, resolve, reject });
      this.pump();
    });
  }

  /** Stops every worker; queued and running requests fail with ENGINE_UNAVAILABLE. */
  async close(): Promise<void> {
    this.closed = true;
    this.failAll('The face workers are stopped');
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  /** Test hook: terminates a worker as a crash would (its request fails, a replacement starts). */
  async crashOne(): Promise<void> {
    await this.slots[0]?.worker.terminate();
  }

  private adopt(worker: Worker): void {
    const slot: Slot = { worker, job: null };
    worker.unref();
    worker.on('message', (m: ExtractReply) => this.onReply(slot, m));
    worker.on('error', (e) => this.onExit(slot, e.message));
    worker.on('exit', (code) => this.onExit(slot, `exited with code ${code}`));
    this.slots.push(slot);
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job) continue;
      slot.job = this.queue.shift()!;
      slot.worker.postMessage(slot.job.request);
    }
  }

  private onReply(slot: Slot, m: ExtractReply): void {
    const job = slot.job;
    if (!job || (m.type !== 'result' && m.type !== 'error') || m.id !== job.request.id) return;
    slot.job = null;
    if (m.type === 'result') job.resolve(m.result); // structured clone: already this thread's own copy
    else job.reject(m.error.code ? new FaceError(m.error.code, m.error.message, m.error.details) : new Error(m.error.message));
    this.pump();
  }

  private onExit(slot: Slot, why: string): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return; // 'error' then 'exit': handled once
    this.slots.splice(i, 1);
    slot.worker.removeAllListeners();
    slot.job?.reject(new FaceError('ENGINE_UNAVAILABLE', `A face worker stopped during the request: ${why}`));
    if (this.closed) return;
    this.replacing++;
    spawn(this.options).then(
      (worker) => {
        this.replacing--;
        if (this.closed) void worker.terminate();
        else this.adopt(worker);
      },
      (e: Error) => {
        this.replacing--;
        if (this.slots.length === 0 && this.replacing === 0) {
          this.failure = `The face workers are gone and could not be restarted: ${e.message}`;
          this.failAll(this.failure);
        }
      },
    );
  }

  private failAll(message: string): void {
    for (const job of this.queue.splice(0)) job.reject(new FaceError('ENGINE_UNAVAILABLE', message));
    for (const slot of this.slots) {
      slot.job?.reject(new FaceError('ENGINE_UNAVAILABLE', message));
      slot.job = null;
    }
  }
}

/** FaceEngine whose extraction runs on a FaceExtractorPool; templates and scores stay in this thread. */
export class PooledFaceEngine implements FaceEngine {
  constructor(
    private readonly space: FaceTemplateSpace,
    readonly pool: FaceExtractorPool,
    readonly defaultThreshold: number,
    readonly identifyThreshold: number,
  ) {}

  get modelId(): string {
    return this.space.modelId;
  }

  extract(image: Uint8Array, mode: FaceExtractMode): Promise<FaceExtraction> {
    return this.pool.extract(image, mode);
  }

  similarity(a: Uint8Array, b: Uint8Array): number {
    return this.space.similarity(a, b);
  }

  assertCompatible(template: Uint8Array): void {
    this.space.assertCompatible(template);
  }

  createGallery(): ReturnType<FaceTemplateSpace['createGallery']> {
    return this.space.createGallery();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
