/**
 * The station's one worker-thread pool, used by face extraction (stateless workers, each with its own
 * ONNX sessions: any idle worker takes the next request) and the fingerprint 1:N gallery (stateful
 * shards: each request goes to the worker holding that shard). A worker module serves requests with
 * `serveWorker` (worker-serve.ts); the pool starts `size` workers from it (through worker-entry.mjs
 * when the sources run as TypeScript), hands each `run` to the next idle ready worker (FIFO queue),
 * and `call`/`post` to a given worker.
 *
 * A worker that dies fails only the requests it held, with the pool's `unavailable` error. With
 * `respawn` (stateless workers) it is replaced and the queue waits for the replacement; when no worker
 * is left and none can be restarted the pool fails. Without `respawn` (state would be lost) the pool
 * fails at once: every later request gets `unavailable`.
 *
 * Bounded work (issue #18): a `run` may carry a time budget. A worker still on the request when its
 * budget is spent is replaced at once (the request fails with `overBudget`) and asked to stop; one
 * that cannot read the stop message (a synchronous WASM loop such as mupdf's) is terminated after
 * `stopGraceMs`. A worker that keeps more than `recycleAboveMb` of buffer/WASM memory after a request
 * is replaced the same way, and `resourceLimits` bound each worker's heap (over it the worker dies and
 * its request fails with `lost`).
 * (piscina was considered: it has no way to address one stateful worker, which the gallery needs.)
 * The messages between the pool and its threads, and how a thread is started and stopped, are in
 * worker-protocol.ts.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { entryOf, stopWorker, type PoolReply, type PoolRequest, type PoolWorkerData, type SerialisedError } from './worker-protocol.js';

export type { PoolReply, PoolRequest, PoolStop, PoolWorkerData, SerialisedError } from './worker-protocol.js';

/** How long close() lets running requests finish before it stops their workers, in ms. */
const CLOSE_GRACE_MS = 10_000;

export interface WorkerPoolOptions {
  /** The worker module (it calls serveWorker), e.g. `new URL('./extract-worker.js', import.meta.url)`. */
  module: URL;
  /** Workers to start (at least 1). */
  size: number;
  /** Handed to the worker's init (structured clone). */
  data?: unknown;
  /** Replace a worker that dies (stateless workers only). */
  respawn: boolean;
  /** Name of one worker in messages, e.g. "face worker". */
  label: string;
  /** The error of a request the pool cannot serve (stopped, failed, or its worker died). */
  unavailable: (message: string) => Error;
  /** Rebuilds in this thread an error a worker threw. */
  revive: (error: SerialisedError) => Error;
  /** The error of a `run` whose time budget ran out (default: `unavailable`). */
  overBudget?: (limitMs: number) => Error;
  /** The error of a request whose worker died during it (default: `unavailable`), e.g. over its heap limit. */
  lost?: (message: string) => Error;
  /** V8 heap limits of each worker. */
  resourceLimits?: ResourceLimits;
  /** Replace a worker that keeps more than this many MiB of buffer/WASM memory after a request. */
  recycleAboveMb?: number;
  /**
   * How long a worker asked to stop may take before it is terminated, ms (default 5000). Keep the
   * default for workers that run native addons synchronously (onnxruntime: terminating a thread inside
   * it aborts the process); JavaScript and WASM work (mupdf) may be cut short.
   */
  stopGraceMs?: number;
}

/** Options of one `run`. */
export interface RunOptions {
  /** Milliseconds the request may run once a worker takes it (queueing is not counted); <= 0 fails at once with `overBudget`. */
  timeMs?: number;
  /** Buffers of the payload moved to the worker rather than copied (postMessage's transfer list); unusable here afterwards. */
  transfer?: ArrayBuffer[];
}

interface Job<R> {
  id: number;
  payload: unknown;
  resolve: (r: R) => void;
  reject: (e: Error) => void;
  timeMs?: number;
  transfer?: ArrayBuffer[];
  /** When a worker took it (Date.now()). */
  startedAt?: number;
  timer?: NodeJS.Timeout;
  /** Set with the result: how long the worker ran it, ms. */
  ranMs?: number;
}

interface Slot<R> {
  worker: Worker;
  ready: boolean;
  /** The `run` job this worker holds (one at a time). */
  job: Job<R> | null;
  /** `call` requests sent to this worker, by id. */
  calls: Map<number, Job<R>>;
}

export class WorkerPool<Q, R> {
  private readonly slots: Slot<R>[] = [];
  private readonly queue: Job<R>[] = [];
  private nextId = 0;
  private closed = false;
  private replacing = 0;
  private failureMessage: string | null = null;
  private readonly started: Promise<void>[];
  /** Workers replaced for running over a time budget or keeping too much memory (tests, metrics). */
  recycled = 0;

