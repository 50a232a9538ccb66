/**
 * The OCR route under hostile documents (issue #18 finding 1): bounded answers with a stable code while
 * `/health` stays responsive.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCnhReader } from '../../src/ocr/index.js';
import { startTestStation, type TestStation } from '../api/harness.js';
import { pngDeclaring, repeatedOpPdf } from '../fixtures/cnh/hostile.js';

describe('OCR route: hostile documents', () => {
  let t: TestStation;
  let token: string;
  beforeAll(async () => {
    t = await startTestStation({ cnhReader: () => createCnhReader({ poolSize: 2, maxQueue: 8, budget: { timeMs: 2_000 } }) });
    token = (await t.application('ocr-hostile')).token;
    await t.station.services.engines.ocr.get();
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = (bytes: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return t.request('POST', '/api/v1/services/ocr/process-cnh', { token, body: form });
  };

  it('answers 4 hostile PDFs and 2 oversized PNGs at once with 400 DOCUMENT_TOO_COMPLEX while /health keeps answering', async () => {
    const hostile = repeatedOpPdf(5_000);
    const huge = pngDeclaring(100_000, 100_000);
    const uploads = Promise.all([
      ...Array.from({ length: 4 }, (_, i) => upload(hostile, `h${i}.pdf`)),
      ...Array.from({ length: 2 }, (_, i) => upload(huge, `big${i}.png`)),
    ]);
    let done = false;
    void uploads.finally(() => { done = true; });
    const elu0 = performance.eventLoopUtilization();
    const healthMs: number[] = [];
    while (!done) {
      const t0 = performance.now();
      const res = await t.request('GET', '/health');
      healthMs.push(performance.now() - t0);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 25));
    }
    const results = await uploads;
    // Share of the wall time the station's event loop (this process: the station runs in the test's
    // process) was busy: a decoder run on it, not in its worker, holds it near 1 for seconds.
    const busy = performance.eventLoopUtilization(elu0).utilization;
    for (const res of results) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'DOCUMENT_TOO_COMPLEX', message: 'Documento excede os limites de processamento' });
    }
    healthMs.sort((a, b) => a - b);
    const q = (p: number): number => healthMs[Math.min(healthMs.length - 1, Math.ceil(p * healthMs.length) - 1)];
    console.log(`/health during hostile uploads: n ${healthMs.length}, median ${q(0.5).toFixed(0)} ms, p99 ${q(0.99).toFixed(0)} ms, max ${q(1).toFixed(0)} ms; event loop busy ${(100 * busy).toFixed(0)} % of the time`);
    expect(healthMs.length).toBeGreaterThan(5);
    // Unbounded, one such PDF held the event loop for ~50 s. What is asserted is what does not depend
    // on how loaded the machine is: the loop mostly waits (the decoders run in their workers), and no
    // answer to /health waited anywhere near a decode's length. (The /health timings are printed here,
    // a loaded-machine measurement, not asserted.)
    expect(busy).toBeLessThan(0.5);
    expect(q(1)).toBeLessThan(2_000);
  });

  it('answers 400 INVALID_DOCUMENT (not 500) for a file with a PNG signature that does not decode', async () => {
    const res = await upload(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]), 'x.png');
    expect(res, JSON.stringify(res.body)).toMatchObject({ status: 400, body: { statusCode: 400, code: 'INVALID_DOCUMENT', message: 'Arquivo corrompido ou ilegível' } });
  });
});

// The blank page under the reader's default budget. Under the 2 s budget above it was answered 400
// DOCUMENT_TOO_COMPLEX twice on a machine loaded by other work (a clean-clone CI run beside benchmarks, and an
// engineer's loaded run), and passed alone: by our reading, its two preparations (the page and the page turned
// 180 degrees) in decode workers below the main thread's priority ran past 2 s. That is an answer about the
// machine's load, not about the page.
describe('OCR route: a blank page', () => {
  let t: TestStation;
  let token: string;
  beforeAll(async () => {
    t = await startTestStation({ cnhReader: () => createCnhReader({ poolSize: 1 }) });
    token = (await t.application('ocr-blank')).token;
    await t.station.services.engines.ocr.get();
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = (bytes: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return t.request('POST', '/api/v1/services/ocr/process-cnh', { token, body: form });
  };

  it('answers a blank image with 200, success false, documento_tipo DESCONHECIDO and motivo (not 15 empty CNH fields)', async () => {
    const blank = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const res = await upload(blank, 'blank.png');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, documento_tipo: 'DESCONHECIDO', motivo: 'DOCUMENTO_NAO_RECONHECIDO', metadados: { total_campos_extraidos: 0, qualidade_imagem: 'ruim' } });
  });
});
