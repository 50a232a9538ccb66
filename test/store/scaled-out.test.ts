import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config.js';
import { createLogger } from '../../src/runtime/logger.js';
import { startStation, type Station } from '../../src/station.js';
import { b64, fakeFaceEngine, faceBody } from '../api/fakes.js';
import { freshDatabase, testDatabaseUrl } from './pg-harness.js';

/**
 * Scaled-out mode: two API nodes over one PostgreSQL server (sharing the signing key). A write on
 * one node reaches the other's 1:N gallery by LISTEN/NOTIFY (milliseconds), without a query before
 * each search. No duration is asserted (CI runs on a loaded box): while the listener is up a node
 * learns of another's write only by its notification, so a write seen with no revision query was
 * carried by LISTEN/NOTIFY; the waits below (PROPAGATION_WAIT_MS) only stop a broken feed from
 * hanging. The propagation time measured is printed.
 */
/** How long a test waits for a write to reach the other node before it fails, ms: a give-up far above the milliseconds it takes. */
const PROPAGATION_WAIT_MS = 20_000;

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
  /** Polls until `check` holds, for at most `ms` (a give-up, not a target); returns the time it took. */
  const within = async (ms: number, check: () => Promise<boolean>) => {
    const started = performance.now();
    while (!(await check())) {
      if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return performance.now() - started;
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
    await within(PROPAGATION_WAIT_MS, async () => (await call(nodes[1], 'POST', '/api/v1/services/face/identify', faceBody('ana'))).body.ExternalID === 'ana');
    expect((await call(nodes[1], 'GET', '/api/v1/services/face/count')).body).toEqual({ count: 1 });
    expect((await call(nodes[1], 'DELETE', '/api/v1/services/face/ana')).status).toBe(200);
    await within(PROPAGATION_WAIT_MS, async () => (await call(nodes[0], 'POST', '/api/v1/services/face/identify', faceBody('ana'))).body.ExternalID === null);
    expect((await call(nodes[0], 'POST', '/api/v1/services/face/enroll/ana', { Images: [{ imageData: b64('PERSON:ana') }] })).status).toBe(200);
  });

  it('a node identifies an enrollment made on the other, told by LISTEN/NOTIFY: no revision query per search', async () => {
    const original = pg.Pool.prototype.query;
    let revisionQueries = 0;
    pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
      if (text?.includes('.revisions')) revisionQueries++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      await call(nodes[1], 'POST', '/api/v1/services/face/identify', faceBody('bia')); // node 1's gallery is loaded
      revisionQueries = 0;
      for (let i = 0; i < 20; i++) await call(nodes[1], 'POST', '/api/v1/services/face/identify', faceBody('bia'));
      expect(revisionQueries).toBe(0);
      expect((await call(nodes[0], 'POST', '/api/v1/services/face/enroll/bia', faceBody('bia'))).status).toBe(200);
      const ms = await within(PROPAGATION_WAIT_MS, async () => (await call(nodes[1], 'POST', '/api/v1/services/face/identify', faceBody('bia'))).body.ExternalID === 'bia');
      expect(revisionQueries).toBe(0); // so the write came by notification
      console.info(`[scaled-out] node B identified node A's enrollment ${ms.toFixed(0)} ms after it was acknowledged`);
    } finally {
      pg.Pool.prototype.query = original;
    }
  });
});

describe.skipIf(!testDatabaseUrl)('first start of two nodes on an empty PostgreSQL database', () => {
  it('creates one demo application, not two', async () => {
    const db = await freshDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-first-'));
    const config = loadConfig({}, {
      dataDir, store: 'postgres', databaseUrl: db.url, port: 0, logLevel: 'silent', createDemoApplication: true, engines: { face: false, finger: false, ocr: false },
    });
    const nodes = await Promise.all([startStation(config, { logger: createLogger('silent') }), startStation(config, { logger: createLogger('silent') })]);
    try {
      expect((await nodes[0].services.applications.list()).map((a) => a.name)).toEqual(['demo']);
      expect(nodes.filter((n) => n.demoCredential).length).toBe(1);
    } finally {
      for (const n of nodes) await n.close();
      await db.drop();
    }
  });
});
