/**
 * What the face and fingerprint extraction pools share (src/face/extract-pool.ts,
 * src/finger/extract-pool.ts): stateless engine workers on the station's one worker pool
 * (worker-pool.ts), replaced when they die, each request handed to the next idle worker. A subclass
 * adds its engine's `extract`, sending its request type `Q` and receiving `R` through `workers.run`.
 *
 * A worker that dies (crash, out of memory) fails its request with the pool's `unavailable` error (the
 * engine's ENGINE_UNAVAILABLE) and is replaced; the queue waits for the replacement.
 */
import { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

/** The worker pool options an extraction pool chooses; `respawn` is always on (the workers hold no state). */
export type ExtractorPoolOptions = Pick<WorkerPoolOptions, 'module' | 'size' | 'data' | 'label' | 'unavailable' | 'revive'>;

export class ExtractorPool<Q, R> {
  protected constructor(protected readonly workers: WorkerPool<Q, R>) {}

  /**
   * Starts `options.size` workers from `options.module` and waits until every one is ready (its models loaded).
   * @throws `options.unavailable("The <label>s could not start: <why>")` when a worker cannot start.
   */
  protected static async startWorkers<Q, R>(options: ExtractorPoolOptions): Promise<WorkerPool<Q, R>> {
    const workers = new WorkerPool<Q, R>({ ...options, respawn: true });
    try {
      await workers.ready();
    } catch (e) {
      throw options.unavailable(`The ${options.label}s could not start: ${(e as Error).message}`);
    }
    return workers;
  }

  /** Workers running now (a crashed one is counted again once its replacement is up). */
  get size(): number {
    return this.workers.size;
  }

  /** Stops every worker; queued and running requests fail with the pool's `unavailable` error. */
  close(): Promise<void> {
    return this.workers.close();
  }

  /** Test hook: terminates a worker as a crash would (its request fails, a replacement starts). */
  crashOne(): Promise<void> {
    return this.workers.crashOne();
  }
}
