/**
 * The station's CNH reader runs on a thread of its own (src/ocr/reader-thread.ts): the reader's page
 * analysis between recognitions (40-120 ms stretches per page) no longer runs on the caller's event
 * loop, where it held `/health` (issue #18). Measured as the event loop's utilisation
 * (performance.eventLoopUtilization: busy time over elapsed time) while a card is read; the same
 * reader run on the calling thread (startCnhReaderInThread) shows the difference the test relies on.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCnhReader, startCnhReaderInThread, type CnhReader } from '../../src/ocr/index.js';
import { OcrError } from '../../src/ocr/engine.js';
import { generateCnh } from '../fixtures/cnh/index.js';

/** Event loop utilisation of this thread (0..1) while `reader` reads `bytes`, and what it read. */
async function busyWhileReading(reader: CnhReader, bytes: Uint8Array): Promise<{ utilization: number; nome: string }> {
  const before = performance.eventLoopUtilization();
  const res = await reader.read(bytes);
  return { utilization: performance.eventLoopUtilization(before).utilization, nome: res.campos.nome_completo.valor };
}

describe('CNH reader thread', () => {
  let reader: CnhReader;
  let card: Awaited<ReturnType<typeof generateCnh>>;
  beforeAll(async () => {
    [reader, card] = await Promise.all([createCnhReader({ poolSize: 1 }), generateCnh(101, { model: '2022' })]);
  }, 60_000);
  afterAll(() => reader?.close());

  it('reads a card while the calling thread\'s event loop stays nearly idle (on the calling thread it is busy)', async () => {
    const off = await busyWhileReading(reader, card.bytes);
    expect(off.nome).toBe(card.truth.nome_completo);
    const inThread = await startCnhReaderInThread({ poolSize: 1 });
    try {
      const on = await busyWhileReading(inThread, card.bytes);
      expect(on.nome).toBe(card.truth.nome_completo);
      console.log(`event loop utilisation while a card is read: reader thread ${off.utilization.toFixed(3)}, calling thread ${on.utilization.toFixed(3)}`);
      expect(on.utilization).toBeGreaterThan(0.08);
    } finally {
      await inThread.close();
    }
    expect(off.utilization).toBeLessThan(0.03);
  }, 60_000);

  it('gives the reader\'s errors with their kinds, and UNAVAILABLE once closed', async () => {
    await expect(reader.read(new Uint8Array([1, 2, 3, 4]))).rejects.toMatchObject({ kind: 'UNSUPPORTED_TYPE' });
    const truncatedPng = card.bytes.subarray(0, 200);
    await expect(reader.read(truncatedPng)).rejects.toMatchObject({ kind: 'INVALID_DOCUMENT' });
    const other = await createCnhReader({ poolSize: 1 });
    await other.close();
    const refused = await other.read(card.bytes).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OcrError);
    expect(refused).toMatchObject({ kind: 'UNAVAILABLE' });
  }, 60_000);
});
