/**
 * One face extraction worker thread (see extract-pool.ts): loads its own onnxruntime sessions with one
 * intra-op thread, answers `ready` (or `failed`), then one `extract` request at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isFaceError } from './errors.js';
import { createFaceEngine } from './index.js';
import type { CreateFaceEngineOptions } from './tuning.js';
import type { ExtractReply, ExtractRequest } from './extract-pool.js';

const port = parentPort!;
const reply = (m: ExtractReply): void => port.postMessage(m);

try {
  const engine = await createFaceEngine({ ...(workerData as CreateFaceEngineOptions), intraOpNumThreads: 1 });
  port.on('message', async (m: ExtractRequest) => {
    try {
      const r = await engine.extract(m.image, m.mode);
      reply({ type: 'result', id: m.id, result: r });
    } catch (e) {
      reply({
        type: 'error',
        id: m.id,
        error: isFaceError(e) ? { code: e.code, message: e.message, details: e.details } : { message: e instanceof Error ? e.message : String(e) },
      });
    }
  });
  reply({ type: 'ready' });
} catch (e) {
  reply({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
}
