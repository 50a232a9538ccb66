/**
 * livenessFrames (issue #20 extension, src/liveness/passive/frames.ts) through the API with the real engines:
 * frames of another person or another framing are refused (LIVENESS_FRAMES_INCONSISTENT), frames without
 * doLivenessCheck are refused (INVALID_REQUEST), image_F1 with frames of itself is still 1013, image_T1 with
 * slightly shifted and noised copies of itself passes with the session in `liveness.sessions`, a frame too
 * dark to judge is dropped from the mean, and a request without frames answers exactly as before.
 * The frames here are made from one photo (shift + noise + JPEG): they test the plumbing and the
 * consistency bounds, not the benefit of real video frames (measured on NUAA, see the passive README).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine } from '../../src/face/index.js';
import { startTestStation, type TestStation } from './harness.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const SPOOF = path.join(datasets, 'faces-misc', 'spoof-samples');
const OTHER = path.join(datasets, 'lfw-dev', 'images', 'Aaron_Sorkin_0001.jpg');
const haveData = existsSync(path.join(SPOOF, 'image_F1.jpg')) && existsSync(OTHER);
if (!haveData) console.warn(`liveness-frames API tests skipped: no spoof samples or lfw-dev under ${datasets} (set BIOSTATION_DATASETS)`);

const sample = (f: string) => readFileSync(path.join(SPOOF, f));
const item = (i: Buffer) => ({ imageType: 'frontal', imageData: i.toString('base64') });
const body = (...images: Buffer[]) => ({ Images: images.map(item) });
const FAILED = { code: 1013, message: 'LIVENESS_CHECK_FAILED', detail: 'liveness check failed' };

/**
 * A copy of `jpeg` (EXIF orientation applied, as the face engine reads it) shifted by (dx, dy) px (edges replicated), with deterministic uniform noise of +-`noise`
 * grey levels, times `gain`, re-encoded as JPEG 92: a stand-in for the next frame of the same camera stream.
 */
async function frameOf(jpeg: Buffer, dx: number, dy: number, noise: number, seed: number, gain = 1): Promise<Buffer> {
  const { data, info } = await sharp(jpeg).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h, channels: c } = info;
  const out = Buffer.alloc(data.length);
  let s = seed >>> 0;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(h - 1, Math.max(0, y - dy));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(w - 1, Math.max(0, x - dx));
      for (let k = 0; k < c; k++) {
        s = (s * 1664525 + 1013904223) >>> 0;
        const n = ((s / 2 ** 32) * 2 - 1) * noise;
        out[(y * w + x) * c + k] = Math.max(0, Math.min(255, Math.round(data[(sy * w + sx) * c + k] * gain + n)));
      }
    }
  }
  return sharp(out, { raw: { width: w, height: h, channels: c } }).jpeg({ quality: 92 }).toBuffer();
}

/** Three frames of `jpeg` as a camera would give them ~0.3 s apart. */
const framesOf = (jpeg: Buffer) => Promise.all([frameOf(jpeg, 3, 1, 4, 1), frameOf(jpeg, -2, 2, 4, 2), frameOf(jpeg, 1, -3, 4, 3)]);

