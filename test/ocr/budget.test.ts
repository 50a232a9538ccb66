import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCnhReaderInThread, type CnhReader } from '../../src/ocr/index.js';
import { DecodePool, DecodeSession } from '../../src/ocr/decode-pool.js';
import { repeatedOpPdf, pngDeclaring } from '../fixtures/cnh/hostile.js';

/**
 * Runs `work` with a 10 ms interval timer going, and counts the timer callbacks (event-loop turns) that
 * ran in the later half of the time a request spent inside DecodePool.call (sent to a decode worker,
 * not yet answered). The figure is a count, not a duration: a decode that blocks the main thread lets
 * none run until it ends, however idle the machine (the earlier half is left out: it may hold the
 * asynchronous start, e.g. loading mupdf, before a synchronous render); a decode on a worker thread
 * lets the loop turn all along, however busy the machine.
 * Also returns how many requests went to the pool, and the pool's `recycled` count before and after.
 */
async function loopTurnsDuringDecode<T>(work: () => Promise<T>): Promise<{ turns: number; result: PromiseSettledResult<T>; calls: number; recycled: [number, number] }> {
  const call = DecodePool.prototype.call;
  let inFlight = 0, calls = 0, pool: DecodePool | undefined, before = 0, start = 0, end = 0;
  const turnsAt: number[] = [];
  const spy = vi.spyOn(DecodePool.prototype, 'call').mockImplementation(function (this: DecodePool, ...args: Parameters<DecodePool['call']>) {
    if (!pool) [pool, before, start] = [this, this.recycled, performance.now()];
    calls++;
    inFlight++;
    const done = (): void => {
      if (--inFlight === 0) end = performance.now();
    };
    const p = call.apply(this, args);
    p.then(done, done);
    return p;
  });
  const tick = setInterval(() => {
    if (inFlight > 0) turnsAt.push(performance.now());
  }, 10);
  try {
    const [result] = await Promise.allSettled([work()]);
    const half = (start + end) / 2;
    return { turns: turnsAt.filter((t) => t >= half).length, result, calls, recycled: [before, pool?.recycled ?? before] };
  } finally {
    clearInterval(tick);
    spy.mockRestore();
  }
}

describe('OCR decode budget (issue #18 finding 1)', () => {
  // A tight 2 s budget for the hostile document; the default budget for everything else. The readers
  // run on this thread (startCnhReaderInThread, as on the station's reader thread) so that the spies
  // see their decode pool.
  let tight: CnhReader;
  let reader: CnhReader;
  beforeAll(async () => {
    [tight, reader] = await Promise.all([startCnhReaderInThread({ poolSize: 1, budget: { timeMs: 2_000 } }), startCnhReaderInThread({ poolSize: 1 })]);
  });
  afterAll(async () => {
    await Promise.all([tight?.close(), reader?.close()]);
  });

  it('the hostile PDF is small, and takes seconds to render', () => {
    // 5,000 full-page fills: about 1 KB compressed; unbounded, mupdf needs ~50 s for it (~10 ms a fill).
    expect(repeatedOpPdf(5_000).length).toBeLessThan(1_500);
  });

  it('refuses a PDF repeating a drawing operation 5,000 times within its time budget, without blocking the event loop', async () => {
    const { turns, result, calls, recycled } = await loopTurnsDuringDecode(() => tight.read(repeatedOpPdf(5_000)));
    expect(result.status).toBe('rejected');
    expect((result as PromiseRejectedResult).reason).toMatchObject({ kind: 'DOCUMENT_TOO_COMPLEX', message: 'Documento excede os limites de processamento' });
    // The PDF went to the decode pool once, and its worker was cut off (replaced) at the budget: the
    // rendering (~50 s idle) did not run to its end.
    expect(calls).toBe(1);
    expect(recycled[1]).toBe(recycled[0] + 1);
    // The event loop kept turning while the worker rendered: with the rendering on the main thread no
    // timer callback runs until it ends (0 turns). At least 3 in the later half of the >= 2 s the worker
    // is given (about 100 idle) holds at any load short of a main thread that gets no CPU for a second.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('still reads after a cancelled document (the terminated worker is replaced)', async () => {
    await expect(tight.read(repeatedOpPdf(5_000))).rejects.toMatchObject({ kind: 'DOCUMENT_TOO_COMPLEX' });
    const small = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#f4f4f0' } }).png().toBuffer();
    // The same reader reads the next document on the replacement worker. That document's decode gets a
    // budget no load can spend (10 min instead of the reader's 2 s): on a busy machine the fresh worker's
    // first image (~0.2 s idle) could otherwise run past 2 s and be refused for time, not for a fault.
    const session = vi.spyOn(DecodePool.prototype, 'session').mockImplementationOnce(function (this: DecodePool) {
      return new DecodeSession(this, 600_000);
    });
    try {
      const r = await tight.read(small);
      expect(r.tipo_arquivo).toBe('image/png');
      expect(session).toHaveBeenCalledTimes(1);
    } finally {
      session.mockRestore();
    }
  });

  it('refuses a PNG declaring 100000 x 100000 pixels before decoding it', async () => {
    await expect(reader.read(pngDeclaring(100_000, 100_000))).rejects.toMatchObject({ kind: 'DOCUMENT_TOO_COMPLEX' });
  });

  it('answers INVALID_DOCUMENT for an image and a PDF that cannot be decoded', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
    await expect(reader.read(png)).rejects.toMatchObject({ kind: 'INVALID_DOCUMENT', message: 'Arquivo corrompido ou ilegível' });
    await expect(reader.read(Buffer.from('%PDF-1.4\n garbage'))).rejects.toMatchObject({ kind: 'INVALID_DOCUMENT' });
  });

  it('renders a huge page within the page-pixel budget instead of at 300 dpi', async () => {
    // 200 x 200 inches: 3.6 gigapixels at 300 dpi; rendered at ~12 MP instead.
    const pdf = repeatedOpPdf(1, '0 0 10 10 re f\n').toString('latin1').replace('/MediaBox [0 0 612 792]', '/MediaBox [0 0 14400 14400]');
    const r = await reader.read(Buffer.from(pdf, 'latin1'));
    expect(r.tipo_arquivo).toBe('application/pdf');
  });
});
