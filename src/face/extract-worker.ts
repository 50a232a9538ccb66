/**
 * One face extraction worker thread (see extract-pool.ts, src/runtime/worker-pool.ts): loads its own
 * onnxruntime sessions with one intra-op thread, then serves one `extract` request at a time.
 */
import { serveWorker } from '../runtime/worker-serve.js';
import type { ExtractRequest, PoolEngineOptions } from './extract-pool.js';
import { createFaceEngine } from './index.js';

serveWorker(async (options: PoolEngineOptions) => {
  const engine = await createFaceEngine({ ...options, intraOpNumThreads: 1 });
  return (request: ExtractRequest) => engine.extract(request.image, request.mode);
});
