import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from './harness.js';
import { b64, fakeFaceEngine, faceBody } from './fakes.js';
import { PassiveLivenessGate, type LivenessVerdict } from '../../src/liveness/passive/gate.js';
import { BiostationError } from '../../src/runtime/errors.js';

/** Stand-in passive liveness: an image of `PERSON:spoof...` is an attack, `PERSON:blurry...` cannot be judged. */
class FakeLivenessGate extends PassiveLivenessGate {
  constructor() {
    super(async () => {
      throw new Error('not used');
    });
  }
  override async require(image: Uint8Array, _box: unknown, threshold = 0.5): Promise<LivenessVerdict> {
    const name = Buffer.from(image).toString('utf8');
    if (name.startsWith('PERSON:blurry')) throw new BiostationError('FACE_QUALITY_TOO_LOW', 'The face cannot be checked for liveness: sharpness', { failures: ['sharpness'] });
    const score = name.startsWith('PERSON:spoof') ? 0.01 : 0.99;
    const verdict: LivenessVerdict = { score, threshold, mode: 'cnn+signals', evidence: score < threshold ? ['cnn'] : [] };
    if (score < threshold) throw new BiostationError('LIVENESS_CHECK_FAILED', undefined, { liveness: verdict });
    return verdict;
  }
}

