/**
 * A load client on threads of its own, for tests that measure the station's event loop: sending
 * megabyte bodies and reading hundreds of probe answers cost the client main-thread time (undici's
 * parser, body streaming), which would count against a station sharing the test's event loop.
 * Real clients are other processes; here the client is two worker threads with their own event loops:
 * the prober, and the sender of the load. They are apart because sending four 3 MB bodies held the
 * sending thread's event loop ~190 ms, and probes due meanwhile went out that late (the station
 * answered them in ~40 ms): a prober on that thread measured its own thread, not the station.
 * The prober also reports how late it sent its probes (`probeSendLateMs`), so a slow answer can be
 * told from a late question.
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
  /** The most any probe was sent after it was due, ms (the prober's own delay, included in `probes`). */
  probeSendLateMs: number;
}

// Plain JavaScript run with `eval`: vitest's TypeScript transform does not reach worker threads.
/** Probes /health every probeEveryMs, open loop, until told to stop; then posts its measurements. */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, probeEveryMs } = workerData;
let stop = false;
parentPort.once('message', () => { stop = true; });
(async () => {
  const probes = [];
  let failedProbes = 0;
  let probeSendLateMs = 0;
  const inflight = [];
  const t0 = performance.now();
  parentPort.postMessage({ started: true });
  for (let i = 0; !stop; i++) {
    const due = t0 + i * probeEveryMs;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    probeSendLateMs = Math.max(probeSendLateMs, performance.now() - due);
    inflight.push(fetch(url + '/health').then(async (res) => {
      await res.text();
      if (res.status !== 200) failedProbes++;
      probes.push(performance.now() - due);
    }, () => { failedProbes++; }));
  }
  await Promise.all(inflight);
  parentPort.postMessage({ probes, failedProbes, probeSendLateMs });
})().catch((e) => { throw e; });
`;

/** Sends every request at once and posts their answers. */
const SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, requests } = workerData;
(async () => {
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
  parentPort.postMessage(answers);
})().catch((e) => { throw e; });
`;

/** Starts `source` on a thread and resolves with its first message that `accept` takes. */
function thread<T>(source: string, workerData: unknown): { worker: Worker; next: (accept?: (m: unknown) => boolean) => Promise<T> } {
  const worker = new Worker(source, { eval: true, workerData });
  const next = (accept: (m: unknown) => boolean = () => true): Promise<T> => new Promise((resolve, reject) => {
    const onMessage = (m: unknown): void => {
      if (!accept(m)) return;
      worker.off('message', onMessage);
      resolve(m as T);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load client thread exited with ${code} before answering`)));
  });
  return { worker, next };
}

/**
 * Sends every request at once (after `settleMs` of probing) while /health is probed every
 * `probeEveryMs`, open loop, until the last request is answered.
 * @throws the thread's error when a request fails at the transport level
 */
export async function probedLoad(options: { url: string; token: string; requests: LoadRequest[]; probeEveryMs: number; settleMs?: number }): Promise<ProbedLoad> {
  const prober = thread<{ probes: number[]; failedProbes: number; probeSendLateMs: number }>(PROBER, { url: options.url, probeEveryMs: options.probeEveryMs });
  try {
    await prober.next((m) => typeof m === 'object' && m !== null && 'started' in m);
    await new Promise((r) => setTimeout(r, options.settleMs ?? 200));
    const sender = thread<LoadAnswer[]>(SENDER, { url: options.url, token: options.token, requests: options.requests });
    let answers: LoadAnswer[];
    try {
      answers = await sender.next();
    } finally {
      void sender.worker.terminate();
    }
    const measured = prober.next((m) => typeof m === 'object' && m !== null && 'probes' in m);
    prober.worker.postMessage('stop');
    return { ...(await measured), answers };
  } finally {
    void prober.worker.terminate();
  }
}
