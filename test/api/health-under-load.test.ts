/**
 * Issue #18 acceptance: `/health` answers within 100 ms (p99) while 4 hostile PDFs (OCR) and 4 large
 * fingerprint images (finger enroll) are processed at once, once with JPEG prints (~0.5 MB bodies) and
 * once with PNG prints (~3 MB bodies: JSON parsing and base64 decoding were main-thread work, 25-35 ms a
 * body before the native base64 check, ~9 ms after it; bodies from 256 KiB are now parsed and decoded on
 * the body worker, src/http/json-body.ts, ~0.4 ms of main thread each). PDF rendering runs on the OCR decode
 * workers under a time budget, fingerprint decoding + extraction on the finger extraction workers
 * (src/finger/extract-pool.ts); the main thread only parses requests and answers.
 *
 * It runs alone, after the other test files (`npm test`'s second step, vitest.alone.config.ts): beside
 * another file on 2 cores it would measure that file's load.
 *
 * The client (probes and load) runs on a worker thread (load-client.ts), as real clients are other
 * processes. /health is probed open-loop: one request is due every 20 ms from the start, whether or not the
 * previous ones have been answered, and each latency counts from the moment its request was due. A
 * main thread blocked for 300 ms therefore shows as ~15 late probes (not one), so the p99 catches it:
 * `BIOSTATION_FINGER_WORKERS=0 npx vitest run -c vitest.alone.config.ts` (extraction on the main
 * thread) fails with p99 ~260 ms on a 2-core box; with 2 workers the p99 was ~30 ms.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCnhReader } from '../../src/ocr/index.js';
import { repeatedOpPdf } from '../fixtures/cnh/hostile.js';
import { startTestStation, type TestStation } from './harness.js';
import { probedLoad, type LoadRequest } from './load-client.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const fvc = path.join(datasets, 'fvc/fvc2002/DB1_B');
const haveData = existsSync(path.join(fvc, '101_1.png'));
if (!haveData) console.warn(`/health under load skipped: no FVC images at ${fvc} (set BIOSTATION_DATASETS)`);

/** Extraction workers for this test; BIOSTATION_FINGER_WORKERS=0 puts extraction back on the main thread (the test must then fail). */
const fingerWorkers = Number(process.env.BIOSTATION_FINGER_WORKERS ?? 2);
const PROBE_EVERY_MS = 20;

/**
 * How long this thread (the station's main thread: the test runs in it) has waited for a CPU while
 * runnable, ms (Linux schedstat run_delay); undefined elsewhere. Printed with the result: a p99 over the
 * bound with a large wait was the machine's load (other processes holding both cores), one with a
 * small wait was the station's own main-thread work.
 */
