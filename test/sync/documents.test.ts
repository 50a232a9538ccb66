import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEncrypted } from '../../src/store/encryption/encrypting-store.js';
import { openStore } from '../../src/store/index.js';
import { DEFAULT_PEER_LIMITS } from '../../src/sync/peer-client.js';
import { SyncService } from '../../src/sync/service.js';
import { formatHlc } from '../../src/sync/hlc.js';
import { startTestStation, type TestStation } from '../api/harness.js';
import { fakeFaceEngine, fakeFingerEngine, faceBody } from '../api/fakes.js';
import { freshDatabase, testDatabaseUrl } from '../store/pg-harness.js';
import { tenantSchema } from '../../src/store/postgres/schema.js';

/**
 * Document records (PUT/GET/DELETE /api/v1/persons/{ext_id}/document) travel with station sync
 * (src/store/documents.ts, src/sync/document-wire.ts): two stations on loopback, A (the peer) and
 * B (whose operator configured A), with fake engines, on SQLite and on PostgreSQL.
 */
type Backend = 'sqlite' | 'postgres';

const cnh = (name: string, extra: Record<string, unknown> = {}) => ({
  kind: 'CNH', fields: { nome_completo: name, numero_cnh: '01234567890' }, photoCheck: { found: true, matched: true, score: 0.91, threshold: 0.85 }, ...extra,
});
const pause = () => new Promise((r) => setTimeout(r, 3));

