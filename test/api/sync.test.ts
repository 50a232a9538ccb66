import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from './harness.js';
import { b64, fakeFaceEngine, fakeFingerEngine, faceBody } from './fakes.js';

/** Two stations: a field office (peer) and the central station that pulls from it. */
describe('station-to-station sync', () => {
  let field: TestStation;
  let central: TestStation;
  let fieldApp: Awaited<ReturnType<TestStation['application']>>;
  let centralToken: string;
  const onField = (method: string, p: string, json?: unknown) => field.request(method, p, { token: fieldApp.token, json });
  const onCentral = (method: string, p: string, json?: unknown) => central.request(method, p, { token: centralToken, json });
  const pull = (overrides: Record<string, string> = {}) =>
    onCentral('POST', '/api/v1/sync/pull', { peerUrl: field.url, key: fieldApp.key, secret: fieldApp.secret, ...overrides });

  beforeAll(async () => {
    field = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    central = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    fieldApp = await field.application('field-office');
    centralToken = (await central.application('central')).token;
  });
  afterAll(async () => {
    await field?.close();
    await central?.close();
  });

  it('status is empty before any sync', async () => {
    expect((await onCentral('GET', '/api/v1/sync/status')).body).toEqual({ lastSync: null, history: [] });
  });

  it('pulls faces and fingerprints the central station does not have; they identify there', async () => {
    for (let i = 0; i < 5; i++) await onField('POST', `/api/v1/services/face/enroll/p${i}`, faceBody(`p${i}`));
    await onField('POST', '/api/v1/services/finger/enroll/p0', { imageData: b64('PERSON:p0-thumb') });
    await onField('POST', '/api/v1/services/finger/enroll/p0', { imageData: b64('PERSON:p0-index') });
    const before = await onCentral('POST', '/api/v1/services/face/identify', faceBody('p3')); // loads central's gallery first
    expect(before.body.ExternalID).toBeNull();

    const res = await pull();
    expect(res.status).toBe(200);
    expect(res.body.sync).toMatchObject({ peerUrl: field.url, pulled: 6, created: 6, updated: 0, skipped: 0, error: null });
    expect((await onCentral('GET', '/api/v1/services/face/count')).body).toEqual({ count: 5 });
    expect((await onCentral('GET', '/api/v1/services/finger/templates/count/p0')).body).toEqual({ count: 2 });
    expect((await onCentral('POST', '/api/v1/services/face/identify', faceBody('p3'))).body.ExternalID).toBe('p3');
    expect((await onCentral('POST', '/api/v1/services/finger/identify', { imageData: b64('PERSON:p0-index') })).body.ExternalID).toBe('p0');
  });

  it('a second pull changes nothing; a person updated on the peer is updated here', async () => {
    expect((await pull()).body.sync).toMatchObject({ pulled: 6, created: 0, updated: 0, skipped: 6 });
    await new Promise((r) => setTimeout(r, 5));
    await onField('PATCH', '/api/v1/services/face/p1', faceBody('p1-new-photo'));
    expect((await pull()).body.sync).toMatchObject({ created: 0, updated: 1, skipped: 5 });
    expect((await onCentral('POST', '/api/v1/services/face/p1/verify', faceBody('p1-new-photo'))).body.result.code).toBe(1002);
  });

  it('templates this station cannot compare are skipped, never imported', async () => {
    const store = await field.station.services.stores.forApplication(fieldApp.id);
    await store.faces.create('foreign', [{ data: new Uint8Array(Buffer.from('OTHER-MODEL')) }], new Date().toISOString());
    const res = await pull();
    expect(res.body.sync).toMatchObject({ created: 0, skipped: 7 });
    expect((await onCentral('GET', '/api/v1/services/face/templates/count/foreign')).status).toBe(404);
  });

  it('a refused credential or an unreachable peer is a 502 with a stable code, and is logged', async () => {
    const refused = await pull({ secret: 'wrong' });
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe('PEER_UNAUTHORIZED');
    const unreachable = await pull({ peerUrl: 'http://127.0.0.1:9' });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.code).toBe('PEER_UNREACHABLE');
    expect((await pull({ peerUrl: 'ftp://example' })).status).toBe(400);
    const status = (await onCentral('GET', '/api/v1/sync/status')).body;
    expect(status.history[0].error).toMatch(/could not be reached/);
    expect(status.lastSync).toMatchObject({ error: null, peerUrl: field.url });
  });

  it('the fingerprint dump pages like the face dump', async () => {
    const res = await onField('GET', '/api/v1/services/finger/dump?page=1&limit=1');
    expect(res.body.result.total_entries).toBe(1);
    expect(res.body.result.fingers[0]).toMatchObject({ externalId: 'p0', templates: [{ data: b64('T:p0-thumb'), position: 'UNKNOWN' }, { data: b64('T:p0-index'), position: 'UNKNOWN' }] });
  });
});
