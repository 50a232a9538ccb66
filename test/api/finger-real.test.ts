import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFingerEngine } from '../../src/finger/index.js';
import { startTestStation, type TestStation } from './harness.js';

const datasets = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const fvc = path.join(datasets, 'fvc/fvc2002/DB1_B');
const templates = path.join(datasets, 'fingerprint-templates/sourceafis-3.18.1/fvc2002/DB1_B');
const haveData = existsSync(fvc) && existsSync(templates);
if (!haveData) console.warn(`fingerprint API tests on real images skipped: no datasets at ${datasets} (set BIOSTATION_DATASETS)`);

const b64 = (file: string) => readFileSync(file).toString('base64');
const image = (name: string) => b64(path.join(fvc, name));
const iso = (name: string) => b64(path.join(templates, name));

/** The fingerprint routes with the real engine on FVC images and SourceAFIS-made interchange records. */
describe.skipIf(!haveData)('fingerprint API on real images', () => {
  let t: TestStation;
  let token: string;
  const post = (p: string, json: unknown) => t.request('POST', `/api/v1/services/finger${p}`, { token, json });

  beforeAll(async () => {
    t = await startTestStation({ fingerEngine: createFingerEngine });
    token = (await t.application('finger-real')).token;
  });
  afterAll(() => t?.close());

  it('enroll, verify, identify and compare on FVC2002 DB1_B', async () => {
    for (const finger of ['101', '102', '103']) {
      const res = await post(`/enroll/f${finger}`, { position: 'UNKNOWN', dpi: '500', imageData: image(`${finger}_1.png`) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect((await post('/f101/verify', { imageData: image('101_3.png') })).body.result.code).toBe(1002);
    expect((await post('/f101/verify', { imageData: image('104_1.png') })).body.result.code).toBe(1003);
    expect((await post('/identify', { imageData: image('102_4.png') })).body).toMatchObject({ ExternalID: 'f102', result: { code: 1008 } });
    expect((await post('/identify', { imageData: image('108_2.png') })).body).toMatchObject({ ExternalID: null, result: { code: 1009 } });
    const same = await post('/images/match', [{ imageData: image('102_1.png') }, { imageData: image('102_4.png') }]);
    expect(same.body).toMatchObject({ code: 1010, message: 'MATCH_IMAGES_SUCCESSFULLY' });
  });

  it('verify, identify and match read the probe at the dpi it was sent with', async () => {
    // The same impression scanned at 300 dpi: 60 % of the FVC 500 dpi size.
    const png = readFileSync(path.join(fvc, '103_2.png'));
    const meta = await sharp(png).metadata();
    const at300 = (await sharp(png).resize(Math.round(meta.width! * 0.6), Math.round(meta.height! * 0.6)).png().toBuffer()).toString('base64');
    await post('/enroll/f103dpi', { position: 'UNKNOWN', dpi: '500', imageData: image('103_1.png') });
    const told = await post('/f103dpi/verify', { dpi: '300', imageData: at300 });
    const untold = await post('/f103dpi/verify', { imageData: at300 });
    expect(told.body.result.code, JSON.stringify(told.body)).toBe(1002);
    expect(told.body.score).toBeGreaterThan(untold.body.score);
    expect((await post('/identify', { dpi: 300, imageData: at300 })).body).toMatchObject({ result: { code: 1008 } });
    const pair = await post('/images/match', [{ imageData: image('103_1.png') }, { dpi: '300', imageData: at300 }]);
    expect(pair.body, JSON.stringify(pair.body)).toMatchObject({ code: 1010 });
    expect((await post('/f103dpi/verify', { dpi: '50', imageData: at300 })).status).toBe(400);
  });

  it('templates/match reads ISO 19794-2:2005 and ANSI 378-2004 records', async () => {
    const genuine = await post('/templates/match', [{ b64IsoTemplate: iso('101_1.iso2005.fmr') }, { b64IsoTemplate: iso('101_2.ansi2004.fmr') }]);
    expect(genuine.status, JSON.stringify(genuine.body)).toBe(200);
    expect(genuine.body).toMatchObject({ code: 1010, message: 'MATCH_TEMPLATES_SUCCESSFULLY' });
    const impostor = await post('/templates/match', [{ b64IsoTemplate: iso('101_1.iso2005.fmr') }, { b64IsoTemplate: iso('105_1.iso2005.fmr') }]);
    expect(impostor.body).toMatchObject({ code: 1011, message: 'NOT_MATCHED' });
  });

  it('bad input: a 4xx with a stable code, never 500', async () => {
    const record = readFileSync(path.join(templates, '101_1.iso2005.fmr'));
    const tooManyMinutiae = Buffer.from(record);
    tooManyMinutiae[27] = 255; // minutia count of the first view, far beyond the record's length
    const wrongMagic = Buffer.from(record);
    wrongMagic.write('XYZ', 0, 'latin1');
    const templateCases: Array<[string, Buffer]> = [
      ['truncated', record.subarray(0, 30)],
      ['wrong magic', wrongMagic],
      ['minutia count larger than the record', tooManyMinutiae],
    ];
    for (const [name, bytes] of templateCases) {
      const res = await post('/templates/match', [{ b64IsoTemplate: bytes.toString('base64') }, { b64IsoTemplate: iso('101_2.iso2005.fmr') }]);
      expect(res.status, name).toBe(400);
      expect(res.body.result.message, name).toBe('INVALID_TEMPLATE');
    }
    const imageCases: Array<[string, string, string[]]> = [
      ['zero-size image', '', ['INVALID_REQUEST']],
      ['non-image bytes', Buffer.from('definitely not a fingerprint image').toString('base64'), ['INVALID_IMAGE']],
      ['truncated PNG', readFileSync(path.join(fvc, '101_1.png')).subarray(0, 200).toString('base64'), ['INVALID_IMAGE']],
    ];
    const before = (await t.request('GET', '/api/v1/services/finger/count', { token })).body.count;
    for (const [name, imageData, codes] of imageCases) {
      const res = await post('/enroll/bad', { imageData });
      expect(res.status, name).toBe(400);
      expect(codes, `${name}: ${JSON.stringify(res.body)}`).toContain(res.body.result.message);
    }
    expect((await t.request('GET', '/api/v1/services/finger/count', { token })).body.count).toBe(before);
  });
});
