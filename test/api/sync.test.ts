import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncService } from '../../src/sync/service.js';
import { engineTemplateCheck } from '../../src/sync/checks.js';
import { startTestStation, type TestStation } from './harness.js';
import { b64, fakeFaceEngine, fakeFingerEngine, faceBody } from './fakes.js';

/**
 * Two stations on loopback: a field office (peer) and the central station, whose operator
 * configured the field office as its application's sync peer (BIOSTATION_SYNC_PEERS).
 */
describe('station-to-station sync', () => {
  let field: TestStation;
  let central: TestStation;
  let fieldApp: Awaited<ReturnType<TestStation['application']>>;
  let centralApp: Awaited<ReturnType<TestStation['application']>>;
  const onField = (method: string, p: string, json?: unknown) => field.request(method, p, { token: fieldApp.token, json });
  const onCentral = (method: string, p: string, json?: unknown) => central.request(method, p, { token: centralApp.token, json });
  const pull = (json: unknown = {}) => onCentral('POST', '/api/v1/sync/pull', json);
  const push = (json: unknown = {}) => onCentral('POST', '/api/v1/sync/push', json);
  const pause = () => new Promise((r) => setTimeout(r, 3));

  beforeAll(async () => {
    field = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    fieldApp = await field.application('field-office');
    central = await startTestStation({
      faceEngine: fakeFaceEngine,
      fingerEngine: fakeFingerEngine,
      config: { syncPeers: [{ name: 'field', url: field.url, key: fieldApp.key, secret: fieldApp.secret, app: 'central' }] },
    });
    centralApp = await central.application('central');
  });
  afterAll(async () => {
    await field?.close();
    await central?.close();
  });

  it('status lists the configured peer by name and origin, never its credential', async () => {
    const res = await onCentral('GET', '/api/v1/sync/status');
    expect(res.body).toEqual({ peers: [{ name: 'field', url: field.url }], lastSync: null, history: [] });
    expect(JSON.stringify(res.body)).not.toContain(fieldApp.secret);
  });

  it('an application cannot name a URL or credential: the old request shape is refused, unknown peers too', async () => {
    const old = await pull({ peerUrl: 'http://127.0.0.1:9', key: fieldApp.key, secret: fieldApp.secret });
    expect(old.status).toBe(400);
    expect((await pull({ peer: 'nowhere' })).status).toBe(400);
    // an application without a configured peer cannot sync at all
    const other = await central.application('other');
    const res = await central.request('POST', '/api/v1/sync/pull', { token: other.token, json: {} });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/BIOSTATION_SYNC_PEERS/);
  });

  it('pulls faces and fingerprints; they identify here', async () => {
    for (let i = 0; i < 5; i++) await onField('POST', `/api/v1/services/face/enroll/p${i}`, faceBody(`p${i}`));
    await onField('POST', '/api/v1/services/finger/enroll/p0', { imageData: b64('PERSON:p0-thumb') });
    await onField('POST', '/api/v1/services/finger/enroll/p0', { imageData: b64('PERSON:p0-index') });
    expect((await onCentral('POST', '/api/v1/services/face/identify', faceBody('p3'))).body.ExternalID).toBeNull(); // gallery loaded before the pull

    const res = await pull();
    expect(res.status).toBe(200);
    expect(res.body.sync).toMatchObject({ peerUrl: field.url, direction: 'pull', pulled: 6, created: 6, updated: 0, deleted: 0, skipped: 0, error: null });
    expect((await onCentral('GET', '/api/v1/services/face/count')).body).toEqual({ count: 5 });
    expect((await onCentral('GET', '/api/v1/services/finger/templates/count/p0')).body).toEqual({ count: 2 });
    expect((await onCentral('POST', '/api/v1/services/face/identify', faceBody('p3'))).body.ExternalID).toBe('p3');
    expect((await onCentral('POST', '/api/v1/services/finger/identify', { imageData: b64('PERSON:p0-index') })).body.ExternalID).toBe('p0');
  });

  it('a second pull reads nothing new; an update on the peer arrives; a delete travels as a tombstone', async () => {
    expect((await pull()).body.sync).toMatchObject({ pulled: 0, created: 0, updated: 0 });
    await pause();
    await onField('PATCH', '/api/v1/services/face/p1', faceBody('p1-new-photo'));
    await onField('DELETE', '/api/v1/services/face/p2');
    await onField('DELETE', '/api/v1/services/finger/p0');
    expect((await pull()).body.sync).toMatchObject({ pulled: 3, updated: 1, deleted: 2 });
    expect((await onCentral('POST', '/api/v1/services/face/p1/verify', faceBody('p1-new-photo'))).body.result.code).toBe(1002);
    expect((await onCentral('GET', '/api/v1/services/face/templates/count/p2')).status).toBe(404);
    expect((await onCentral('GET', '/api/v1/services/finger/templates/count/p0')).status).toBe(404);
    expect((await onCentral('POST', '/api/v1/services/face/identify', faceBody('p2'))).body.ExternalID).toBeNull();
  });

  it('push: enrollments and deletions made here reach the peer, and what came from the peer is not re-applied there', async () => {
    await onCentral('POST', '/api/v1/services/face/enroll/c1', faceBody('c1'));
    await onCentral('DELETE', '/api/v1/services/face/p4');
    const res = await push();
    expect(res.status).toBe(200);
    expect(res.body.sync).toMatchObject({ direction: 'push', created: 1, deleted: 1, error: null });
    expect((await onField('GET', '/api/v1/services/face/templates/count/c1')).body).toEqual({ count: 1 });
    expect((await onField('GET', '/api/v1/services/face/templates/count/p4')).status).toBe(404);
    expect((await push()).body.sync).toMatchObject({ pulled: 0 });
    const list = async (on: typeof onField) => (await on('GET', '/api/v1/services/face/list')).body.faces.map((f: { ExternalID: string }) => f.ExternalID).sort();
    expect(await list(onCentral)).toEqual(await list(onField));
  });

  it('a conflict (same person changed on both sides while apart) resolves to the newest change on both sides', async () => {
    await onField('PATCH', '/api/v1/services/face/p3', faceBody('p3-field'));
    await pause();
    await onCentral('PATCH', '/api/v1/services/face/p3', faceBody('p3-central')); // later: wins
    await pull();
    await push();
    for (const on of [onField, onCentral]) {
      expect((await on('POST', '/api/v1/services/face/p3/verify', faceBody('p3-central'))).body.result.code).toBe(1002);
      expect((await on('POST', '/api/v1/services/face/p3/verify', faceBody('p3-field'))).body.result.code).toBe(1003);
    }
    // delete beats an older update, on both sides
    await onCentral('PATCH', '/api/v1/services/face/p1', faceBody('p1-central'));
    await pause();
    await onField('DELETE', '/api/v1/services/face/p1');
    await pull();
    await push();
    expect((await onCentral('GET', '/api/v1/services/face/templates/count/p1')).status).toBe(404);
    expect((await onField('GET', '/api/v1/services/face/templates/count/p1')).status).toBe(404);
  });

  it('templates this station cannot compare are refused and counted, never imported', async () => {
    const store = await field.station.services.stores.forApplication(fieldApp.id);
    await store.faces.create('foreign', [{ data: new Uint8Array(Buffer.from('OTHER-MODEL')) }], new Date().toISOString());
    const res = await pull();
    expect(res.body.sync).toMatchObject({ created: 0, refused: 1 });
    expect((await onCentral('GET', '/api/v1/services/face/templates/count/foreign')).status).toBe(404);
    await store.faces.delete('foreign'); // the field's own enrollments refuse to run beside an unreadable template
    await pull();
  });

  it('an interrupted pull resumes from its checkpoint: nothing missing, nothing twice', async () => {
    await pull(); // drains what the pushes above echo back (stale here)
    for (let i = 0; i < 7; i++) expect((await onField('POST', `/api/v1/services/face/enroll/r${i}`, faceBody(`r${i}`))).status).toBe(200);
    const store = await central.station.services.stores.forApplication(centralApp.id);
    const services = central.station.services;
    const small = new SyncService(engineTemplateCheck(services.engines.face, services.engines.finger), { pageSize: 2, timeoutMs: 5000, maxResponseBytes: 1 << 20 });
    const peer = { url: field.url, key: fieldApp.key, secret: fieldApp.secret };
    const before = await store.faces.count();
    const dry = await small.pull(store, peer, { dryRun: true });
    expect(dry).toMatchObject({ created: 7, error: null });
    expect(await store.faces.count()).toBe(before); // a dry run writes nothing and moves no checkpoint
    const first = await small.pull(store, peer, { maxPages: 2 });
    expect(first.created).toBe(4);
    expect(await store.faces.count()).toBeLessThan((await (await field.station.services.stores.forApplication(fieldApp.id)).faces.count()));
    const rest = await small.pull(store, peer);
    expect(rest.created).toBe(3);
    const names = (await store.faces.list()).map((p) => p.extId);
    expect(new Set(names).size).toBe(names.length);
    for (let i = 0; i < 7; i++) expect(names).toContain(`r${i}`);
  });

  it('a refused credential is a 502 with a stable code, and is logged with the origin only', async () => {
    const wrong = await startTestStation({
      config: { syncPeers: [{ name: 'field', url: `${field.url}/`, key: fieldApp.key, secret: 'wrong-secret', app: 'x' }] },
    });
    try {
      const x = await wrong.application('x');
      const res = await wrong.request('POST', '/api/v1/sync/pull', { token: x.token, json: {} });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('PEER_UNAUTHORIZED');
      const status = (await wrong.request('GET', '/api/v1/sync/status', { token: x.token })).body;
      expect(status.history[0]).toMatchObject({ peerUrl: field.url, error: expect.stringMatching(/^PEER_UNAUTHORIZED/) });
      expect(JSON.stringify(status)).not.toContain('wrong-secret');
    } finally {
      await wrong.close();
    }
  });

  it('a pushed page is validated whole before anything is written', async () => {
    const version = (ms: number) => `${ms}.000000@peer-x`;
    const good = { ExternalID: 'pushed-ok', Templates: [{ Data: b64('T:pushed-ok') }], CreatedAt: new Date().toISOString(), UpdatedAt: new Date().toISOString(), Version: version(Date.now()), Seq: 1 };
    const bad = { ...good, ExternalID: '../../etc/passwd', Seq: 2 };
    const res = await onField('POST', '/api/v1/sync/changes', { modality: 'face', faces: [good, bad], tombstones: [], next_since: 2 });
    expect(res.status).toBe(400);
    expect((await onField('GET', '/api/v1/services/face/templates/count/pushed-ok')).status).toBe(404);
    const ok = await onField('POST', '/api/v1/sync/changes', { modality: 'face', faces: [good], tombstones: [], next_since: 1 });
    expect(ok.body.outcome).toMatchObject({ created: 1 });
  });

  it('the dumps stay spec-shaped without `since`, and carry the change feed with it', async () => {
    const plain = await onField('GET', '/api/v1/services/face/dump?page=1&limit=2');
    expect(Object.keys(plain.body.result).sort()).toEqual(['faces', 'total_entries']);
    expect(plain.body.result.faces[0]).toMatchObject({ ExternalID: expect.any(String), Templates: [{ Data: expect.any(String) }], CreatedAt: expect.any(String), UpdatedAt: expect.any(String) });
    const feed = await onField('GET', '/api/v1/services/face/dump?since=0&limit=1000');
    expect(feed.body.result.tombstones.map((t: { ExternalID: string }) => t.ExternalID)).toEqual(expect.arrayContaining(['p1', 'p2']));
    expect(feed.body.result.next_since).toBeGreaterThan(0);
    const fingers = await onField('GET', '/api/v1/services/finger/dump?since=0');
    expect(fingers.body.result.tombstones).toEqual([expect.objectContaining({ externalId: 'p0', stationId: expect.any(String), version: expect.any(String) })]);
  });
});
