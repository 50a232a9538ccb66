import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from './harness.js';
import { b64, fakeFingerEngine } from './fakes.js';

/** The fingerprint group's contract over a stand-in engine (the real one is tested in test/finger). */
describe('fingerprint routes contract', () => {
  let t: TestStation;
  let token: string;
  const post = (p: string, json: unknown) => t.request('POST', `/api/v1/services/finger${p}`, { token, json });
  const img = (name: string) => ({ position: 'UNKNOWN', dpi: '500', imageData: b64(`PERSON:${name}`) });

  beforeAll(async () => {
    t = await startTestStation({ fingerEngine: fakeFingerEngine });
    token = (await t.application('finger')).token;
  });
  afterAll(() => t.close());

  it('enroll creates the person and a second enroll adds a finger', async () => {
    expect((await post('/enroll/ana', img('ana'))).body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    expect((await post('/enroll/ana', { ...img('ana-thumb'), position: 'RIGHT_THUMB' })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/services/finger/templates/count/ana', { token })).body).toEqual({ count: 2 });
    const list = await t.request('GET', '/api/v1/services/finger/list', { token });
    expect(list.body).toEqual([{ externalId: 'ana', createdAt: expect.any(String) }]);
  });

  it('verify and identify use every template of the person', async () => {
    expect((await post('/ana/verify', { imageData: b64('PERSON:ana-thumb') })).body.result.code).toBe(1002);
    expect((await post('/ana/verify', { imageData: b64('PERSON:zzz') })).body.result).toEqual({ code: 1003, message: 'NOT_VERIFIED' });
    expect((await post('/identify', { imageData: b64('PERSON:ana-thumb') })).body).toMatchObject({ ExternalID: 'ana', result: { code: 1008 } });
    expect((await post('/identify', { imageData: b64('PERSON:zzz') })).body).toMatchObject({ ExternalID: null, result: { code: 1009 } });
  });

  it('PATCH replaces all templates with the one sent', async () => {
    expect((await t.request('PATCH', '/api/v1/services/finger/ana', { token, json: img('ana-new') })).body).toEqual({ result: { code: 1006, message: 'UPDATED_SUCCESSFULLY' } });
    expect((await t.request('GET', '/api/v1/services/finger/templates/count/ana', { token })).body).toEqual({ count: 1 });
    expect((await post('/identify', { imageData: b64('PERSON:ana-thumb') })).body.ExternalID).toBeNull();
    expect((await t.request('PATCH', '/api/v1/services/finger/nobody', { token, json: img('x') })).status).toBe(404);
  });

  it('images/match and templates/match answer at top level with 1010 or 1011', async () => {
    const same = await post('/images/match', [{ imageData: b64('PERSON:q') }, { imageData: b64('PERSON:q') }]);
    expect(same.body).toEqual({ code: 1010, message: 'MATCH_IMAGES_SUCCESSFULLY', score: 1, threshold: 0.5 });
    const differ = await post('/images/match', [{ imageData: b64('PERSON:q') }, { imageData: b64('PERSON:r') }]);
    expect(differ.body).toMatchObject({ code: 1011, message: 'NOT_MATCHED' });
    const templates = await post('/templates/match', [{ b64IsoTemplate: b64('T:q') }, { b64IsoTemplate: b64('T:q') }]);
    expect(templates.body).toMatchObject({ code: 1010, message: 'MATCH_TEMPLATES_SUCCESSFULLY' });
    const bad = await post('/templates/match', [{ b64IsoTemplate: b64('FMR\0junk') }, { b64IsoTemplate: b64('T:q') }]);
    expect(bad.status).toBe(400);
    expect(bad.body.result.message).toBe('INVALID_TEMPLATE');
    expect((await post('/images/match', [{ imageData: b64('PERSON:q') }])).status).toBe(400);
  });

  it('delete', async () => {
    expect((await t.request('DELETE', '/api/v1/services/finger/ana', { token })).body.result.code).toBe(1004);
    expect((await t.request('GET', '/api/v1/services/finger/count', { token })).body).toEqual({ count: 0 });
  });

  it('bad input: a 4xx with a stable code, never 500', async () => {
    const cases: Array<[unknown, string]> = [
      [{ imageData: '%%%' }, 'INVALID_BASE64'],
      [{ imageData: '' }, 'INVALID_REQUEST'],
      [{ imageData: b64('NONE') }, 'NO_FINGERPRINT'],
      [{ imageData: b64('\x00\x01\x02') }, 'INVALID_IMAGE'],
      [{ imageData: b64('PERSON:x'), dpi: 'high' }, 'INVALID_REQUEST'],
      [{ imageData: b64('PERSON:x'), position: 7 }, 'INVALID_REQUEST'],
      [[], 'INVALID_REQUEST'],
    ];
    for (const [body, code] of cases) {
      const res = await post('/enroll/bad', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.result.message, JSON.stringify(body)).toBe(code);
    }
    expect((await t.request('GET', '/api/v1/services/finger/count', { token })).body).toEqual({ count: 0 });
  });
});
