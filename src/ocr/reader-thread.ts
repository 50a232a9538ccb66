/**
 * The station's CNH reader on a thread of its own (reader-worker.ts): the reader's JavaScript (page
 * analysis between recognitions, second looks, field extraction: 40-120 ms stretches per page, issue
 * #18) ran on the caller's thread, the station's event loop, and held `/health` past 100 ms while
 * documents were read. Here the event loop only sends the file's bytes and receives the fields.
 *
 * The reader thread and the recognisers it starts keep the main thread's priority, as the recognisers
 * had before the reader thread existed (lowered, a reading yields the cores to every other process at
 * normal priority, a kiosk's browser among them); its decode workers run below it, as every worker
 * (src/runtime/thread-priority.ts). A reader thread that dies (a crash, not a bad document:
 * those are answered) fails its documents with UNAVAILABLE and is replaced (the new one loads its
 * models again, ~2 s).
 */
import { OcrError, type CnhReader, type CnhReadResult } from './engine.js';
import type { CnhReaderOptions } from './index.js';
import { sniffMime } from './input.js';
import type { ReaderReply, ReaderRequest } from './reader-worker.js';
import { WorkerPool } from '../runtime/worker-pool.js';

const unavailable = (): OcrError => new OcrError('UNAVAILABLE', 'OCR API unavailable');

/**
 * Starts the reader thread, which starts `options.poolSize` recognisers and as many decode workers
 * (index.ts startCnhReaderInThread), and returns the reader once they are ready.
 * Throws OcrError UNAVAILABLE when the reader cannot start. `read` throws what the reader throws
 * (UNSUPPORTED_TYPE, UNAVAILABLE, INVALID_DOCUMENT, DOCUMENT_TOO_COMPLEX, PROCESSING_FAILED: see
 * startCnhReaderInThread), and UNAVAILABLE after `close` or when the reader thread dies during the document.
 */
export async function createCnhReader(options: CnhReaderOptions = {}): Promise<CnhReader> {
  const thread = new WorkerPool<ReaderRequest, ReaderReply>({
    module: new URL('./reader-worker.js', import.meta.url),
    size: 1,
    data: options,
    respawn: true,
    label: 'CNH reader thread',
    unavailable,
    revive: () => unavailable(), // the thread answers every error as a reply; a thrown one is the pool's
  });
  await thread.ready().catch(() => {
    throw unavailable();
  });
  const ask = async (request: ReaderRequest): Promise<CnhReadResult | null> => {
    let reply: ReaderReply;
    try {
      reply = await thread.call(0, request);
    } catch (e) {
      throw e instanceof OcrError ? e : unavailable(); // stopped, or no reader thread left
    }
    if (!reply.ok) throw new OcrError(reply.error.kind, reply.error.message);
    return reply.result;
  };
  let closed = false;
  return {
    async read(file: Uint8Array): Promise<CnhReadResult> {
      if (closed) throw unavailable();
      sniffMime(file); // UNSUPPORTED_TYPE at once, without the bytes' trip to the reader thread
      return (await ask({ task: 'read', file })) as CnhReadResult;
    },
    async close() {
      if (closed) return;
      closed = true;
      // The reader stops its recognisers and decode workers (documents under way finish first), then its thread stops.
      await ask({ task: 'close' }).catch(() => undefined);
      await thread.close();
    },
  };
}
