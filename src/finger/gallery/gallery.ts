import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { FingerError, type FingerErrorCode } from '../errors.js';
import type { FingerGallery, FingerGalleryHit } from '../engine.js';
import { parseTemplate } from '../templates/formats.js';
import { GalleryShard, type ShardHit } from './gallery-shard.js';
import type { ShardRequest } from './gallery-worker.js';

/** Galleries with fewer templates than this are searched in-process (worker round trips cost more). */
const IN_PROCESS_TEMPLATES = 2_000;

/**
 * 1:N gallery over worker threads: persons are spread round-robin over `workers` shards (default: one
 * per core, at most 8), each holding its persons' prepared templates; `search` asks every shard for its
 * top K in parallel and merges. Small galleries are also mirrored in-process and searched there.
 * `upsert` validates every record synchronously (throws INVALID_TEMPLATE) before routing it.
 * Memory: about 6 KB per prepared template of 40 minutiae.
 */
export class WorkerFingerGallery implements FingerGallery {
  private readonly workers: Worker[] = [];
  private readonly shardOf = new Map<string, number>();
  private readonly templateCount = new Map<string, number>();
  private readonly local = new GalleryShard();
  private totalTemplates = 0;
  private failure: Error | undefined;
  private closed = false;
  private next = 0;
  private requestId = 0;
  private readonly pending = new Map<number, { resolve: (h: ShardHit[]) => void; reject: (e: Error) => void }>();

  /**
   * @param workerCount shard threads (default: cores, at most 8)
   * @param inProcessTemplates galleries up to this many templates are also searched in-process
   */
  constructor(
    workerCount = Math.max(1, Math.min(8, availableParallelism())),
    private readonly inProcessTemplates = IN_PROCESS_TEMPLATES,
  ) {
    const here = import.meta.url;
    const url = here.endsWith('.ts') ? new URL('./gallery-worker-bootstrap.mjs', here) : new URL('./gallery-worker.js', here);
    for (let i = 0; i < workerCount; i++) {
      const worker = new Worker(url);
      worker.unref();
      worker.on('message', (m: { id: number; hits?: ShardHit[]; error?: { message: string; code?: string } }) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.error) p.reject(m.error.code ? new FingerError(m.error.code as FingerErrorCode, m.error.message) : new Error(m.error.message));
        else p.resolve(m.hits ?? []);
      });
      const fail = (e: Error) => {
        this.failure ??= e;
        for (const p of this.pending.values()) p.reject(new FingerError('ENGINE_UNAVAILABLE', `Fingerprint gallery worker failed: ${e.message}`));
        this.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (!this.closed) fail(new Error(`worker exited with code ${code}`));
      });
      this.workers.push(worker);
    }
  }

  upsert(extId: string, templates: Uint8Array[]): void {
    for (const t of templates) parseTemplate(t);
    let shard = this.shardOf.get(extId);
    if (shard === undefined) {
      shard = this.next++ % this.workers.length;
      this.shardOf.set(extId, shard);
    }
    this.totalTemplates += templates.length - (this.templateCount.get(extId) ?? 0);
    this.templateCount.set(extId, templates.length);
    const copies = templates.map((t) => t.slice());
    this.post(shard, { type: 'upsert', extId, templates: copies });
    if (this.totalTemplates <= this.inProcessTemplates) this.local.upsert(extId, copies);
    else if (this.local.size) this.local.clear();
  }

  remove(extId: string): void {
    const shard = this.shardOf.get(extId);
    if (shard === undefined) return;
    this.shardOf.delete(extId);
    this.totalTemplates -= this.templateCount.get(extId) ?? 0;
    this.templateCount.delete(extId);
    this.post(shard, { type: 'remove', extId });
    this.local.remove(extId);
  }

  get size(): number {
    return this.shardOf.size;
  }

  async search(probe: Uint8Array, topK: number): Promise<FingerGalleryHit[]> {
    parseTemplate(probe);
    const k = Math.max(0, Math.floor(topK));
    if (k === 0 || this.size === 0) return [];
    if (this.local.size === this.size) return this.local.search(probe, k);
    if (this.failure) throw new FingerError('ENGINE_UNAVAILABLE', `Fingerprint gallery worker failed: ${this.failure.message}`);
    const parts = await Promise.all(
      this.workers.map(
        (_, shard) =>
          new Promise<ShardHit[]>((resolve, reject) => {
            const id = ++this.requestId;
            this.pending.set(id, { resolve, reject });
            this.post(shard, { type: 'search', id, probe, topK: k });
          }),
      ),
    );
    return parts
      .flat()
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }

  /** Stops the worker threads (the gallery is unusable afterwards). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private post(shard: number, message: ShardRequest): void {
    this.workers[shard].postMessage(message);
  }
}
