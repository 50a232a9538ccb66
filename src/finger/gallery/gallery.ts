import { availableParallelism } from 'node:os';
import { WorkerPool } from '../../runtime/worker-pool.js';
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
 * top K in parallel and merges. The shards are threads of the station's one worker pool
 * (src/runtime/worker-pool.ts), addressed one by one; a shard that dies fails the gallery
 * (ENGINE_UNAVAILABLE: its persons would be missing), and the registry rebuilds it on the next write. Small galleries are also mirrored in-process and searched there, in slices of
 * SEARCH_SLICE_MS that let the event loop run between them (the station's main thread keeps answering).
 * `upsert` validates every record synchronously (throws INVALID_TEMPLATE) before routing it.
 * Memory: about 6 KB per prepared template of 40 minutiae.
 */
export class WorkerFingerGallery implements FingerGallery {
  private readonly workers: WorkerPool<ShardRequest, ShardHit[]>;
  private readonly workerCount: number;
  private readonly shardOf = new Map<string, number>();
  private readonly templateCount = new Map<string, number>();
  private readonly local = new GalleryShard();
  private totalTemplates = 0;
  private next = 0;

  /**
   * @param workerCount shard threads (default: cores, at most 8)
   * @param inProcessTemplates galleries up to this many templates are also searched in-process
   */
  constructor(
    workerCount = Math.max(1, Math.min(8, availableParallelism())),
    private readonly inProcessTemplates = IN_PROCESS_TEMPLATES,
  ) {
    this.workerCount = Math.max(1, workerCount);
    this.workers = new WorkerPool<ShardRequest, ShardHit[]>({
      module: new URL('./gallery-worker.js', import.meta.url),
      size: this.workerCount,
      respawn: false,
      label: 'fingerprint gallery worker',
      unavailable: (message) => new FingerError('ENGINE_UNAVAILABLE', message),
      revive: (e) => (e.code ? new FingerError(e.code as FingerErrorCode, e.message) : new Error(e.message)),
    });
  }

  upsert(extId: string, templates: Uint8Array[]): void {
    for (const t of templates) parseTemplate(t);
    let shard = this.shardOf.get(extId);
    if (shard === undefined) {
      shard = this.next++ % this.workerCount;
      this.shardOf.set(extId, shard);
    }
    this.totalTemplates += templates.length - (this.templateCount.get(extId) ?? 0);
    this.templateCount.set(extId, templates.length);
    const copies = templates.map((t) => t.slice());
    this.post(shard, { type: 'upsert', extId, templates: copies });
    if (this.totalTemplates <= this.inProcessTemplates) this.local.defer(extId, copies); // prepared by the next search, in slices
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
    if (this.local.size === this.size) return this.local.searchSliced(probe, k);
    const parts = await Promise.all(Array.from({ length: this.workerCount }, (_, shard) => this.workers.call(shard, { type: 'search', probe, topK: k })));
    return parts
      .flat()
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }

  /** Stops the worker threads (the gallery is unusable afterwards). */
  close(): Promise<void> {
    return this.workers.close();
  }

  private post(shard: number, message: ShardRequest): void {
    this.workers.post(shard, message);
  }
}