function contract(backend: Backend) {
  describe(`${backend}: document records travel with station sync`, () => {
    let a: TestStation;
    let b: TestStation;
    let appA: Awaited<ReturnType<TestStation['application']>>;
    let appB: Awaited<ReturnType<TestStation['application']>>;
    const drops: Array<() => Promise<void>> = [];
    const onA = (method: string, p: string, json?: unknown) => a.request(method, p, { token: appA.token, json });
    const onB = (method: string, p: string, json?: unknown) => b.request(method, p, { token: appB.token, json });
    const pull = async () => {
      const res = await onB('POST', '/api/v1/sync/pull', {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.sync;
    };
    const push = async () => {
      const res = await onB('POST', '/api/v1/sync/push', {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.sync;
    };
    const docOf = async (on: typeof onA, extId: string) => {
      const res = await on('GET', `/api/v1/persons/${extId}/document`);
      return res.status === 200 ? res.body.document : res.status;
    };

    const storeConfig = async (): Promise<Record<string, unknown>> => {
      if (backend === 'sqlite') return {};
      const db = await freshDatabase();
      drops.push(db.drop);
      return { store: 'postgres', databaseUrl: db.url };
    };

    beforeAll(async () => {
      a = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine, config: await storeConfig() });
      appA = await a.application('field');
      b = await startTestStation({
        faceEngine: fakeFaceEngine,
        fingerEngine: fakeFingerEngine,
        config: { ...(await storeConfig()), syncPeers: [{ name: 'a', url: a.url, key: appA.key, secret: appA.secret, app: 'central' }] },
      });
      appB = await b.application('central');
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      for (const drop of drops) await drop();
    });

    it('enroll and document on A, pull to B: GET on B answers the same record, sealed with B\'s key at rest', async () => {
      expect((await onA('POST', '/api/v1/services/face/enroll/p1', faceBody('p1'))).status).toBe(200);
      expect((await onA('POST', '/api/v1/services/finger/enroll/p2', { imageData: Buffer.from('PERSON:p2-thumb').toString('base64') })).status).toBe(200);
      const put1 = await onA('PUT', '/api/v1/persons/p1/document', cnh('ANA'));
      expect(put1.status, JSON.stringify(put1.body)).toBe(200);
      expect((await onA('PUT', '/api/v1/persons/p2/document', cnh('BRUNO', { photoCheck: undefined }))).status).toBe(200);

      const sync = await pull();
      expect(sync).toMatchObject({ created: 4, error: null }); // 2 persons, 2 documents
      expect(await docOf(onB, 'p1')).toEqual(await docOf(onA, 'p1'));
      expect(await docOf(onB, 'p1')).toEqual({ ...cnh('ANA'), updatedAt: put1.body.document.updatedAt });
      expect(await docOf(onB, 'p2')).toEqual(await docOf(onA, 'p2'));

      // at rest on B: sealed (not A's bytes: another data key), never the JSON in clear
      const rawB = await rawDocument(b, appB.id, 'p1');
      const rawA = await rawDocument(a, appA.id, 'p1');
      expect(isEncrypted(rawB)).toBe(true);
      expect(Buffer.from(rawB).includes(Buffer.from('ANA'))).toBe(false);
      expect(Buffer.from(rawB).equals(Buffer.from(rawA))).toBe(false);

      // a second pull reads nothing new
      expect(await pull()).toMatchObject({ pulled: 0 });
    });

    it('the documents dump (GET /api/v1/sync/documents) lists them, with since it is the feed; the face and finger dumps carry them', async () => {
      const dump = await onA('GET', '/api/v1/sync/documents?page=1&limit=10');
      expect(dump.status).toBe(200);
      expect(dump.body.result.total_entries).toBe(2);
      expect(dump.body.result.documents.map((d: { externalId: string }) => d.externalId)).toEqual(['p1', 'p2']);
      expect(dump.body.result.documents[0].document).toEqual(await docOf(onA, 'p1'));
      const feed = await onA('GET', '/api/v1/sync/documents?since=0&limit=1');
      expect(feed.body.result).toMatchObject({ total_entries: 2, tombstones: [] });
      expect(feed.body.result.documents).toHaveLength(1);
      expect(feed.body.result.next_since).toBe(feed.body.result.documents[0].seq);
      // the persons' dumps carry each person's record (Document / document), on both stations
      for (const on of [onA, onB]) {
        const faces = (await on('GET', '/api/v1/services/face/dump?page=1&limit=10')).body.result.faces;
        expect(faces.find((f: { ExternalID: string }) => f.ExternalID === 'p1').Document).toEqual(await docOf(onA, 'p1'));
        const fingers = (await on('GET', '/api/v1/services/finger/dump?page=1&limit=10')).body.result.fingers;
        expect(fingers.find((f: { externalId: string }) => f.externalId === 'p2').document).toEqual(await docOf(onA, 'p2'));
      }
      await onA('POST', '/api/v1/services/face/enroll/nodoc', faceBody('nodoc'));
      const plain = (await onA('GET', '/api/v1/services/face/dump?page=1&limit=10')).body.result.faces.find((f: { ExternalID: string }) => f.ExternalID === 'nodoc');
      expect(plain).toBeDefined();
      expect('Document' in plain).toBe(false);
      await onA('DELETE', '/api/v1/services/face/nodoc');
    });

    it('a deleted document, and the document of a deleted person, are gone on B after the next pull', async () => {
      expect((await onA('DELETE', '/api/v1/persons/p1/document')).status).toBe(200);
      expect((await onA('DELETE', '/api/v1/services/finger/p2')).status).toBe(200);
      const sync = await pull();
      expect(sync).toMatchObject({ deleted: 2, error: null }); // the person p2; p1's document (p2's went with its person)
      expect(await docOf(onB, 'p1')).toBeNull();
      expect(await docOf(onB, 'p2')).toBe(404);
      expect(await (await b.station.services.stores.forApplication(appB.id)).documents!.get('p2')).toBeUndefined();
    });

    it('a person deleted and enrolled again on A before B syncs: B keeps the person, not the old document', async () => {
      await onA('POST', '/api/v1/services/face/enroll/p3', faceBody('p3'));
      await onA('PUT', '/api/v1/persons/p3/document', cnh('CARLA'));
      await pull();
      expect(await docOf(onB, 'p3')).toMatchObject({ fields: { nome_completo: 'CARLA' } });
      await onA('DELETE', '/api/v1/services/face/p3');
      await onA('POST', '/api/v1/services/face/enroll/p3', faceBody('p3'));
      await pull();
      expect((await onB('GET', '/api/v1/services/face/templates/count/p3')).body).toEqual({ count: 1 });
      expect(await docOf(onB, 'p3')).toBeNull();
    });

    it('push, and the newest write wins on both sides', async () => {
      await onB('PUT', '/api/v1/persons/p1/document', cnh('ANA MARIA'));
      expect(await push()).toMatchObject({ error: null });
      expect(await docOf(onA, 'p1')).toMatchObject({ fields: { nome_completo: 'ANA MARIA' } });

      await onB('PUT', '/api/v1/persons/p1/document', cnh('ANA B'));
      await pause();
      await onA('PUT', '/api/v1/persons/p1/document', cnh('ANA A')); // later: wins
      await push();
      await pull();
      expect(await docOf(onA, 'p1')).toMatchObject({ fields: { nome_completo: 'ANA A' } });
      expect(await docOf(onB, 'p1')).toMatchObject({ fields: { nome_completo: 'ANA A' } });
    });

    it('a pushed document for a person unknown here, or deleted here, is refused; a malformed one refuses the page', async () => {
      const version = formatHlc({ ms: Date.now(), counter: 0, stationId: 'hostile' });
      const entry = (extId: string, seq: number, document: unknown = { ...cnh('MALLORY'), updatedAt: new Date().toISOString() }) => ({ externalId: extId, document, version, seq });
      const res = await onB('POST', '/api/v1/sync/changes', { modality: 'document', documents: [entry('nobody', 1), entry('p2', 2)], tombstones: [], next_since: 2 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.outcome).toMatchObject({ created: 0, updated: 0, skipped: 2 });
      expect(await docOf(onB, 'nobody')).toBe(404);
      expect(await docOf(onB, 'p2')).toBe(404); // p2 was deleted: no person, no document
      const storeB = await b.station.services.stores.forApplication(appB.id);
      expect(await storeB.documents!.get('nobody')).toBeUndefined();
      expect(await storeB.documents!.get('p2')).toBeUndefined();

      const before = await docOf(onB, 'p1');
      for (const bad of [
        { ...cnh('X'), kind: 'RG' },
        { ...cnh('X'), fields: { 'Bad Name': 'x' } },
        { ...cnh('X'), fields: { nome: 'x'.repeat(301) } },
        { ...cnh('X'), photoCheck: { found: 'yes' } },
        { ...cnh('X') }, // no updatedAt
      ]) {
        const r = await onB('POST', '/api/v1/sync/changes', { modality: 'document', documents: [entry('p1', 1, bad)], tombstones: [], next_since: 1 });
        expect(r.status, JSON.stringify(bad)).toBe(400);
      }
      expect(await docOf(onB, 'p1')).toEqual(before);
    });
  });
}

/** The stored bytes of a document record, below the encryption layer. */
async function rawDocument(station: TestStation, applicationId: string, extId: string): Promise<Uint8Array> {
  const config = station.station.services.config;
  if (config.store === 'postgres') {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT data FROM ${tenantSchema(applicationId)}.person_documents WHERE ext_id = $1`, [extId]);
      return new Uint8Array(rows[0].data);
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(station.dataDir, 'applications', `${applicationId}.db`), { readonly: true });
  try {
    return new Uint8Array((db.prepare('SELECT data FROM person_documents WHERE ext_id = ?').get(extId) as { data: Buffer }).data);
  } finally {
    db.close();
  }
}

describe('an older peer that keeps no documents (no GET /api/v1/sync/documents)', () => {
  it('pull reads its persons; push sends persons only and succeeds, documents stay for a peer that keeps them', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-docs-old-peer-'));
    const store = await openStore({ kind: 'sqlite', dataDir: dir });
    try {
      const tenant = await store.tenants.forApplication('11111111-2222-3333-4444-555555555555');
      await tenant.faces.create('p', [{ data: new Uint8Array([1]) }], new Date().toISOString());
      await tenant.documents!.put('p', new TextEncoder().encode(JSON.stringify({ ...cnh('ANA'), updatedAt: new Date().toISOString() })), new Date().toISOString());
      const pushed: string[] = [];
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      const olderPeer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const url = new URL(String(input));
        if (url.pathname === '/api/v1/app-credentials/token') return json({ token: 't' });
        if (url.pathname.endsWith('/dump')) return json({ result: { total_entries: 0, faces: [], fingers: [], tombstones: [], next_since: Number(url.searchParams.get('since') ?? 0) } });
        if (url.pathname === '/api/v1/sync/changes') {
          const body = JSON.parse(String(init?.body)) as { modality: string };
          pushed.push(body.modality);
          if (body.modality === 'document') return json({ statusCode: 400, message: 'body/modality must be equal to one of the allowed values' }, 400);
          return json({ outcome: { created: 1, updated: 0, deleted: 0, skipped: 0, refused: 0 } });
        }
        return json({ statusCode: 404, error: 'Not Found' }, 404);
      };
      const sync = new SyncService(async () => () => undefined, DEFAULT_PEER_LIMITS, olderPeer as typeof fetch);
      const peer = { url: 'http://older.example:8080', key: 'k', secret: 's' };
      expect(await sync.pull(tenant, peer)).toMatchObject({ pulled: 0, error: null });
      expect(await sync.push(tenant, peer)).toMatchObject({ pulled: 1, created: 1, error: null });
      expect(pushed).toEqual(['face']);
      expect(await tenant.syncLog.checkpoint('http://older.example:8080', 'push', 'document')).toBe(0);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

contract('sqlite');
if (testDatabaseUrl) contract('postgres');
else describe.skip('postgres: document records travel with station sync (BIOSTATION_TEST_DATABASE_URL not set)', () => it('skipped', () => {}));
