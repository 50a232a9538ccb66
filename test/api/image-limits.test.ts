import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase64Field } from '../../src/runtime/base64.js';
import { IMAGE_LIMITS, declaredSizeOfRaw } from '../../src/http/image-limits.js';
import { createFingerEngine } from '../../src/finger/index.js';
import { startTestStation, type TestStation } from './harness.js';
import { fakeFaceEngine } from './fakes.js';
import { HUGE_PGM, pngDeclaring } from './hostile-images.js';

describe('base64 fields (issue #18 finding 3: 500 "Maximum call stack size exceeded" above ~3.2 MiB)', () => {
  it('decodes a 21 MB field in linear time without overflowing the stack', () => {
    const bytes = Buffer.alloc(21 * 1024 * 1024, 7);
    const decoded = decodeBase64Field(bytes.toString('base64'), 'imageData');
    expect(decoded.length).toBe(bytes.length);
  });

  it('keeps the alphabet and padding rules', () => {
    expect(Buffer.from(decodeBase64Field('QUJD', 'f')).toString()).toBe('ABC');
    expect(Buffer.from(decodeBase64Field('QUI=', 'f')).toString()).toBe('AB');
    expect(Buffer.from(decodeBase64Field('QUI', 'f')).toString()).toBe('AB');
    expect(Buffer.from(decodeBase64Field('data:image/png;base64,QU\nJD', 'f')).toString()).toBe('ABC');
    expect(Buffer.from(decodeBase64Field('_-8', 'f'))).toEqual(Buffer.from([0xff, 0xef]));
    // Plain standard base64 takes the native path; the rest (whitespace, the URL-safe alphabet) the character-class one.
    expect(Buffer.from(decodeBase64Field('QUJDRA', 'f')).toString()).toBe('ABCD');
    expect(Buffer.from(decodeBase64Field('QR==', 'f')).toString()).toBe('A');
    expect(Buffer.from(decodeBase64Field('QUJD\r\n', 'f')).toString()).toBe('ABC');
    expect(Buffer.from(decodeBase64Field('-_-_', 'f'))).toEqual(Buffer.from([0xfb, 0xff, 0xbf]));
    for (const bad of ['QU=I', 'QUJD*', 'Q===', '====', '', 'QUJDR', '\u00e9QUJD', '\u0141UJD', 'QUJ\u0144', 'QUJD\u0000', 'QU+_', 'QQ==QQ==', 'QUJD=', 'QUJDRA=', 'QU JD*']) expect(() => decodeBase64Field(bad, 'f'), bad).toThrow(/base64|empty/);
  });

  it('refuses a field over maxBytes before decoding it', () => {
    expect(() => decodeBase64Field('QUJDRA==', 'f', 3)).toThrow(expect.objectContaining({ code: 'IMAGE_TOO_LARGE' }));
    expect(decodeBase64Field('QUJD', 'f', 3).length).toBe(3);
  });

  it('reads the declared size of BMP and Netpbm headers', () => {
    expect(declaredSizeOfRaw(HUGE_PGM)).toEqual({ format: 'netpbm', width: 100000, height: 100000 });
    expect(declaredSizeOfRaw(Buffer.from('P2 # comment\n# more\n 3 4\n255\n', 'latin1'))).toEqual({ format: 'netpbm', width: 3, height: 4 });
    const bmp = Buffer.alloc(54);
    bmp.write('BM', 0, 'latin1');
    bmp.writeInt32LE(640, 18);
    bmp.writeInt32LE(-480, 22);
    expect(declaredSizeOfRaw(bmp)).toEqual({ format: 'bmp', width: 640, height: 480 });
    expect(declaredSizeOfRaw(Buffer.from('PERSON:x'))).toBeUndefined();
  });
});

describe('image limits on the image routes (issue #18 finding 3)', () => {
  let t: TestStation;
  let token: string;
  beforeAll(async () => {
    t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: createFingerEngine });
    token = (await t.application('limits')).token;
  });
  afterAll(() => t?.close());

  it('a valid 4 MiB face image is processed (no 500 from base64 decoding)', async () => {
    // The fake face engine takes `PERSON:<name>` as an image; 4 MiB of name makes a 4 MiB image.
    const image = Buffer.from(`PERSON:${'a'.repeat(4 * 1024 * 1024)}`).toString('base64');
    const res = await t.request('POST', '/api/v1/services/face/enroll/big', { token, json: { Images: [{ imageData: image }] } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.result.code).toBe(1000);
  });

  it('a 4 MiB fingerprint image reaches the engine (400 INVALID_IMAGE from the decoder, not a 500)', async () => {
    const image = Buffer.alloc(4 * 1024 * 1024, 0x41).toString('base64');
    const res = await t.request('POST', '/api/v1/services/finger/enroll/big', { token, json: { imageData: image } });
    expect(res.status).toBe(400);
    expect(res.body.result.message).toBe('INVALID_IMAGE');
  });

  it('a PGM header declaring 100000x100000 gets 400 IMAGE_TOO_LARGE on every fingerprint image route', async () => {
    const imageData = HUGE_PGM.toString('base64');
    const cases: Array<[string, unknown]> = [
      ['/enroll/pgm', { imageData }],
      ['/pgm', { imageData }],
      ['/pgm/verify', { imageData }],
      ['/identify', { imageData }],
      ['/images/match', [{ imageData }, { imageData }]],
    ];
    for (const [p, json] of cases) {
      const res = await t.request(p === '/pgm' ? 'PATCH' : 'POST', `/api/v1/services/finger${p}`, { token, json });
      expect(res.status, p).toBe(400);
      expect(res.body.result.message, p).toBe('IMAGE_TOO_LARGE');
    }
  });

  it('a PNG header declaring 100000x100000 gets 400 IMAGE_TOO_LARGE on the face and fingerprint routes', async () => {
    const imageData = pngDeclaring(100_000, 100_000).toString('base64');
    const face = await t.request('POST', '/api/v1/services/face/identify', { token, json: { Images: [{ imageData }] } });
    expect(face.status).toBe(400);
    expect(face.body.result.message).toBe('IMAGE_TOO_LARGE');
    const finger = await t.request('POST', '/api/v1/services/finger/identify', { token, json: { imageData } });
    expect(finger.status).toBe(400);
    expect(finger.body.result.message).toBe('IMAGE_TOO_LARGE');
  });

  it('an image over 20 MiB gets 400 IMAGE_TOO_LARGE, the same on face and fingerprint routes', async () => {
    const imageData = Buffer.alloc(IMAGE_LIMITS.maxBytes + 3, 0x41).toString('base64');
    expect(imageData.length).toBeLessThan(28_000_000);
    for (const [p, json] of [
      ['/face/match', { Images: [{ imageData }, { imageData: 'QUJD' }] }],
      ['/finger/identify', { imageData }],
    ] as Array<[string, unknown]>) {
      const res = await t.request('POST', `/api/v1/services${p}`, { token, json });
      expect(res.status, p).toBe(400);
      expect(res.body.result.message, p).toBe('IMAGE_TOO_LARGE');
    }
  });
});
