/**
 * Fingerprint extraction on worker threads. Decoding a large image and extracting its minutiae is
 * pure CPU in this thread (~250-300 ms for a 2000x2000 px image), so in-process extraction holds the
 * event loop: four large images stalled /health for over a second (issue #18). The pool runs the
 * whole `MinutiaeFingerEngine.extract` (decode, rescale, minutiae, quality gate, ISO record) on the
 * station's worker pool (src/runtime/worker-pool.ts), one request per idle worker; templates,
 * scores and galleries stay in this thread. The same code runs in the worker, so the templates are
 * byte-identical to in-process extraction (bench/digest.ts `--finger-workers N` checks it).
 *
 * Input errors keep their codes and details across the thread (INVALID_IMAGE, IMAGE_TOO_LARGE,
 * FINGERPRINT_QUALITY_TOO_LOW with details.quality, ...). A worker that dies (crash, out of memory)
 * fails its request with ENGINE_UNAVAILABLE and is replaced; the queue waits for the replacement.
 */
import { ExtractorPool } from '../runtime/extractor-pool.js';
import type { FingerEngine, FingerExtraction } from './engine.js';
import { FingerError, FINGER_ERROR_TEXT, type FingerErrorCode } from './errors.js';
import { MinutiaeFingerEngine, type MinutiaeFingerEngineOptions } from './finger-engine.js';
import type { WorkerFingerGallery } from './gallery/gallery.js';

/** Main thread -> worker. */
export interface FingerExtractRequest {
  image: Uint8Array;
  dpi?: number;
}

const unavailable = (message: string): FingerError => new FingerError('ENGINE_UNAVAILABLE', message);

/** Rebuilds a worker's error: a FingerError with its code, message and details; anything else as a plain Error. */
function revive(e: { name: string; message: string; code?: string; details?: Record<string, unknown> }): Error {
  if (e.name === 'FingerError' && e.code && e.code in FINGER_ERROR_TEXT) return new FingerError(e.code as FingerErrorCode, e.message, e.details);
  return new Error(e.message);
}

export class FingerExtractorPool extends ExtractorPool<FingerExtractRequest, FingerExtraction> {
  /**
   * Starts `size` workers (replaced when they die), each with a MinutiaeFingerEngine built from `options`,
   * and waits until every one is ready.
   * @throws FingerError ENGINE_UNAVAILABLE when a worker cannot start.
   */
  static async start(size: number, options: MinutiaeFingerEngineOptions = {}): Promise<FingerExtractorPool> {
    return new FingerExtractorPool(await ExtractorPool.startWorkers<FingerExtractRequest, FingerExtraction>({
      module: new URL('./extract-worker.js', import.meta.url),
      size,
      data: options,
      label: 'fingerprint extraction worker',
      unavailable,
      revive,
    }));
  }

  /**
   * MinutiaeFingerEngine.extract on a worker.
   * @throws FingerError with the engine's codes, or ENGINE_UNAVAILABLE when the pool is closed or the worker died.
   */
  extract(image: Uint8Array, dpi?: number): Promise<FingerExtraction> {
    return this.workers.run(dpi === undefined ? { image } : { image, dpi });
  }
}

/** FingerEngine whose extraction runs on a FingerExtractorPool; scores and galleries stay in this thread (`local`). */
export class PooledFingerEngine implements FingerEngine {
  constructor(
    private readonly local: MinutiaeFingerEngine,
    readonly pool: FingerExtractorPool,
  ) {}

  get defaultThreshold(): number {
    return this.local.defaultThreshold;
  }

  extract(image: Uint8Array, options?: { dpi?: number }): Promise<FingerExtraction> {
    return this.pool.extract(image, options?.dpi);
  }

  similarity(a: Uint8Array, b: Uint8Array): number {
    return this.local.similarity(a, b);
  }

  similarityOfInterchange(a: Uint8Array, b: Uint8Array): number {
    return this.local.similarityOfInterchange(a, b);
  }

  createGallery(): WorkerFingerGallery {
    return this.local.createGallery();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