  /** Starts the workers now; requests may be sent at once (`call`/`post` are buffered by the thread, `run` waits for a ready worker). */
  constructor(private readonly options: WorkerPoolOptions) {
    this.started = Array.from({ length: Math.max(1, options.size) }, () => this.spawn());
    for (const p of this.started) p.catch(() => undefined);
  }

  /** Waits until every first worker is ready. @throws Error with the first worker's failure (the pool is then closed). */
  async ready(): Promise<void> {
    const settled = await Promise.allSettled(this.started);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      await this.close();
      throw failed.reason as Error;
    }
  }

  /** Ready workers now (a dead one counts again once its replacement is ready). */
  get size(): number {
    return this.slots.filter((s) => s.ready).length;
  }

  /** Why the pool no longer serves, or null. */
  get failure(): string | null {
    return this.failureMessage;
  }

  /**
   * Runs the request on the next idle ready worker.
   * @throws the worker's revived error; `overBudget` past `options.timeMs`; `lost` when its worker dies; or `unavailable`.
   */
  async run(payload: Q, options: RunOptions = {}): Promise<R> {
    return (await this.runTimed(payload, options)).result;
  }

  /** `run`, also giving how long the worker ran the request (ms, from when it took it; queueing not counted). */
  runTimed(payload: Q, options: RunOptions = {}): Promise<{ result: R; ranMs: number }> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    if (options.timeMs !== undefined && options.timeMs <= 0) return Promise.reject(this.overBudgetError(options.timeMs));
    return new Promise((resolve, reject) => {
      const job: Job<R> = { id: this.nextId++, payload, reject, timeMs: options.timeMs, transfer: options.transfer, resolve: (result) => resolve({ result, ranMs: job.ranMs ?? 0 }) };
      this.queue.push(job);
      this.pump();
    });
  }

  private overBudgetError(limitMs: number): Error {
    return this.options.overBudget?.(limitMs) ?? this.options.unavailable(`A ${this.options.label} ran past its ${limitMs} ms budget`);
  }

  /** Sends the request to worker `index` and waits for its reply. @throws the worker's revived error, or `unavailable`. */
  call(index: number, payload: Q): Promise<R> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    const slot = this.slots[index];
    return new Promise((resolve, reject) => {
      const job: Job<R> = { id: this.nextId++, payload, resolve, reject };
      slot.calls.set(job.id, job);
      slot.worker.postMessage({ id: job.id, payload } satisfies PoolRequest<Q>);
    });
  }

  /** Sends the request to worker `index` without waiting for (or getting) a reply. */
  post(index: number, payload: Q): void {
    if (this.closed || this.failureMessage) return;
    this.slots[index].worker.postMessage({ payload } satisfies PoolRequest<Q>);
  }

  /**
   * Stops every worker: queued requests fail with `unavailable` at once, running ones may finish within
   * CLOSE_GRACE_MS (then they fail with `unavailable` too). A worker still loading is
   * stopped once it has loaded (terminating a thread inside onnxruntime's session creation aborts the process).
   */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = `The ${this.options.label}s are stopped`;
    for (const job of this.queue.splice(0)) job.reject(this.options.unavailable(stopped));
    // Running requests finish first (at most CLOSE_GRACE_MS): terminating a thread while onnxruntime
    // runs a session in it aborts the whole process.
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (Date.now() < deadline && this.slots.some((s) => s.ready && (s.job || s.calls.size > 0))) {
      await new Promise((r) => setTimeout(r, 10));
    }
    this.failAll(stopped);
    const ready = this.slots.filter((s) => s.ready);
    for (const s of ready) this.drop(s);
    await Promise.all(ready.map((s) => stopWorker(s.worker, this.options.stopGraceMs)));
  }

  /**
   * Test hook: terminates an idle worker as a crash would. An idle one: terminating a thread while
   * onnxruntime runs a session in it aborts the whole process (napi throws into a stopping env).
   */
  async crashOne(): Promise<void> {
    const slot = this.slots.find((s) => s.ready && !s.job && s.calls.size === 0) ?? this.slots.find((s) => s.ready);
    if (slot) await stopWorker(slot.worker, this.options.stopGraceMs);
  }

  private refusal(): Error | null {
    if (this.closed) return this.options.unavailable(`The ${this.options.label}s are stopped`);
    if (this.failureMessage) return this.options.unavailable(this.failureMessage);
    return null;
  }

  /** Starts one worker in a new slot; resolves when it is ready, rejects (and drops the slot) when it cannot start. */
  private spawn(index = this.slots.length): Promise<void> {
    const { entry, module } = entryOf(this.options.module);
    const workerData: PoolWorkerData = { module, data: this.options.data, reportMemory: this.options.recycleAboveMb !== undefined };
    const worker = new Worker(entry, { workerData, ...(this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {}) });
    worker.unref();
    const slot: Slot<R> = { worker, ready: false, job: null, calls: new Map() };
    this.slots.splice(index, 0, slot);
    return new Promise((resolve, reject) => {
      worker.on('message', (m: PoolReply<R>) => {
        if (m.type === 'ready') {
          if (this.closed) {
            this.drop(slot);
            void stopWorker(worker);
            resolve();
            return;
          }
          slot.ready = true;
          resolve();
          this.pump();
        } else if (m.type === 'failed') {
          this.drop(slot);
          void stopWorker(worker);
          if (!this.options.respawn && !this.closed) this.fail(`${this.options.label} failed: ${m.message}`);
          reject(new Error(m.message));
        } else this.onReply(slot, m);
      });
      worker.on('error', (e) => {
        if (!slot.ready) reject(e);
        this.onExit(slot, e.message);
      });
      worker.on('exit', (code) => {
        if (!slot.ready) reject(new Error(`${this.options.label} exited with code ${code} while loading`));
        this.onExit(slot, `exited with code ${code}`);
      });
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      job.startedAt = Date.now();
      if (job.timeMs !== undefined) job.timer = setTimeout(() => this.onOverBudget(slot, job), job.timeMs);
      slot.worker.postMessage({ id: job.id, payload: job.payload as Q } satisfies PoolRequest<Q>, job.transfer);
    }
  }

  private onOverBudget(slot: Slot<R>, job: Job<R>): void {
    if (slot.job !== job) return;
    slot.job = null;
    job.reject(this.overBudgetError(job.timeMs ?? 0));
    this.recycle(slot);
  }

  /** Replaces a worker that is still sound but must go (over a budget, or holding too much memory): asked to stop, a new one started in its place. */
  private recycle(slot: Slot<R>): void {
    const index = this.slots.indexOf(slot);
    if (!this.drop(slot)) return;
    this.recycled++;
    for (const job of slot.calls.values()) job.reject(this.options.unavailable(`A ${this.options.label} was replaced during the request`));
    void stopWorker(slot.worker, this.options.stopGraceMs);
    if (this.closed) return;
    if (this.options.respawn) this.replace(index);
    else this.fail(`${this.options.label} was replaced and holds state that cannot be rebuilt`);
  }

  private onReply(slot: Slot<R>, m: Extract<PoolReply<R>, { id: number }>): void {
    let job: Job<R> | undefined;
    if (slot.job?.id === m.id) {
      job = slot.job;
      slot.job = null;
    } else {
      job = slot.calls.get(m.id);
      slot.calls.delete(m.id);
    }
    if (!job) return;
    if (job.timer) clearTimeout(job.timer);
    job.ranMs = Date.now() - (job.startedAt ?? Date.now());
    if (m.type === 'result') job.resolve(m.result); // structured clone: already this thread's own copy
    else job.reject(this.options.revive(m.error));
    const limit = this.options.recycleAboveMb;
    if (limit !== undefined && (m.retainedMb ?? 0) > limit && slot.job === null && slot.calls.size === 0) this.recycle(slot);
    this.pump();
  }

  private drop(slot: Slot<R>): boolean {
    const i = this.slots.indexOf(slot);
    if (i < 0) return false;
    this.slots.splice(i, 1);
    slot.worker.removeAllListeners();
    return true;
  }

  private onExit(slot: Slot<R>, why: string): void {
    const wasReady = slot.ready;
    const index = this.slots.indexOf(slot);
    if (!this.drop(slot)) return; // 'error' then 'exit': handled once
    const message = `A ${this.options.label} stopped during the request: ${why}`;
    const lost = this.options.lost?.(message) ?? this.options.unavailable(message);
    if (slot.job?.timer) clearTimeout(slot.job.timer);
    slot.job?.reject(lost);
    for (const job of slot.calls.values()) job.reject(lost);
    if (this.closed) return;
    if (!this.options.respawn) {
      this.fail(`${this.options.label} failed: ${why}`);
      return;
    }
    if (!wasReady) return; // a replacement that could not start: counted below
    this.replace(index);
  }

  /** Starts a worker in slot `index` in place of one that is gone; the pool fails when none is left and none can start. */
  private replace(index: number): void {
    this.replacing++;
    this.spawn(index).then(
      () => {
        this.replacing--;
      },
      (e: Error) => {
        this.replacing--;
        if (this.size === 0 && this.replacing === 0) this.fail(`The ${this.options.label}s are gone and could not be restarted: ${e.message}`);
      },
    );
  }

  private fail(message: string): void {
    this.failureMessage ??= message;
    this.failAll(this.failureMessage);
  }

  private failAll(message: string): void {
    const error = (): Error => this.options.unavailable(message);
    for (const job of this.queue.splice(0)) job.reject(error());
    for (const slot of this.slots) {
      if (slot.job?.timer) clearTimeout(slot.job.timer);
      slot.job?.reject(error());
      slot.job = null;
      for (const job of slot.calls.values()) job.reject(error());
      slot.calls.clear();
    }
  }
}
