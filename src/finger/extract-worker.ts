/**
 * One fingerprint extraction worker thread (see extract-pool.ts, src/runtime/worker-pool.ts): builds a
 * MinutiaeFingerEngine with the pool's options and serves one `extract` request at a time.
 */
import { serveWorker } from '../runtime/worker-serve.js';
import type { FingerExtractRequest } from './extract-pool.js';
import { MinutiaeFingerEngine, type MinutiaeFingerEngineOptions } from './finger-engine.js';

serveWorker((options: MinutiaeFingerEngineOptions) => {
  const engine = new MinutiaeFingerEngine(options);
  return (request: FingerExtractRequest) => engine.extract(request.image, request.dpi === undefined ? undefined : { dpi: request.dpi });
});