function runQueueWaitMs(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

describe.skipIf(!haveData)('/health under hostile load (issue #18)', () => {
  let t: TestStation;
  let token: string;
  /** Finger enroll bodies by image format, JSON-encoded beforehand (outside the measurement: the client runs in this process). */
  const fingers: Record<'jpeg' | 'png', Uint8Array<ArrayBuffer>[]> = { jpeg: [], png: [] };

  beforeAll(async () => {
    t = await startTestStation({
      // A 3 s decode budget per document (the default is 15 s): the hostile PDFs are cut off sooner, same code path.
      cnhReader: () => createCnhReader({ poolSize: 2, maxQueue: 8, budget: { timeMs: 3_000 } }),
      config: { engines: { face: false, finger: true, ocr: true }, fingerWorkers },
    });
    token = (await t.application('health-load')).token;
    await Promise.all([t.station.services.engines.finger.get(), t.station.services.engines.ocr.get()]);
    // Warm-up, outside the measurement: one small enrolment and one small document load the lazily imported
    // modules, the application's store and gallery workers (one-off costs of a station's first request).
    const warm = new FormData();
    warm.append('file', new Blob([new Uint8Array(repeatedOpPdf(3, '10 10 50 50 re f\n'))]), 'warm.pdf');
    const warmPrint = (f: string) => ({ position: 'UNKNOWN', dpi: '500', imageData: readFileSync(path.join(fvc, `${f}_1.png`)).toString('base64') });
    const [warmEnroll, warmOcr] = await Promise.all([
      t.request('POST', '/api/v1/services/finger/enroll/warm-up-1', { token, json: warmPrint('105') }),
      t.request('POST', '/api/v1/services/ocr/process-cnh', { token, body: warm }),
    ]);
    expect(warmEnroll.status).toBe(200);
    // A second one searches the gallery for duplicates (the matcher's first run).
    expect((await t.request('POST', '/api/v1/services/finger/enroll/warm-up-2', { token, json: warmPrint('106') })).status).toBe(200);
    expect(warmOcr.status).not.toBe(500);
    // Four FVC prints upscaled to 2000 x 2000 px (4 MP) sent as 2000 dpi: valid, and heavy to decode, rescale and extract
    // (0.1-0.4 s each). As JPEG the bodies are near 0.5 MB; as PNG near 3 MB (both parsed on the station's body worker).
    for (const format of ['jpeg', 'png'] as const) {
      fingers[format] = await Promise.all(['101', '102', '103', '104'].map(async (f) => {
        const upscaled = sharp(readFileSync(path.join(fvc, `${f}_1.png`))).resize(2000, 2000, { fit: 'fill' });
        const image = await (format === 'jpeg' ? upscaled.jpeg({ quality: 90 }) : upscaled.png()).toBuffer();
        return new Uint8Array(Buffer.from(JSON.stringify({ position: 'UNKNOWN', dpi: '2000', imageData: image.toString('base64') })));
      }));
    }
    expect(Math.min(...fingers.png.map((b) => b.length))).toBeGreaterThan(2_500_000);
  }, 120_000);
  afterAll(() => t?.close());

  it.each(['jpeg', 'png'] as const)('answers /health with p99 < 100 ms while 4 hostile PDFs and 4 large %s fingerprints are processed, and every request gets a bounded non-500 answer', async (format) => {
    const pdf = new Uint8Array(repeatedOpPdf(5_000, '0 0 1 1 re f\n'));
    const requests: LoadRequest[] = [
      ...Array.from({ length: 4 }, () => ({ method: 'POST' as const, path: '/api/v1/services/ocr/process-cnh', file: { bytes: pdf, name: 'cnh.pdf' } })),
      ...fingers[format].map((json, i) => ({ method: 'POST' as const, path: `/api/v1/services/finger/enroll/load-${format}-${i}`, json })),
    ];
    const waitedBefore = runQueueWaitMs();
    const started = performance.now();
    const { probes, answers, failedProbes, probeSendLateMs } = await probedLoad({ url: t.url, token, requests, probeEveryMs: PROBE_EVERY_MS });
    const wallMs = performance.now() - started;
    const waitedMs = waitedBefore === undefined ? undefined : (runQueueWaitMs() ?? waitedBefore) - waitedBefore;
    const ocrResults = answers.slice(0, 4);
    const enrollResults = answers.slice(4);

    // The hostile PDFs: an answer within their budget (read with no CNH found, 400 DOCUMENT_TOO_COMPLEX, or 503 when the queue is full), never 500.
    for (const r of ocrResults) {
      expect([200, 400, 503], JSON.stringify(r)).toContain(r.status);
      expect(r.ms).toBeLessThan(30_000);
    }
    // The large valid prints are enrolled.
    for (const r of enrollResults) expect(r.status, JSON.stringify(r)).toBe(200);

    const sorted = [...probes].sort((a, b) => a - b);
    const p99 = percentile(sorted, 99);
    console.log(`/health under load (${format}, ${fingerWorkers} finger workers): ${sorted.length} probes, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (probes sent at most ${probeSendLateMs.toFixed(0)} ms late); OCR ${ocrResults.map((r) => `${r.status} in ${r.ms.toFixed(0)} ms`).join(', ')}; enroll ${enrollResults.map((r) => `${r.status} in ${r.ms.toFixed(0)} ms`).join(', ')}; main thread waited for a CPU ${waitedMs === undefined ? 'n/a' : `${waitedMs.toFixed(0)} ms`} of ${wallMs.toFixed(0)} ms, load average ${loadavg()[0].toFixed(1)}`);
    expect(failedProbes).toBe(0);
    expect(sorted.length).toBeGreaterThan(50);
    expect(p99).toBeLessThan(100);
  }, 120_000);
});
