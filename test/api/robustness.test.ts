import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from './harness.js';
import { fakeFaceEngine, fakeFingerEngine } from './fakes.js';

/** Deterministic PRNG (mulberry32) so a failure replays. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random JSON value of the shapes clients get wrong: wrong types, nulls, deep nesting, odd strings. */
function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 6 : 9));
  switch (pick) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return [0, -1, 1e308, -0, 2 ** 53 + 1, 3.14][Math.floor(next() * 6)];
    case 3: return ['', ' ', 'frontal', '\u0000', '\ud800', 'A'.repeat(70_000), '../../etc/passwd', '{"a":1}', 'QUJD'][Math.floor(next() * 9)];
    case 4: return 'x'.repeat(Math.floor(next() * 300));
    case 5: return Buffer.from(Array.from({ length: 12 }, () => Math.floor(next() * 256))).toString('base64');
    case 6: return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default: {
      const keys = ['Images', 'imageData', 'imageType', 'doLivenessCheck', 'ReturnTemplate', 'position', 'dpi', 'b64IsoTemplate', 'key', 'secret', '__proto__', 'constructor'];
      const o: Record<string, unknown> = {};
      for (let i = 0; i < 1 + Math.floor(next() * 4); i++) o[keys[Math.floor(next() * keys.length)]] = randomValue(next, depth + 1);
      return o;
    }
  }
}

const ROUTES: Array<[string, string]> = [
  ['POST', '/api/v1/app-credentials/validate'],
  ['POST', '/api/v1/app-credentials/token'],
  ['POST', '/api/v1/services/face/enroll/p1'],
  ['PATCH', '/api/v1/services/face/p1'],
  ['POST', '/api/v1/services/face/p1/verify'],
  ['POST', '/api/v1/services/face/identify'],
  ['POST', '/api/v1/services/face/match'],
  ['GET', '/api/v1/services/face/dump?page=%00&limit=-'],
  ['POST', '/api/v1/services/finger/enroll/p1'],
  ['PATCH', '/api/v1/services/finger/p1'],
  ['POST', '/api/v1/services/finger/p1/verify'],
  ['POST', '/api/v1/services/finger/identify'],
  ['POST', '/api/v1/services/finger/images/match'],
  ['POST', '/api/v1/services/finger/templates/match'],
  ['POST', '/api/v1/services/liveness/check'],
  ['POST', '/api/v1/services/ocr/process-cnh'],
];

/** Whatever a client sends, the station answers with a 4xx (or a 2xx), never a 5xx, and keeps answering. */
describe('robustness: random and malformed requests never give a 5xx', () => {
  let t: TestStation;
  let token: string;
  beforeAll(async () => {
    t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    token = (await t.application('fuzz')).token;
  });
  afterAll(() => t.close());

  it('random JSON bodies on every route', async () => {
    const next = rng(20261121);
    for (const [method, url] of ROUTES) {
      for (let i = 0; i < 25; i++) {
        const body = randomValue(next);
        const res = await t.request(method, url, { token, json: method === 'GET' ? undefined : body });
        expect(res.status, `${method} ${url} ${JSON.stringify(body)?.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  });

  it('raw bytes, wrong content types, broken JSON and odd headers', async () => {
    const next = rng(7);
    const bodies = ['{', '{"Images":[{"imageData":"', '\u0000\u0001', '[]', 'null', '"', '{"a":' + '['.repeat(5000)];
    const types = ['application/json', 'text/plain', 'application/octet-stream', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'image/png'];
    for (const [method, url] of ROUTES) {
      if (method === 'GET') continue;
      for (let i = 0; i < 6; i++) {
        const res = await t.request(method, url, {
          token,
          body: next() < 0.5 ? bodies[Math.floor(next() * bodies.length)] : Buffer.from(Array.from({ length: 64 }, () => Math.floor(next() * 256))),
          headers: { 'content-type': types[Math.floor(next() * types.length)] },
        });
        expect(res.status, `${method} ${url}`).toBeLessThan(500);
      }
    }
    const odd = await t.request('GET', '/api/v1/services/face/count', { headers: { authorization: `Bearer ${'a.'.repeat(5000)}` } });
    expect(odd.status).toBe(401);
    expect((await t.request('GET', '/api/v1/services/face/count', { token })).status).toBe(200);
  });
});
