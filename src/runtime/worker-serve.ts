/**
 * The worker side of src/runtime/worker-pool.ts. A worker module calls `serveWorker(init)` once:
 * `init` receives the pool's `data` and returns the handler of one request (it may load models first);
 * the worker then answers `ready` (or `failed` with init's error) and serves requests in arrival order.
 * The thread runs at a lower priority than the main thread (thread-priority.ts), unless started with
 * `keepPriority` (the CNH reader thread).
 * A request with an id gets a `result` or an `error` reply (the error's name, message, code and
 * details cross the thread; the pool's `revive` rebuilds it); a request without id gets no reply. A handler
 * may return `transferring(result, buffers)` to move the result's buffers instead of copying them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PoolReply, PoolRequest, PoolStop, PoolWorkerData, SerialisedError } from './worker-protocol.js';
import { lowerNativeImageThreads, lowerWorkerThreadPriority } from './thread-priority.js';

function serialise(e: unknown): SerialisedError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const { code, details } = e as Error & { code?: unknown; details?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(details && typeof details === 'object' ? { details: details as Record<string, unknown> } : {}),
  };
}

/** This thread's buffer and WASM memory (MiB), when the pool asked for it (it recycles workers on memory). */
function memory(): { retainedMb?: number } {
  if (!(workerData as PoolWorkerData).reportMemory) return {};
  const m = process.memoryUsage();
  return { retainedMb: Math.round((m.external + m.arrayBuffers) / 2 ** 20) };
}

const TRANSFER = Symbol('transfer');

/** A handler's result whose `transfer` buffers are moved to the pool's thread rather than copied. */
export interface Transferred<R> {
  [TRANSFER]: true;
  result: R;
  transfer: ArrayBuffer[];
}

/**
 * Wraps a handler's result so that `transfer` (buffers inside it, each one whole ArrayBuffer that this
 * thread no longer needs) moves to the pool's thread instead of being copied.
 */
export function transferring<R>(result: R, transfer: ArrayBuffer[]): Transferred<R> {
  return { [TRANSFER]: true, result, transfer };
}

const isTransferred = <R>(r: R | Transferred<R>): r is Transferred<R> => typeof r === 'object' && r !== null && TRANSFER in r;

type Handler<Q, R> = (request: Q) => R | Transferred<R> | Promise<R | Transferred<R>>;

/** Last look at the process's native image threads (ms, performance.now()); at most one a second. */
let nativeThreadsCheckedAt = -Infinity;
function lowerNativeThreadsNow(): void {
  const now = performance.now();
  if (now - nativeThreadsCheckedAt < 1000) return;
  nativeThreadsCheckedAt = now;
  lowerNativeImageThreads();
}

/**
 * `options.keepPriority`: the thread keeps the main thread's priority instead of running below it. For
 * the CNH reader thread (src/ocr/reader-worker.ts), whose recognisers it starts inherit its priority:
 * lowered, a document's reading yields the cores to every other process of the machine at normal
 * priority (a kiosk's browser with its camera preview among them), where before the reader thread
 * existed the recognisers ran at normal priority.
 */
export function serveWorker<D, Q, R>(init: (data: D) => Promise<Handler<Q, R>> | Handler<Q, R>, options: { keepPriority?: boolean } = {}): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorker runs in a worker thread only');
  const reply = (m: PoolReply<R>, transfer?: ArrayBuffer[]): void => port.postMessage(m, transfer);
  // Before init: threads init starts (onnxruntime's) inherit the lower priority.
  if (!options.keepPriority) lowerWorkerThreadPriority();
  void (async () => {
    let handle: Handler<Q, R>;
    try {
      handle = await init((workerData as PoolWorkerData).data as D);
    } catch (e) {
      reply({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    port.on('message', async (m: PoolRequest<Q> | PoolStop) => {
      if ('stop' in m) {
        port.close(); // nothing keeps the loop alive after this: the thread ends normally
        return;
      }
      try {
        const answer = await handle(m.payload);
        if (m.id === undefined) return;
        if (isTransferred(answer)) reply({ type: 'result', id: m.id, result: answer.result, ...memory() }, answer.transfer);
        else reply({ type: 'result', id: m.id, result: answer, ...memory() });
      } catch (e) {
        if (m.id !== undefined) reply({ type: 'error', id: m.id, error: serialise(e), ...memory() });
      } finally {
        lowerNativeThreadsNow();
      }
    });
    reply({ type: 'ready' });
  })();
}
