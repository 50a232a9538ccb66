/** One shard of the fingerprint gallery (gallery.ts) on a thread of the station's worker pool (src/runtime/worker-pool.ts). */
import { serveWorker } from '../../runtime/worker-serve.js';
import { GalleryShard, type ShardHit } from './gallery-shard.js';

/** Messages from the gallery to one shard worker (upsert and remove are posted without reply). */
export type ShardRequest =
  | { type: 'upsert'; extId: string; templates: Uint8Array[] }
  | { type: 'remove'; extId: string }
  | { type: 'search'; probe: Uint8Array; topK: number };

serveWorker(() => {
  const shard = new GalleryShard();
  return (message: ShardRequest): ShardHit[] => {
    if (message.type === 'upsert') {
      try {
        shard.upsert(message.extId, message.templates);
      } catch {
        shard.remove(message.extId); // validated by the gallery before posting; never expected
      }
      return [];
    }
    if (message.type === 'remove') {
      shard.remove(message.extId);
      return [];
    }
    return shard.search(message.probe, message.topK);
  };
});
