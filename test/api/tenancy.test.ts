import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from './harness.js';
import { b64, fakeFaceEngine, fakeFingerEngine, faceBody } from './fakes.js';

/** A token of application A never reads, counts, lists, dumps or deletes application B's persons. */
describe('tenancy: applications never see each other', () => {
  let t: TestStation;
  let a: Awaited<ReturnType<TestStation['application']>>;
  let b: Awaited<ReturnType<TestStation['application']>>;

  beforeAll(async () => {
    t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    a = await t.application('A');
    b = await t.application('B');
    for (const id of ['b-1', 'b-2', 'shared-id']) {
      expect((await t.request('POST', `/api/v1/services/face/enroll/${id}`, { token: b.token, json: faceBody(id) })).status).toBe(200);
      expect((await t.request('POST', `/api/v1/services/finger/enroll/${id}`, { token: b.token, json: { imageData: b64(`PERSON:${id}`) } })).status).toBe(200);
    }
  });
  afterAll(() => t.close());

  it('face: count, list, dump, templates, templates count, delete, verify, identify see only A', async () => {
    expect((await t.request('GET', '/api/v1/services/face/count', { token: a.token })).body).toEqual({ count: 0 });
    expect((await t.request('GET', '/api/v1/services/face/list', { token: a.token })).body).toEqual({ faces: [] });
    expect((await t.request('GET', '/api/v1/services/face/dump', { token: a.token })).body).toEqual({ result: { total_entries: 0, faces: [] } });
    expect((await t.request('GET', '/api/v1/services/face/templates/b-1', { token: a.token })).status).toBe(404);
    expect((await t.request('GET', '/api/v1/services/face/templates/count/b-1', { token: a.token })).status).toBe(404);
    const del = await t.request('DELETE', '/api/v1/services/face/b-1', { token: a.token });
    expect(del.status).toBe(404);
    expect(del.body.result).toMatchObject({ code: 1005, message: 'PERSON_NOT_FOUND' });
    expect((await t.request('POST', '/api/v1/services/face/b-1/verify', { token: a.token, json: faceBody('b-1') })).status).toBe(404);
    const identify = await t.request('POST', '/api/v1/services/face/identify', { token: a.token, json: faceBody('b-1') });
    expect(identify.body).toMatchObject({ ExternalID: null, result: { code: 1009, message: 'NOT_IDENTIFIED' } });
    // B still has everything.
    expect((await t.request('GET', '/api/v1/services/face/count', { token: b.token })).body).toEqual({ count: 3 });
    expect((await t.request('GET', '/api/v1/services/face/templates/count/b-1', { token: b.token })).body).toEqual({ count: 1 });
  });

  it('finger: count, list, templates count, delete, verify, identify see only A', async () => {
    expect((await t.request('GET', '/api/v1/services/finger/count', { token: a.token })).body).toEqual({ count: 0 });
    expect((await t.request('GET', '/api/v1/services/finger/list', { token: a.token })).body).toEqual([]);
    expect((await t.request('GET', '/api/v1/services/finger/templates/count/b-1', { token: a.token })).status).toBe(404);
    expect((await t.request('DELETE', '/api/v1/services/finger/b-1', { token: a.token })).status).toBe(404);
    expect((await t.request('POST', '/api/v1/services/finger/b-1/verify', { token: a.token, json: { imageData: b64('PERSON:b-1') } })).status).toBe(404);
    const identify = await t.request('POST', '/api/v1/services/finger/identify', { token: a.token, json: { imageData: b64('PERSON:b-1') } });
    expect(identify.body).toMatchObject({ ExternalID: null, result: { code: 1009 } });
    expect((await t.request('GET', '/api/v1/services/finger/count', { token: b.token })).body).toEqual({ count: 3 });
    const list = (await t.request('GET', '/api/v1/services/finger/list', { token: b.token })).body;
    expect(list.map((p: { externalId: string }) => p.externalId)).toEqual(['b-1', 'b-2', 'shared-id']);
  });

  it('the same ext_id lives independently in both applications', async () => {
    expect((await t.request('POST', '/api/v1/services/face/enroll/shared-id', { token: a.token, json: faceBody('someone-else') })).status).toBe(200);
    const ids = await t.request('POST', '/api/v1/services/face/identify', { token: a.token, json: faceBody('shared-id') });
    expect(ids.body.ExternalID).toBeNull();
    expect((await t.request('DELETE', '/api/v1/services/face/shared-id', { token: a.token })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/services/face/templates/count/shared-id', { token: b.token })).body).toEqual({ count: 1 });
    const idb = await t.request('POST', '/api/v1/services/face/identify', { token: b.token, json: faceBody('shared-id') });
    expect(idb.body.ExternalID).toBe('shared-id');
  });
});