describe.skipIf(!haveData)('livenessFrames on real captures', () => {
  let t: TestStation;
  let token: string;
  let t1: Buffer;
  let f1: Buffer;
  let t1Frames: Buffer[];
  const post = (p: string, json: unknown) => t.request('POST', `/api/v1/services/face${p}`, { token, json });

  beforeAll(async () => {
    t = await startTestStation({ faceEngine: () => createFaceEngine({ intraOpNumThreads: 1 }) });
    token = (await t.application('frames')).token;
    t1 = sample('image_T1.jpg');
    f1 = sample('image_F1.jpg');
    t1Frames = await framesOf(t1);
    expect((await post('/enroll/t1', { ...body(t1), ReturnTemplate: true })).body.result.code).toBe(1000);
  }, 120_000);
  afterAll(() => t?.close());

  it('frames without doLivenessCheck: 400 INVALID_REQUEST on every route, nothing stored', async () => {
    for (const [p, json] of [
      ['/enroll/x', { ...body(t1), livenessFrames: t1Frames.map(item) }],
      ['/t1/verify', { ...body(t1), livenessFrames: t1Frames.map(item) }],
      ['/identify', { ...body(t1), doLivenessCheck: false, livenessFrames: t1Frames.map(item) }],
      ['/match', { ...body(t1, t1), livenessFrames: [t1Frames.map(item), []] }],
    ] as const) {
      const res = await post(p, json);
      expect([p, res.status, res.body.result.message]).toEqual([p, 400, 'INVALID_REQUEST']);
      expect(res.body.result.detail).toMatch(/doLivenessCheck/);
    }
    const patch = await t.request('PATCH', '/api/v1/services/face/t1', { token, json: { ...body(t1), livenessFrames: t1Frames.map(item) } });
    expect([patch.status, patch.body.result.message]).toEqual([400, 'INVALID_REQUEST']);
    expect((await t.request('GET', '/api/v1/services/face/templates/x', { token })).status).toBe(404);
    // more than 4 frames, or an empty list: refused by the schema
    expect((await post('/t1/verify', { ...body(t1), doLivenessCheck: true, livenessFrames: [...t1Frames, ...t1Frames].map(item) })).status).toBe(400);
    expect((await post('/t1/verify', { ...body(t1), doLivenessCheck: true, livenessFrames: [] })).status).toBe(400);
  }, 60_000);

  it('a frame of another person, or of another framing: 400 LIVENESS_FRAMES_INCONSISTENT (1051), nothing stored', async () => {
    const other = await frameOf(readFileSync(OTHER), 0, 0, 0, 1);
    const res = await post('/enroll/y', { ...body(t1), doLivenessCheck: true, livenessFrames: [item(t1Frames[0]), item(other)] });
    expect([res.status, res.body.result.code, res.body.result.message]).toEqual([400, 1051, 'LIVENESS_FRAMES_INCONSISTENT']);
    expect(res.body.result.detail).toMatch(/livenessFrames\[1\].*(another person|No face|moved|scale)/);
    expect((await t.request('GET', '/api/v1/services/face/templates/y', { token })).status).toBe(404);
    // the same person zoomed in 1.6x (another framing, not the next frame of one capture)
    const zoomed = await sharp(t1).rotate().extract({ left: 90, top: 120, width: 300, height: 400 }).resize(480, 640).jpeg({ quality: 92 }).toBuffer();
    const z = await post('/t1/verify', { ...body(t1), doLivenessCheck: true, livenessFrames: [item(zoomed)] });
    expect([z.status, z.body.result.message]).toEqual([400, 'LIVENESS_FRAMES_INCONSISTENT']);
    expect(z.body.result.detail).toMatch(/scale|moved/);
    // a frame with no face at all (a grey wall)
    const wall = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 150, g: 146, b: 140 } } }).jpeg().toBuffer();
    const w = await post('/t1/verify', { ...body(t1), doLivenessCheck: true, livenessFrames: [item(t1Frames[0]), item(t1Frames[1]), item(wall)] });
    expect([w.status, w.body.result.message]).toEqual([400, 'LIVENESS_FRAMES_INCONSISTENT']);
    expect(w.body.result.detail).toMatch(/^livenessFrames\[2\]: No face/);
  }, 60_000);

  it('image_F1 (print attack) with frames of itself: 1013 with the session verdict, nothing stored', async () => {
    const frames = await framesOf(f1);
    const res = await post('/enroll/f1', { ...body(f1), doLivenessCheck: true, livenessFrames: frames.map(item), ReturnTemplate: true });
    expect([res.status, res.body.result]).toEqual([200, FAILED]);
    expect(res.body.liveness.frames.rule).toBe('mean-log-odds');
    expect(res.body.liveness.frames.scores).toHaveLength(3);
    expect(res.body.liveness.frames.used).toBe(4);
    expect(res.body.liveness.score).toBeLessThan(res.body.liveness.threshold);
    expect(res.body.b64Templates).toBeUndefined();
    expect((await t.request('GET', '/api/v1/services/face/templates/f1', { token })).status).toBe(404);
    expect((await post('/t1/verify', { ...body(f1), doLivenessCheck: true, livenessFrames: frames.map(item) })).body.result).toEqual(FAILED);
  }, 60_000);

  it('image_T1 with shifted, noised copies of itself passes on every route; the frames are neither stored nor matched', async () => {
    const verify = await post('/t1/verify', { ...body(t1), doLivenessCheck: true, livenessFrames: t1Frames.map(item) });
    const plain = await post('/t1/verify', body(t1));
    expect(verify.status).toBe(200);
    expect(verify.body.result.code).toBe(1002);
    expect([verify.body.score, verify.body.threshold]).toEqual([plain.body.score, plain.body.threshold]);
    const { liveness } = verify.body;
    expect(liveness.sessions).toHaveLength(1);
    const s = liveness.sessions[0];
    expect(s).toMatchObject({ image: 0, rule: 'mean-log-odds', dropped: [], used: 4 });
    expect(s.scores).toHaveLength(3);
    expect(liveness.scores).toEqual([liveness.score]);
    // the session's probability is the sigmoid of the mean log-odds of the four images
    const logit = (p: number) => Math.log(p / (1 - p));
    const mean = [s.imageScore, ...s.scores].reduce((a: number, p: number) => a + logit(p), 0) / 4;
    expect(liveness.score).toBeCloseTo(1 / (1 + Math.exp(-mean)), 4);
    expect(liveness.score).toBeGreaterThanOrEqual(liveness.threshold);

    const enrolled = await post('/enroll/t1-frames', { ...body(t1), doLivenessCheck: true, livenessFrames: t1Frames.map(item), ReturnTemplate: true });
    expect(enrolled.body.result.code).toBe(1000);
    expect(enrolled.body.b64Templates).toHaveLength(1);
    expect(enrolled.body.b64Templates).toEqual((await t.request('GET', '/api/v1/services/face/templates/t1', { token })).body.Templates.map((x: { Data: string }) => x.Data));
    expect((await t.request('GET', '/api/v1/services/face/templates/count/t1-frames', { token })).body.count).toBe(1);
    const patched = await t.request('PATCH', '/api/v1/services/face/t1-frames', { token, json: { ...body(t1), doLivenessCheck: true, livenessFrames: t1Frames.map(item) } });
    expect(patched.body.result.code).toBe(1006);
    expect(patched.body.liveness.sessions[0].used).toBe(4);

    const identify = await post('/identify', { ...body(t1), doLivenessCheck: true, livenessFrames: t1Frames.slice(0, 1).map(item) });
    expect(identify.body.result.code).toBe(1008);
    expect(identify.body.liveness.sessions[0].used).toBe(2);

    const match = await post('/match', { ...body(t1, t1), doLivenessCheck: true, livenessFrames: [[], t1Frames.map(item)] });
    expect(match.body.result.code).toBe(1002);
    expect(match.body.liveness.scores).toHaveLength(2);
    expect(match.body.liveness.sessions.map((x: { image: number }) => x.image)).toEqual([1]);
  }, 120_000);

  it('a frame too dark to judge is dropped from the mean and reported', async () => {
    const dark = await frameOf(t1, 1, 1, 2, 9, 0.35);
    const res = await post('/t1/verify', { ...body(t1), doLivenessCheck: true, livenessFrames: [item(t1Frames[0]), item(dark)] });
    expect(res.status).toBe(200);
    const s = res.body.liveness.sessions[0];
    expect(s.scores[1]).toBeNull();
    expect(s.dropped).toEqual([{ index: 1, failures: expect.arrayContaining(['underexposed']) }]);
    expect(s.used).toBe(2);
  }, 60_000);

  it('a main image too dark to judge gets the quality error before any frame is looked at', async () => {
    // The frames show another person: had they been extracted first, the answer would be 1051.
    const dark = await frameOf(t1, 0, 0, 2, 11, 0.35);
    const other = await frameOf(readFileSync(OTHER), 0, 0, 0, 1);
    const res = await post('/t1/verify', { ...body(dark), doLivenessCheck: true, livenessFrames: [item(other), item(other)] });
    expect([res.status, res.body.result.message]).toEqual([400, 'FACE_QUALITY_TOO_LOW']);
  }, 60_000);

  it('without frames the answer is exactly the one without the extension', async () => {
    const res = await post('/t1/verify', { ...body(t1), doLivenessCheck: true });
    expect(Object.keys(res.body).sort()).toEqual(['liveness', 'livenessEvaluated', 'result', 'score', 'threshold']);
    expect(Object.keys(res.body.liveness).sort()).toEqual(['mode', 'score', 'scores', 'threshold']);
    const again = await post('/t1/verify', { ...body(t1), doLivenessCheck: true });
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(res.body));
    const attack = await post('/t1/verify', { ...body(f1), doLivenessCheck: true });
    expect(Object.keys(attack.body.liveness).sort()).toEqual(['evidence', 'mode', 'score', 'threshold']);
  }, 60_000);
});
