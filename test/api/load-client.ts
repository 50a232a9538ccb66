/**
 * A load client on its own thread, for tests that measure the station's event loop: sending
 * megabyte bodies and reading hundreds of probe answers cost the client main-thread time (undici's
 * parser, body streaming), which would count against a station sharing the test's event loop.
 * Real clients are other processes; here the client is a worker thread with its own event loop.
 */
import { Worker } from 'node:worker_threads';

export interface LoadRequest {
  method: 'POST';
  path: string;
  /** JSON body bytes (sent as application/json), or a file sent as multipart field `file`. */
  json?: Uint8Array;
  file?: { bytes: Uint8Array; name: string };
}

export interface LoadAnswer {
  status: number;
  /** `code`, `result_code` or `error_code` of the answer body, when it has one. */
  code?: unknown;
  /** Send to answer read, ms. */
  ms: number;
}

export interface ProbedLoad {
  /** Latency of each /health probe in ms, counted from the moment it was due (open loop). */
  probes: number[];
  /** Answers of `requests`, in order. */
  answers: LoadAnswer[];
  /** Probes that did not answer 200. */
  failedProbes: number;
}

// Plain JavaScript run with `eval`: vitest's TypeScript transform does not reach worker threads.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, requests, probeEveryMs, settleMs } = workerData;
(async () => {
  let loadDone = false;
  const probes = [];
  let failedProbes = 0;
  const inflight = [];
  const t0 = performance.now();
  const prober = (async () => {
    for (let i = 0; !loadDone; i++) {
      const due = t0 + i * probeEveryMs;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      inflight.push(fetch(url + '/health').then(async (res) => {
        await res.text();
        if (res.status !== 200) failedProbes++;
        probes.push(performance.now() - due);
      }, () => { failedProbes++; }));
    }
  })();
  await new Promise((r) => setTimeout(r, settleMs));
  const answers = await Promise.all(requests.map(async (r) => {
    const headers = { authorization: 'Bearer ' + token };
    let body;
    if (r.json) {
      headers['content-type'] = 'application/json';
      body = r.json;
    } else {
      body = new FormData();
      body.append('file', new Blob([r.file.bytes]), r.file.name);
    }
    const s = performance.now();
    const res = await fetch(url + r.path, { method: r.method, headers, body });
    const text = await res.text();
    let parsed;
    try { parsed = JSON.parse(text); } catch { parsed = undefined; }
    const code = parsed && (parsed.code ?? parsed.result_code ?? parsed.error_code ?? (parsed.result && parsed.result.code));
    return { status: res.status, code, ms: performance.now() - s };
  }));
  loadDone = true;
  await prober;
  await Promise.all(inflight);
  parentPort.postMessage({ probes, answers, failedProbes });
})().catch((e) => { throw e; });
`;

/**
 * Sends every request at once (after `settleMs` of probing) while /health is probed every
 * `probeEveryMs`, open loop, until the last request is answered.
 * @throws the worker's error when a request fails at the transport level
 */
export function probedLoad(options: { url: string; token: string; requests: LoadRequest[]; probeEveryMs: number; settleMs?: number }): Promise<ProbedLoad> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { settleMs: 200, ...options } });
    worker.once('message', (m: ProbedLoad) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load client exited with ${code} before answering`)));
  });
}