/** The face group's contract (shapes, codes, decisions left open by the spec), over a stand-in engine. */
describe('face routes contract', () => {
  let t: TestStation;
  let token: string;
  const post = (p: string, json: unknown) => t.request('POST', `/api/v1/services/face${p}`, { token, json });

  beforeAll(async () => {
    t = await startTestStation({ faceEngine: fakeFaceEngine, livenessGate: new FakeLivenessGate() });
    token = (await t.application('face')).token;
  });
  afterAll(() => t.close());

  it('enroll creates, returns templates on request, and refuses a taken ext_id with 409', async () => {
    const res = await post('/enroll/alice', { ...faceBody('alice', 'alice'), ReturnTemplate: true });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ code: 1000, message: 'ENROLLED_SUCCESSFULLY' });
    expect(res.body.b64Templates).toHaveLength(2);
    const plain = await post('/enroll/bob', faceBody('bob'));
    expect(plain.body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    const again = await post('/enroll/alice', faceBody('alice'));
    expect(again.status).toBe(409);
    expect(again.body.result).toMatchObject({ code: 1001, message: 'PERSON_ALREADY_EXISTS' });
    expect((await t.request('GET', '/api/v1/services/face/templates/count/alice', { token })).body).toEqual({ count: 2 });
  });

  it('templates returns the person with base64 templates and timestamps', async () => {
    const res = await t.request('GET', '/api/v1/services/face/templates/alice', { token });
    expect(res.body).toEqual({ ExternalID: 'alice', Templates: [{ Data: b64('T:alice') }, { Data: b64('T:alice') }], CreatedAt: expect.any(String), UpdatedAt: expect.any(String) });
    const list = await t.request('GET', '/api/v1/services/face/list', { token });
    expect(list.body.faces.map((f: { ExternalID: string }) => f.ExternalID)).toEqual(['alice', 'bob']);
    expect(Object.keys(list.body.faces[0]).sort()).toEqual(['CreatedAt', 'ExternalID']);
  });

  it('PATCH replaces all templates; with ReturnTemplate it answers 1000 as the spec shows; unknown ext_id is 404', async () => {
    const res = await t.request('PATCH', '/api/v1/services/face/bob', { token, json: faceBody('bobby') });
    expect(res.body).toEqual({ result: { code: 1006, message: 'UPDATED_SUCCESSFULLY' } });
    const withTemplates = await t.request('PATCH', '/api/v1/services/face/bob', { token, json: { ...faceBody('bob'), ReturnTemplate: true } });
    expect(withTemplates.body).toEqual({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' }, b64Templates: [b64('T:bob')] });
    const unknown = await t.request('PATCH', '/api/v1/services/face/nobody', { token, json: faceBody('x') });
    expect(unknown.status).toBe(404);
    expect(unknown.body.result.message).toBe('PERSON_NOT_FOUND');
  });

  it('verify: 1002 on a match, 1003 otherwise, with score and threshold', async () => {
    expect((await post('/alice/verify', faceBody('alice'))).body).toEqual({ result: { code: 1002, message: 'VERIFIED_SUCCESSFULLY' }, score: 1, threshold: 0.5 });
    expect((await post('/alice/verify', faceBody('bob'))).body).toEqual({ result: { code: 1003, message: 'NOT_VERIFIED' }, score: 0, threshold: 0.5 });
    expect((await post('/ghost/verify', faceBody('alice'))).status).toBe(404);
  });

  it('identify: 1008 with ExternalID, or 1009 with ExternalID null', async () => {
    expect((await post('/identify', faceBody('bob'))).body).toEqual({ ExternalID: 'bob', result: { code: 1008, message: 'IDENTIFIED_SUCCESSFULLY' }, score: 1, threshold: 0.6 });
    expect((await post('/identify', faceBody('carol'))).body).toMatchObject({ ExternalID: null, result: { code: 1009, message: 'NOT_IDENTIFIED' } });
  });

  it('match compares two images without enrollment and needs exactly two', async () => {
    expect((await post('/match', faceBody('x', 'x'))).body.result.code).toBe(1002);
    expect((await post('/match', faceBody('x', 'y'))).body.result.code).toBe(1003);
    expect((await post('/match', faceBody('x'))).status).toBe(400);
  });

  it('delete removes the person from the store and from identification', async () => {
    expect((await t.request('DELETE', '/api/v1/services/face/bob', { token })).body).toEqual({ result: { code: 1004, message: 'DELETED_SUCCESSFULLY' } });
    expect((await post('/identify', faceBody('bob'))).body.ExternalID).toBeNull();
    expect((await t.request('DELETE', '/api/v1/services/face/bob', { token })).status).toBe(404);
  });

  it("an application's own threshold decides, and only for that application", async () => {
    const strict = await t.application('strict');
    await t.station.services.applications.setThresholds(strict.key, { faceThreshold: 1.5 });
    await t.request('POST', '/api/v1/services/face/enroll/sam', { token: strict.token, json: faceBody('sam') });
    const res = await t.request('POST', '/api/v1/services/face/sam/verify', { token: strict.token, json: faceBody('sam') });
    expect(res.body).toEqual({ result: { code: 1003, message: 'NOT_VERIFIED' }, score: 1, threshold: 1.5 });
    expect((await post('/alice/verify', faceBody('alice'))).body.threshold).toBe(0.5);
    await t.station.services.applications.setThresholds(strict.key, { faceThreshold: null });
    const back = await t.request('POST', '/api/v1/services/face/sam/verify', { token: strict.token, json: faceBody('sam') });
    expect(back.body.result.code).toBe(1002);
  });

  it('doLivenessCheck: every face operation checks every image; an attack is 1013 (HTTP 200) and stores nothing', async () => {
    const failed = { result: { code: 1013, message: 'LIVENESS_CHECK_FAILED', detail: 'liveness check failed' }, liveness: { score: 0.01, threshold: 0.5, mode: 'cnn+signals', evidence: ['cnn'] } };
    const live = await post('/alice/verify', { ...faceBody('alice'), doLivenessCheck: true });
    expect(live.body).toEqual({ result: { code: 1002, message: 'VERIFIED_SUCCESSFULLY' }, score: 1, threshold: 0.5, livenessEvaluated: true, liveness: { score: 0.99, threshold: 0.5, mode: 'cnn+signals', scores: [0.99] } });
    const before = (await t.request('GET', '/api/v1/services/face/count', { token })).body.count;
    for (const [path, body] of [
      ['/enroll/eve', faceBody('eve', 'spoof-eve')],
      ['/alice/verify', faceBody('spoof-alice')],
      ['/identify', faceBody('spoof-alice')],
      ['/match', faceBody('alice', 'spoof-alice')],
    ] as const) {
      const res = await post(path, { ...body, doLivenessCheck: true });
      expect([path, res.status, res.body]).toEqual([path, 200, failed]);
    }
    const patched = await t.request('PATCH', '/api/v1/services/face/alice', { token, json: { ...faceBody('spoof-alice'), doLivenessCheck: true } });
    expect(patched.body).toEqual(failed);
    expect((await t.request('GET', '/api/v1/services/face/count', { token })).body.count).toBe(before);
    expect((await t.request('GET', '/api/v1/services/face/templates/eve', { token })).status).toBe(404);
    expect((await post('/alice/verify', faceBody('alice'))).body.result.code).toBe(1002); // alice's templates untouched
    const enrolled = await post('/enroll/ann', { ...faceBody('ann', 'ann'), doLivenessCheck: true });
    expect(enrolled.body).toMatchObject({ result: { code: 1000 }, livenessEvaluated: true, liveness: { score: 0.99, scores: [0.99, 0.99] } });
    const blurry = await post('/ann/verify', { ...faceBody('blurry-ann'), doLivenessCheck: true });
    expect([blurry.status, blurry.body.result.message]).toEqual([400, 'FACE_QUALITY_TOO_LOW']);
    // without the check, a "spoof" image is just an image: the answer is exactly the one without liveness
    expect((await post('/match', { ...faceBody('spoof-x', 'spoof-x'), doLivenessCheck: false })).body).toEqual({ result: { code: 1002, message: 'VERIFIED_SUCCESSFULLY' }, score: 1, threshold: 0.5 });
    await t.request('DELETE', '/api/v1/services/face/ann', { token });
  });

  it("an application's own liveness threshold decides its checks", async () => {
    const strict = await t.application('strict-liveness');
    await t.station.services.applications.setThresholds(strict.key, { livenessThreshold: 0.995 });
    await expect(t.station.services.applications.setThresholds(strict.key, { livenessThreshold: 2 })).rejects.toThrow(/0 to 1/);
    const res = await t.request('POST', '/api/v1/services/face/match', { token: strict.token, json: { ...faceBody('x', 'x'), doLivenessCheck: true } });
    expect(res.body).toMatchObject({ result: { code: 1013 }, liveness: { score: 0.99, threshold: 0.995 } });
    expect((await post('/match', { ...faceBody('x', 'x'), doLivenessCheck: true })).body.liveness.threshold).toBe(0.5);
    await t.station.services.applications.setThresholds(strict.key, { livenessThreshold: null });
    const back = await t.request('POST', '/api/v1/services/face/match', { token: strict.token, json: { ...faceBody('x', 'x'), doLivenessCheck: true } });
    expect(back.body.result.code).toBe(1002);
  });

  it('bad input: a 4xx with a stable code, never 500, store unchanged', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ Images: [{ imageType: 'frontal', imageData: '@@not base64@@' }] }, 400, 'INVALID_BASE64'],
      [{ Images: [{ imageType: 'frontal', imageData: b64('GIF89a garbage') }] }, 400, 'INVALID_IMAGE'],
      [{ Images: [{ imageType: 'frontal', imageData: b64('NONE') }] }, 400, 'NO_FACE'],
      [{ Images: [] }, 400, 'INVALID_REQUEST'],
      [{ Images: [{ imageType: 'profile', imageData: b64('PERSON:z') }] }, 400, 'INVALID_IMAGE_TYPE'],
      [{ Images: [{ imageType: 'frontal', imageData: 42 }] }, 400, 'INVALID_REQUEST'],
      [{ Images: 'nope' }, 400, 'INVALID_REQUEST'],
      [{ doLivenessCheck: 'yes', ...faceBody('z') }, 400, 'INVALID_REQUEST'],
      [{}, 400, 'INVALID_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post('/enroll/zed', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.result.message, JSON.stringify(body)).toBe(code);
      expect(typeof res.body.result.code).toBe('number');
    }
    const malformed = await t.request('POST', '/api/v1/services/face/enroll/zed', { token, body: '{"Images": [', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.result.message).toBe('INVALID_REQUEST');
    const longId = await post(`/enroll/${'x'.repeat(129)}`, faceBody('z'));
    expect(longId.status).toBe(400);
    const badId = await post('/enroll/has%20space', faceBody('z'));
    expect(badId.status).toBe(400);
    expect((await t.request('GET', '/api/v1/services/face/count', { token })).body).toEqual({ count: 1 });
  });

  it('a body over the size limit is 413 PAYLOAD_TOO_LARGE in the group shape', async () => {
    const small = await startTestStation({ faceEngine: fakeFaceEngine, config: { jsonBodyLimitBytes: 2048 } });
    try {
      const app = await small.application('s');
      const res = await small.request('POST', '/api/v1/services/face/enroll/x', { token: app.token, json: { Images: [{ imageData: 'A'.repeat(4096) }] } });
      expect(res.status).toBe(413);
      expect(res.body.result.message).toBe('PAYLOAD_TOO_LARGE');
    } finally {
      await small.close();
    }
  });

  it('a station without the face engine answers 503 ENGINE_UNAVAILABLE for engine operations only', async () => {
    const bare = await startTestStation();
    try {
      const app = await bare.application('bare');
      const res = await bare.request('POST', '/api/v1/services/face/enroll/x', { token: app.token, json: faceBody('x') });
      expect(res.status).toBe(503);
      expect(res.body.result.message).toBe('ENGINE_UNAVAILABLE');
      expect((await bare.request('GET', '/api/v1/services/face/count', { token: app.token })).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
