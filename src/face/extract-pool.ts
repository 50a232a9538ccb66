/**
 * Face extraction on worker threads. onnxruntime-node runs a session synchronously on the calling
 * thread, so in-process extraction holds the event loop for its whole 25-40 ms and a station serves
 * one face at a time. The pool keeps one engine per worker (one intra-op thread each) and hands each
 * request to the next idle worker; the main thread only queues, decodes templates and scores.
 *
 * A worker that dies (crash, out of memory) fails its request with ENGINE_UNAVAILABLE and is replaced;
 * the queue waits for the replacement. Input errors keep their codes (NO_FACE, INVALID_IMAGE, ...).
 * The threads are the station's one worker pool (src/runtime/worker-pool.ts, through extractor-pool.ts).
 */
import { ExtractorPool } from '../runtime/extractor-pool.js';
import { FaceError, type FaceErrorCode } from './errors.js';
import type { FaceEngine, FaceExtractMode, FaceExtraction } from './engine.js';
import type { FaceTemplateSpace } from './template/template-space.js';
import type { CreateFaceEngineOptions } from './tuning.js';

/** Main thread -> worker. */
export interface ExtractRequest {
  image: Uint8Array;
  mode: FaceExtractMode;
}

/** Worker options: everything of createFaceEngine that can cross a thread (not intraOpNumThreads, always 1). */
export type PoolEngineOptions = Pick<CreateFaceEngineOptions, 'modelsDir' | 'tuning'>;

const unavailable = (message: string): FaceError => new FaceError('ENGINE_UNAVAILABLE', message);

export class FaceExtractorPool extends ExtractorPool<ExtractRequest, FaceExtraction> {
  /**
   * Starts `size` workers (replaced when they die) and waits until every one has loaded its models.
   * @throws FaceError ENGINE_UNAVAILABLE when a worker cannot load the models.
   */
  static async start(size: number, options: PoolEngineOptions = {}): Promise<FaceExtractorPool> {
    return new FaceExtractorPool(await ExtractorPool.startWorkers<ExtractRequest, FaceExtraction>({
      module: new URL('./extract-worker.js', import.meta.url),
      size,
      data: options,
      label: 'face worker',
      unavailable,
      revive: (e) => (e.code ? new FaceError(e.code as FaceErrorCode, e.message, e.details) : new Error(e.message)),
    }));
  }

  /**
   * Extracts the dominant face's template on a worker (FaceEngine.extract).
   * @throws FaceError with the engine's codes, or ENGINE_UNAVAILABLE when the pool is closed,
   *   every worker is gone, or the worker died during this request.
   */
  extract(image: Uint8Array, mode: FaceExtractMode): Promise<FaceExtraction> {
    return this.workers.run({ image, mode });
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
