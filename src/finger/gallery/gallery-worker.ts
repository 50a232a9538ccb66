import { parentPort } from 'node:worker_threads';
import { GalleryShard } from './gallery-shard.js';

/** Messages from the gallery to one shard worker. */
export type ShardRequest =
  | { type: 'upsert'; extId: string; templates: Uint8Array[] }
  | { type: 'remove'; extId: string }
  | { type: 'search'; id: number; probe: Uint8Array; topK: number };

const shard = new GalleryShard();
parentPort?.on('message', (message: ShardRequest) => {
  if (message.type === 'upsert') {
    try {
      shard.upsert(message.extId, message.templates);
    } catch {
      shard.remove(message.extId); // validated by the gallery before posting; never expected
    }
  }
  else if (message.type === 'remove') shard.remove(message.extId);
  else {
    try {
      parentPort!.postMessage({ id: message.id, hits: shard.search(message.probe, message.topK) });
    } catch (e) {
      parentPort!.postMessage({ id: message.id, error: e instanceof Error ? { message: e.message, code: (e as { code?: string }).code } : { message: String(e) } });
    }
  }
});
