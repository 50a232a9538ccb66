/**
 * Large JSON bodies of the image routes are parsed, and their base64 images decoded, on a worker thread
 * (src/http/json-body.ts, issue #18). The answers must be those of the main-thread path: the same bodies
 * below and above JSON_WORKER_MIN_BYTES (a filler field makes the small body large) get the same status,
 * code and message.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_WORKER_MIN_BYTES, registerJsonBodyParser, takeDecodedImage } from '../../src/http/json-body.js';
import { createFingerEngine } from '../../src/finger/index.js';
import { startTestStation, type TestStation } from './harness.js';
import { fakeFaceEngine } from './fakes.js';

describe('JSON body worker (issue #18)', () => {
  it('decodes the image fields of a large body on the worker and hands the bytes to the route', async () => {
    const app = Fastify();
    registerJsonBodyParser(app, { maxChars: 28_000_000, maxBytes: 20 * 2 ** 20 });
    app.post('/api/v1/services/finger/x', async (request) => {
      const body = request.body as { imageData: string; Images?: { imageData: string }[] };
      const image = takeDecodedImage(body);
      return { text: body.imageData, chars: image?.chars, bytes: image ? Buffer.from(image.bytes).toString('latin1') : undefined, items: body.Images?.map((i) => takeDecodedImage(i)?.bytes.length ?? i.imageData) };
    });
    app.post('/api/v1/other/x', async (request) => ({ text: (request.body as { imageData: string }).imageData.length }));
    try {
      const big = 'A'.repeat(300_000);
      const imageData = Buffer.from(big).toString('base64');
      const res = await app.inject({ method: 'POST', url: '/api/v1/services/finger/x', payload: { imageData, Images: [{ imageData: 'QUJD' }, { imageData: 'not base64!' }] } });
      expect(res.json()).toEqual({ text: '', chars: imageData.length, bytes: big, items: [3, 'not base64!'] });
      // Other routes and small bodies keep their text.
      expect((await app.inject({ method: 'POST', url: '/api/v1/other/x', payload: { imageData } })).json()).toEqual({ text: imageData.length });
      expect((await app.inject({ method: 'POST', url: '/api/v1/services/finger/x', payload: { imageData: 'QUJD' } })).json()).toEqual({ text: 'QUJD' });
    } finally {
      await app.close();
    }
  });

  describe('same answers as the main-thread parser', () => {
    let t: TestStation;
    let token: string;
    beforeAll(async () => {
      t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: createFingerEngine });
      token = (await t.application('json-body')).token;
    });
    afterAll(() => t?.close());

    /** The answer to `text` as is and with a filler that makes it larger than JSON_WORKER_MIN_BYTES. */
    async function both(path: string, text: (filler: string) => string) {
      const send = async (filler: string) => {
        const body = text(filler);
        const res = await t.request('POST', path, { token, body, headers: { 'content-type': 'application/json' } });
        return { size: body.length, status: res.status, code: res.body?.result?.code, message: res.body?.result?.message, details: res.body?.result?.details };
      };
      const small = await send('');
      const large = await send('x'.repeat(JSON_WORKER_MIN_BYTES));
      expect(small.size).toBeLessThan(JSON_WORKER_MIN_BYTES);
      expect(large.size).toBeGreaterThan(JSON_WORKER_MIN_BYTES);
      return { small: { ...small, size: 0 }, large: { ...large, size: 0 } };
    }

    it.each([
      ['broken JSON', '/api/v1/services/finger/identify', (f: string) => `{"imageData":"QUJD","f":"${f}"`],
      ['__proto__ key', '/api/v1/services/finger/identify', (f: string) => `{"imageData":"QUJD","f":"${f}","__proto__":{"x":1}}`],
      ['constructor.prototype', '/api/v1/services/face/identify', (f: string) => `{"Images":[{"imageData":"QUJD"}],"f":"${f}","constructor":{"prototype":{"x":1}}}`],
      ['bad base64', '/api/v1/services/finger/identify', (f: string) => `{"imageData":"QUJD*${f}"}`],
      ['empty image', '/api/v1/services/finger/enroll/e', (f: string) => `{"imageData":"","f":"${f}"}`],
      ['wrong type beside a good image', '/api/v1/services/finger/enroll/e', (f: string) => `{"imageData":"${Buffer.from(f || 'A').toString('base64')}","position":5}`],
      ['not an image', '/api/v1/services/finger/enroll/e', (f: string) => `{"imageData":"${Buffer.from(`x${f}`).toString('base64')}"}`],
      ['face image item not frontal', '/api/v1/services/face/identify', (f: string) => `{"Images":[{"imageType":"side","imageData":"${Buffer.from(`PERSON:a${f}`).toString('base64')}"}]}`],
      ['image pair with a bad second item', '/api/v1/services/finger/images/match', (f: string) => `[{"imageData":"${Buffer.from(`x${f}`).toString('base64')}"},{"imageData":"Q"}]`],
    ])('%s', async (_name, path, text) => {
      const { small, large } = await both(path, text);
      expect(small.status).toBeGreaterThanOrEqual(400);
      expect(small.status).toBeLessThan(500);
      expect(large).toEqual(small);
    });

    it('a large valid face image is enrolled', async () => {
      const imageData = Buffer.from(`PERSON:${'b'.repeat(JSON_WORKER_MIN_BYTES)}`).toString('base64');
      const res = await t.request('POST', '/api/v1/services/face/enroll/large', { token, json: { Images: [{ imageData }] } });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    });
  });
});
