/**
 * doLivenessCheck through the API with the real engines (face engine and src/liveness/passive), on the
 * labelled Silent-Face samples: the two presentation attacks give 1013 and store nothing, the live
 * capture passes; without the check the answers are exactly those without liveness.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine } from '../../src/face/index.js';
import { startTestStation, type TestStation } from './harness.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const SPOOF = path.join(datasets, 'faces-misc', 'spoof-samples');
const haveData = existsSync(path.join(SPOOF, 'image_F1.jpg'));
if (!haveData) console.warn(`liveness API tests skipped: no spoof samples under ${datasets} (set BIOSTATION_DATASETS)`);

const sample = (f: string) => readFileSync(path.join(SPOOF, f));
const body = (...images: Buffer[]) => ({ Images: images.map((i) => ({ imageType: 'frontal', imageData: i.toString('base64') })) });
const FAILED = { code: 1013, message: 'LIVENESS_CHECK_FAILED', detail: 'liveness check failed' };

describe.skipIf(!haveData)('doLivenessCheck on real captures', () => {
  let t: TestStation;
  let token: string;
  const post = (p: string, json: unknown) => t.request('POST', `/api/v1/services/face${p}`, { token, json });
  const count = async () => (await t.request('GET', '/api/v1/services/face/count', { token })).body.count as number;

  beforeAll(async () => {
    t = await startTestStation({ faceEngine: () => createFaceEngine({ intraOpNumThreads: 1 }) });
    token = (await t.application('liveness')).token;
  }, 120_000);
  afterAll(() => t?.close());

  it('image_F1 and image_F2 (attacks) give 1013 on enroll and store nothing', async () => {
    for (const f of ['image_F1.jpg', 'image_F2.jpg']) {
      const res = await post(`/enroll/${f.slice(6, 8)}`, { ...body(sample(f)), doLivenessCheck: true, ReturnTemplate: true });
      expect([f, res.status, res.body.result]).toEqual([f, 200, FAILED]);
      expect(res.body.liveness.score).toBeLessThan(res.body.liveness.threshold);
      expect(res.body.b64Templates).toBeUndefined();
      expect((await t.request('GET', `/api/v1/services/face/templates/${f.slice(6, 8)}`, { token })).status).toBe(404);
    }
    expect(await count()).toBe(0);
  }, 60_000);

  it('image_T1 (live) passes; the same enroll without the check gives a byte-identical template', async () => {
    const checked = await post('/enroll/t1', { ...body(sample('image_T1.jpg')), doLivenessCheck: true, ReturnTemplate: true });
    expect(checked.body.result.code).toBe(1000);
    expect(checked.body.livenessEvaluated).toBe(true);
    expect(checked.body.liveness.score).toBeGreaterThanOrEqual(checked.body.liveness.threshold);
    const plain = await post('/enroll/t1-plain', { ...body(sample('image_T1.jpg')), ReturnTemplate: true });
    expect(Object.keys(plain.body).sort()).toEqual(['b64Templates', 'duplicates', 'result'].filter((k) => k in plain.body).sort());
    expect(plain.body.liveness).toBeUndefined();
    expect(plain.body.b64Templates).toEqual(checked.body.b64Templates);
  }, 60_000);

  it('verify, identify and match with an attack image give 1013; without the check they compare as before', async () => {
    const f1 = sample('image_F1.jpg');
    const t1 = sample('image_T1.jpg');
    expect((await post('/t1/verify', { ...body(f1), doLivenessCheck: true })).body.result).toEqual(FAILED);
    expect((await post('/identify', { ...body(sample('image_F2.jpg')), doLivenessCheck: true })).body.result).toEqual(FAILED);
    expect((await post('/match', { ...body(t1, f1), doLivenessCheck: true })).body.result).toEqual(FAILED);
    const live = await post('/t1/verify', { ...body(t1), doLivenessCheck: true });
    const plain = await post('/t1/verify', body(t1));
    expect(live.body.result.code).toBe(1002);
    expect(live.body.score).toBe(plain.body.score);
    expect(plain.body).toEqual({ result: live.body.result, score: live.body.score, threshold: live.body.threshold });
    const metrics = await t.request('GET', '/metrics');
    const attacks = /biostation_liveness_checks_total\{outcome="attack"\} (\d+)/.exec(metrics.body as string);
    expect(Number(attacks?.[1])).toBe(5);
  }, 60_000);
});
