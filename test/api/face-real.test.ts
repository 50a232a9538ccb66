import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPooledFaceEngine } from '../../src/face/index.js';
import { startTestStation, type TestStation } from './harness.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const haveData = existsSync(path.join(datasets, 'lfw-dev/images'));
if (!haveData) console.warn(`face API tests on real images skipped: no datasets at ${datasets} (set BIOSTATION_DATASETS)`);

const lfw = (f: string) => readFileSync(path.join(datasets, 'lfw-dev/images', f));
const body = (...images: Buffer[]) => ({ Images: images.map((i) => ({ imageType: 'frontal', imageData: i.toString('base64') })) });

/** A PNG whose header claims width x height but whose pixel data is a few bytes (a decompression bomb's shape). */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4); // readers that check CRCs refuse it too: either way it must be a 400
    return Buffer.concat([len, Buffer.from(type), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(64))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * The face routes with the real engine, as the station runs it (extraction on two worker threads):
 * real photographs in, the spec's answers out; bad input never a 500.
 */
describe.skipIf(!haveData)('face API on real images', () => {
  let t: TestStation;
  let token: string;
  const post = (p: string, json: unknown) => t.request('POST', `/api/v1/services/face${p}`, { token, json });

  beforeAll(async () => {
    t = await startTestStation({ faceEngine: () => createPooledFaceEngine(2) });
    token = (await t.application('face-real')).token;
  });
  afterAll(() => t?.close());

  it('enroll, verify, identify, match and templates on LFW photos', async () => {
    const enroll = await post('/enroll/blair', { ...body(lfw('Tony_Blair_0032.jpg')), ReturnTemplate: true });
    expect(enroll.status).toBe(200);
    expect(enroll.body.result.code).toBe(1000);
    expect(enroll.body.b64Templates).toHaveLength(1);
    expect((await post('/enroll/wen', body(lfw('Wen_Jiabao_0001.jpg')))).status).toBe(200);

    const same = await post('/blair/verify', body(lfw('Tony_Blair_0086.jpg')));
    expect(same.body.result.code).toBe(1002);
    expect(same.body.score).toBeGreaterThanOrEqual(same.body.threshold);
    const other = await post('/blair/verify', body(lfw('Silvio_Berlusconi_0006.jpg')));
    expect(other.body.result.code).toBe(1003);

    expect((await post('/identify', body(lfw('Tony_Blair_0048.jpg')))).body).toMatchObject({ ExternalID: 'blair', result: { code: 1008 } });
    expect((await post('/identify', body(lfw('Silvio_Berlusconi_0006.jpg')))).body).toMatchObject({ ExternalID: null, result: { code: 1009 } });
    expect((await post('/match', body(lfw('Wen_Jiabao_0001.jpg'), lfw('Wen_Jiabao_0002.jpg')))).body.result.code).toBe(1002);

    const stored = await t.request('GET', '/api/v1/services/face/templates/blair', { token });
    expect(stored.body.Templates[0].Data).toBe(enroll.body.b64Templates[0]);
  });

  it('bad input: a 4xx with a stable code, never 500, the store unchanged', async () => {
    const jpeg = lfw('Tony_Blair_0018.jpg');
    const blank = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 200, b: 200 } } }).png().toBuffer();
    const onePixel = await sharp({ create: { width: 1, height: 1, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png().toBuffer();
    const twoFaces = await sharp({ create: { width: 500, height: 250, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .composite([{ input: lfw('Tony_Blair_0018.jpg'), left: 0, top: 0 }, { input: lfw('Wen_Jiabao_0001.jpg'), left: 250, top: 0 }])
      .jpeg()
      .toBuffer();
    const before = (await t.request('GET', '/api/v1/services/face/count', { token })).body.count;
    const cases: Array<[string, unknown, string[]]> = [
      ['not base64', { Images: [{ imageType: 'frontal', imageData: '!!!' }] }, ['INVALID_BASE64']],
      ['not an image', body(Buffer.from('hello, I am not an image at all')), ['INVALID_IMAGE']],
      ['truncated JPEG', body(jpeg.subarray(0, Math.floor(jpeg.length / 3))), ['INVALID_IMAGE', 'NO_FACE']],
      ['1x1 image', body(onePixel), ['IMAGE_TOO_SMALL', 'NO_FACE']],
      ['20000x20000 PNG header', body(pngHeaderOnly(20000, 20000)), ['IMAGE_TOO_LARGE', 'INVALID_IMAGE']],
      ['no face', body(blank), ['NO_FACE']],
      ['two faces', body(twoFaces), ['MULTIPLE_FACES']],
      ['empty Images', { Images: [] }, ['INVALID_REQUEST']],
      ['wrong imageType', { Images: [{ imageType: 'selfie', imageData: jpeg.toString('base64') }] }, ['INVALID_IMAGE_TYPE']],
    ];
    for (const [name, json, codes] of cases) {
      const res = await post(`/enroll/bad-${name.replace(/\W+/g, '-')}`, json);
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(res.status, name).toBeLessThan(500);
      expect(codes, `${name}: ${JSON.stringify(res.body)}`).toContain(res.body.result.message);
    }
    expect((await t.request('GET', '/api/v1/services/face/count', { token })).body.count).toBe(before);
  });
});
