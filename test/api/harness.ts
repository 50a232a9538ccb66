import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type StationConfig } from '../../src/runtime/config.js';
import { startStation, type Station, type StationOptions } from '../../src/station.js';
import { createLogger } from '../../src/runtime/logger.js';

export interface TestStation {
  station: Station;
  url: string;
  dataDir: string;
  /** Creates an application and returns its credential and a token. */
  application(name: string): Promise<{ key: string; secret: string; token: string; id: string }>;
  request(method: string, urlPath: string, init?: { token?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * A station on an ephemeral loopback port with a fresh temporary data directory, engines
 * disabled unless given (fakes or real ones), silent logs.
 */
export async function startTestStation(options: StationOptions & { config?: Partial<StationConfig> } = {}): Promise<TestStation> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'biostation-test-'));
  const config = loadConfig({}, {
    dataDir,
    port: 0,
    logLevel: 'silent',
    createDemoApplication: false,
    engines: { face: !!options.faceEngine, finger: !!options.fingerEngine, ocr: !!options.cnhReader },
    ...options.config,
  });
  const station = await startStation(config, { logger: createLogger('silent'), ...options });
  const request: TestStation['request'] = async (method, urlPath, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(`${station.url}${urlPath}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    station,
    url: station.url,
    dataDir,
    request,
    async application(name) {
      const credential = await station.services.applications.create(name);
      const res = await request('POST', '/api/v1/app-credentials/token', { json: { key: credential.key, secret: credential.secret } });
      const app = (await station.services.applications.list()).find((a) => a.key === credential.key)!;
      return { ...credential, token: res.body.token, id: app.id };
    },
    async close() {
      await station.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
