/**
 * The protocol between the worker pool (worker-pool.ts) and its threads (worker-serve.ts): the
 * messages each way, what a thread is started with, and how one is started (entryOf: through
 * worker-entry.mjs when the sources run as TypeScript) and ended (stopWorker: asked first, then
 * terminated).
 */
import type { Worker } from 'node:worker_threads';

/** How long a worker asked to stop may take to end its thread before it is terminated, in ms. */
const STOP_GRACE_MS = 5_000;

/**
 * Ends a worker's thread: first by asking it (its loop drains and the thread exits normally, so native
 * finalizers such as onnxruntime's run in a live environment), then by terminate() after STOP_GRACE_MS.
 * A bare terminate() of a thread that holds onnxruntime sessions can abort the whole process
 * ("terminate called after throwing an instance of 'Napi::Error'").
 */
export function stopWorker(worker: Worker, graceMs = STOP_GRACE_MS): Promise<void> {
  if (worker.threadId === -1) return Promise.resolve(); // already ended (e.g. after a failed start)
  worker.on('error', () => undefined); // a stopping worker's late error is no longer anyone's
  return new Promise((resolve) => {
    const timer = setTimeout(() => void worker.terminate().then(() => resolve(), () => resolve()), graceMs);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage({ stop: true } satisfies PoolStop);
  });
}

/** An error as it crosses the thread boundary. */
export interface SerialisedError {
  name: string;
  message: string;
  code?: string;
  details?: Record<string, unknown>;
}

/** Pool -> worker. */
export interface PoolRequest<Q> {
  id?: number;
  payload: Q;
}

/** Asks a worker to end its thread by itself (worker-serve.ts closes its port and lets the loop drain). */
export interface PoolStop {
  stop: true;
}

/** Worker -> pool. `retainedMb`: the worker's buffer and WASM memory after the request (external + arrayBuffers, MiB), sent when the pool recycles on memory. */
export type PoolReply<R> =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: R; retainedMb?: number }
  | { type: 'error'; id: number; error: SerialisedError; retainedMb?: number };

/** What worker-serve.ts receives as workerData. */
export interface PoolWorkerData {
  module: string;
  data: unknown;
  /** Report retainedMb with every reply. */
  reportMemory: boolean;
}

/** Resolves the worker module and the entry that loads it (tsx for TypeScript sources). */
export function entryOf(module: URL): { entry: URL; module: string } {
  const isTs = module.pathname.endsWith('.ts') || (import.meta.url.endsWith('.ts') && module.pathname.endsWith('.js'));
  if (!isTs) return { entry: module, module: module.href };
  const ts = module.href.replace(/\.js$/, '.ts');
  return { entry: new URL('./worker-entry.mjs', import.meta.url), module: ts };
}
