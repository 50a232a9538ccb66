/**
 * The reader thread (reader-thread.ts starts it on the runtime worker pool): runs the whole CNH reader
 * of index.ts `startCnhReaderInThread` (its tesseract.js workers and decode pool are this thread's
 * own workers). It keeps the main thread's priority, as do the recognisers it starts (worker-serve.ts
 * `keepPriority`); its decode workers run below it. ReaderRequest in, ReaderReply out; the reader's
 * OcrErrors come back as replies (their kind and message), so the station's thread rebuilds them
 * exactly. Requests are served as they arrive, several documents at once (the reader queues them).
 */
import { isMainThread } from 'node:worker_threads';
import { OcrError, type CnhReader, type CnhReadResult, type OcrErrorKind } from './engine.js';
import { startCnhReaderInThread, type CnhReaderOptions } from './index.js';
import { serveWorker } from '../runtime/worker-serve.js';

export type ReaderRequest = { task: 'read'; file: Uint8Array } | { task: 'close' };

export type ReaderReply =
  | { ok: true; result: CnhReadResult | null }
  | { ok: false; error: { kind: OcrErrorKind; message: string } };

/** One request to `reader`; never throws (a fault of the station is PROCESSING_FAILED, as in the reader). */
export async function serveReaderRequest(reader: CnhReader, request: ReaderRequest): Promise<ReaderReply> {
  try {
    if (request.task === 'close') {
      await reader.close();
      return { ok: true, result: null };
    }
    return { ok: true, result: await reader.read(request.file) };
  } catch (e) {
    if (e instanceof OcrError) return { ok: false, error: { kind: e.kind, message: e.message } };
    return { ok: false, error: { kind: 'PROCESSING_FAILED', message: 'Erro ao processar documento' } };
  }
}

if (!isMainThread) {
  serveWorker(async (options: CnhReaderOptions) => {
    const reader = await startCnhReaderInThread(options);
    return (request: ReaderRequest) => serveReaderRequest(reader, request);
  }, { keepPriority: true });
}
