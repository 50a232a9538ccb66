import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from './harness.js';
import { b64, fakeFaceEngine, fakeFingerEngine, faceBody } from './fakes.js';

/**
 * De-duplication at enrollment (issue #16): per application `off | warn | block`, a 1:N search
 * before every face and fingerprint enroll. Stand-in engines: `PERSON:<name>` images match when the
 * names are equal, so the same "person" under a second ext_id is a duplicate.
 */
describe('de-duplication at enrollment', () => {
  let t: TestStation;
  const apps: Record<'warn' | 'block' | 'off' | 'fresh', { key: string; token: string }> = {} as never;
  const face = (app: keyof typeof apps, extId: string, person: string) =>
    t.request('POST', `/api/v1/services/face/enroll/${extId}`, { token: apps[app].token, json: faceBody(person) });
  const finger = (app: keyof typeof apps, extId: string, person: string) =>
    t.request('POST', `/api/v1/services/finger/enroll/${extId}`, { token: apps[app].token, json: { position: 'UNKNOWN', dpi: '500', imageData: b64(`PERSON:${person}`) } });
  const count = (app: keyof typeof apps, modality: string) => t.request('GET', `/api/v1/services/${modality}/count`, { token: apps[app].token });

  beforeAll(async () => {
    t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    for (const name of ['warn', 'block', 'off', 'fresh'] as const) {
      const app = await t.application(name);
      apps[name] = { key: app.key, token: app.token };
      if (name === 'block' || name === 'off') await t.station.services.applications.setDedupPolicy(app.key, name);
    }
  });
  afterAll(() => t.close());

  it('defaults to warn for a new application', async () => {
    const app = (await t.station.services.applications.list()).find((a) => a.key === apps.fresh.key)!;
    expect(app.dedupPolicy).toBe('warn');
  });

  it('warn: a face enrolled under a second ext_id is enrolled and the response names the first', async () => {
    expect((await face('warn', 'ana-1', 'ana')).body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    const second = await face('warn', 'ana-2', 'ana');
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' },
      duplicates: [{ ExternalID: 'ana-1', modality: 'face', score: 1 }],
    });
    expect((await count('warn', 'face')).body.count).toBe(2);
    // A different person: the spec's body, no duplicates field.
    expect((await face('warn', 'bia-1', 'bia')).body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
  });

  it('warn: a finger of another person is reported; a second finger of the same person is not', async () => {
    expect((await finger('warn', 'caio-1', 'caio-thumb')).body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    expect((await finger('warn', 'caio-1', 'caio-thumb')).body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    const other = await finger('warn', 'caio-2', 'caio-thumb');
    expect(other.status).toBe(200);
    expect(other.body.duplicates).toEqual([{ ExternalID: 'caio-1', modality: 'finger', score: 1 }]);
  });

  it('block: refuses a face or a finger that matches another person with 409 DUPLICATE_FOUND and the candidates', async () => {
    expect((await face('block', 'dan-1', 'dan')).status).toBe(200);
    const refused = await face('block', 'dan-2', 'dan');
    expect(refused.status).toBe(409);
    expect(refused.body.result).toMatchObject({ code: 1049, message: 'DUPLICATE_FOUND' });
    expect(refused.body.duplicates).toEqual([{ ExternalID: 'dan-1', modality: 'face', score: 1 }]);
    expect((await t.request('GET', '/api/v1/services/face/templates/count/dan-2', { token: apps.block.token })).status).toBe(404);

    expect((await finger('block', 'eva-1', 'eva')).status).toBe(200);
    const fingerRefused = await finger('block', 'eva-2', 'eva');
    expect(fingerRefused.status).toBe(409);
    expect(fingerRefused.body.result.message).toBe('DUPLICATE_FOUND');
    expect(fingerRefused.body.duplicates).toEqual([{ ExternalID: 'eva-1', modality: 'finger', score: 1 }]);
    expect((await count('block', 'finger')).body.count).toBe(1);
    // The same person adding an impression is not a duplicate of itself.
    expect((await finger('block', 'eva-1', 'eva')).status).toBe(200);
  });

  it('off: no search, no duplicates field, both enrolled', async () => {
    expect((await face('off', 'fay-1', 'fay')).status).toBe(200);
    expect((await face('off', 'fay-2', 'fay')).body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    expect((await finger('off', 'gil-1', 'gil')).status).toBe(200);
    expect((await finger('off', 'gil-2', 'gil')).body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    expect((await count('off', 'face')).body.count).toBe(2);
    expect((await count('off', 'finger')).body.count).toBe(2);
  });

  it('identify lists every person above the threshold when there are several (ana enrolled twice under warn)', async () => {
    const res = await t.request('POST', '/api/v1/services/face/identify', { token: apps.warn.token, json: faceBody('ana') });
    expect(res.body.result.code).toBe(1008);
    expect(res.body.candidates.map((c: { ExternalID: string }) => c.ExternalID).sort()).toEqual(['ana-1', 'ana-2']);
    expect(res.body.candidates[0].ExternalID).toBe(res.body.ExternalID);
    const single = await t.request('POST', '/api/v1/services/face/identify', { token: apps.warn.token, json: faceBody('bia') });
    expect(single.body).toEqual({ ExternalID: 'bia-1', result: { code: 1008, message: 'IDENTIFIED_SUCCESSFULLY' }, score: 1, threshold: 0.6 });
    const fingers = await t.request('POST', '/api/v1/services/finger/identify', { token: apps.warn.token, json: { imageData: b64('PERSON:caio-thumb') } });
    expect(fingers.body.candidates.map((c: { ExternalID: string }) => c.ExternalID).sort()).toEqual(['caio-1', 'caio-2']);
  });

  it('refuses an unknown policy', async () => {
    await expect(t.station.services.applications.setDedupPolicy(apps.fresh.key, 'sometimes')).rejects.toMatchObject({ code: 'INVALID_DEDUP_POLICY' });
  });
});
