/**
 * API throughput: requests per second of one route at a fixed concurrency, over real HTTP on
 * loopback against a station started in this process with its real engines (the load generator
 * is a few fetch loops and costs little next to the recognition work).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type StationConfig } from '../../src/runtime/config.js';
import { createLogger } from '../../src/runtime/logger.js';
import { startStation, type Station } from '../../src/station.js';

export interface ThroughputResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export interface BenchStation {
  station: Station;
  token: string;
  close(): Promise<void>;
}

/** A station with only the given engines, a fresh data dir, an application and its token. */
export async function startBenchStation(engines: Partial<StationConfig['engines']>): Promise<BenchStation> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'biostation-bench-'));
  const config = loadConfig({}, {
    dataDir, port: 0, logLevel: 'silent', createDemoApplication: false,
    engines: { face: false, finger: false, ocr: false, ...engines },
  });
  const station = await startStation(config, { logger: createLogger('silent') });
  const credential = await station.services.applications.create('bench');
  const res = await fetch(`${station.url}/api/v1/app-credentials/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credential),
  });
  const { token } = (await res.json()) as { token: string };
  return {
    station, token,
    async close() {
      await station.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sends `body` to `url` from `concurrency` loops for `seconds` (after one warm-up request per loop). */
export async function measureThroughput(url: string, token: string, body: unknown, concurrency: number, seconds: number): Promise<ThroughputResult> {
  const payload = JSON.stringify(body);
  const send = async () => {
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: payload });
    await res.arrayBuffer();
    return { ms: performance.now() - started, ok: res.status === 200 };
  };
  await Promise.all(Array.from({ length: concurrency }, send));
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const begun = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const r = await send();
        latencies.push(r.ms);
        if (!r.ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - begun) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return { requests: latencies.length, seconds: elapsed, requestsPerSecond: latencies.length / elapsed, p50Ms: q(0.5), p99Ms: q(0.99), errors };
}
