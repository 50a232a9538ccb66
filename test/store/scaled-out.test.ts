import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config.js';
import { createLogger } from '../../src/runtime/logger.js';
import { startStation, type Station } from '../../src/station.js';
import { b64, fakeFaceEngine, faceBody } from '../api/fakes.js';
import { freshDatabase, testDatabaseUrl } from './pg-harness.js';

/**
 * Scaled-out mode: two API nodes over one PostgreSQL server (sharing the signing key). A write on
 * one node is seen by the other's 1:N gallery at its next search.
 */
describe.skipIf(!testDatabaseUrl)('two API nodes over one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let nodes: Station[];
  let token: string;
  const call = async (node: Station, method: string, p: string, json?: unknown) => {
    const res = await fetch(`${node.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    db = await freshDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-nodes-'));
    const config = loadConfig({}, {
      dataDir, store: 'postgres', databaseUrl: db.url, port: 0, logLevel: 'silent', createDemoApplication: false,
      engines: { face: true, finger: false, ocr: false },
    });
    nodes = [];
    for (let i = 0; i < 2; i++) nodes.push(await startStation(config, { logger: createLogger('silent'), faceEngine: fakeFaceEngine }));
    const credential = await nodes[0].services.applications.create('shared');
    const res = await fetch(`${nodes[1].url}/api/v1/app-credentials/token`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credential),
    });
    token = (await res.json()).token;
  });
  afterAll(async () => {
    for (const n of nodes ?? []) await n.close();
    await db?.drop();
  });

  it('enroll on one node, identify on the other; delete there, and the first node forgets', async () => {
    expect((await call(nodes[0], 'POST', '/api/v1/services/face/identify', faceBody('ana'))).body.ExternalID).toBeNull(); // loads node 0's gallery
    expect((await call(nodes[1], 'POST', '/api/v1/services/face/identify', faceBody('ana'))).body.ExternalID).toBeNull(); // and node 1's
    expect((await call(nodes[0], 'POST', '/api/v1/services/face/enroll/ana', faceBody('ana'))).status).toBe(200);
    expect((await call(nodes[1], 'POST', '/api/v1/services/face/identify', faceBody('ana'))).body.ExternalID).toBe('ana');
    expect((await call(nodes[1], 'GET', '/api/v1/services/face/count')).body).toEqual({ count: 1 });
    expect((await call(nodes[1], 'DELETE', '/api/v1/services/face/ana')).status).toBe(200);
    expect((await call(nodes[0], 'POST', '/api/v1/services/face/identify', faceBody('ana'))).body.ExternalID).toBeNull();
    expect((await call(nodes[0], 'POST', '/api/v1/services/face/enroll/ana', { Images: [{ imageData: b64('PERSON:ana') }] })).status).toBe(200);
  });
});
