/**
 * Advanced liveness end to end: Debian's Chromium (playwright-core, headless) with a fake camera
 * playing real LFW face photos, a page that loads the capture library from the station
 * (/capture/biostation-capture.js), captures and POSTs; the station (child process, real face
 * engine) decrypts and scores. The fake camera and the automation ARE an injected source: the
 * station must say so. Then the documented outcome of a flipped ciphertext byte, a replay, a
 * payload sealed for another station's key, a library copy with one changed line and random bytes.
 */
import { createECDH, createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, DATASETS, ROOT, e2eSkipReason, spawnUntil, waitForEngines, type Child } from './harness.js';
import { writeY4m } from './y4m.js';
import { openEnvelope, parseEnvelope, unpackPlaintext } from '../../src/liveness/advanced/envelope.js';
import { LIVENESS_KEY_FILE, LivenessKeyStore } from '../../src/liveness/advanced/keys.js';
import { readMetadata } from '../../src/liveness/advanced/metadata.js';

const skip = e2eSkipReason();
if (skip) console.warn(`[e2e advanced liveness] skipped: ${skip}`);
const PHOTO = path.join(DATASETS, 'lfw-dev/images/Tony_Blair_0086.jpg');
const CHECK = '/api/v1/services/liveness/check';

interface PageCapture {
  /** Round trip of the POST from the page (upload, check, answer), ms. */
  ms: number;
  status: number;
  body: any;
  payload: string;
}

describe.skipIf(!!skip)('advanced liveness in Chromium with a fake camera', () => {
  let tmp: string;
  let station: Child & { url: string };
  let browser: Browser;
  let token: string;
  let library: string;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'biostation-liveness-e2e-'));
    const vite = await import('vite');
    await vite.build({ configFile: path.join(ROOT, 'renderer/capture/liveness/vite.config.ts'), logLevel: 'warn', build: { outDir: path.join(tmp, 'ui/capture'), emptyOutDir: true } });
    library = await readFile(path.join(tmp, 'ui/capture/biostation-capture.js'), 'utf8');
    await writeY4m(path.join(tmp, 'camera.y4m'), [{ photo: PHOTO, frames: 30 }]);
    const child = await spawnUntil(
      ['src/bin/biostation.mjs', 'serve', '--port', '0', '--host', '127.0.0.1'],
      { BIOSTATION_DATA_DIR: path.join(tmp, 'data'), BIOSTATION_UI_DIR: path.join(tmp, 'ui'), BIOSTATION_LOG_LEVEL: 'warn', BIOSTATION_ENGINES: 'face', BIOSTATION_FACE_WORKERS: '1' },
      /listening on (http:\/\/\S+)/,
    );
    station = { ...child, url: child.match[1]! };
    expect((await waitForEngines(station.url)).face).toBe('ready');
    const demo = JSON.parse(await readFile(path.join(tmp, 'data/demo-credentials.json'), 'utf8')) as { key: string; secret: string };
    const res = await fetch(`${station.url}/api/v1/app-credentials/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(demo) });
    token = ((await res.json()) as { token: string }).token;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${path.join(tmp, 'camera.y4m')}`],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await station?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** Opens a page on the station's origin that imports `libraryPath`, captures, POSTs the payload and hands it back (base64). */
  async function captureInPage(libraryPath = '/capture/biostation-capture.js', setup?: (page: Page) => Promise<unknown>): Promise<PageCapture> {
    const page = await browser.newPage();
    try {
      await page.route(`${station.url}/liveness-demo.html`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>liveness</title><body></body>' }));
      await setup?.(page);
      await page.goto(`${station.url}/liveness-demo.html`);
      // A string, not a function: vitest would rewrite a function's import() for Node.
      const script = `(async () => {
        const token = ${JSON.stringify(token)};
        const lib = await import(${JSON.stringify(libraryPath)});
        const payload = await lib.captureLiveness({ baseUrl: location.origin, token });
        const t0 = performance.now();
        const res = await fetch(${JSON.stringify(CHECK)}, { method: 'POST', headers: { authorization: 'Bearer ' + token, 'content-type': 'application/octet-stream' }, body: payload });
        let s = '';
        for (const b of payload) s += String.fromCharCode(b);
        const body = await res.json();
        return { ms: performance.now() - t0, status: res.status, body, payload: btoa(s) };
      })()`;
      return (await page.evaluate(script)) as PageCapture;
    } finally {
      await page.close();
    }
  }

  const post = async (bytes: Buffer) => {
    const t0 = performance.now();
    const res = await fetch(`${station.url}${CHECK}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: new Uint8Array(bytes) });
    return { status: res.status, body: (await res.json()) as any, ms: performance.now() - t0 };
  };

  let genuine: PageCapture;

  it('captures from the fake camera, the station decrypts and scores, and reports the fake camera and the automation', async () => {
    genuine = await captureInPage();
    expect(genuine.status).toBe(200);
    const c = genuine.body.data.capture_liveness;
    console.info(`[e2e advanced liveness] genuine library, fake camera: ${JSON.stringify(genuine.body.data)} (${Buffer.from(genuine.payload, 'base64').length} bytes, POST round trip ${genuine.ms.toFixed(0)} ms)`);
    expect(genuine.body.success).toBe(true);
    expect(c.probability).toBeLessThan(0.5);
    expect(c.rejection).toContain('UNTRUSTED_DEVICE');
    expect(c.rejection).toContain('UNTRUSTED_ENVIRONMENT');
    // The library is the station's own build: no integrity violation, and nothing was corrupted or replayed.
    expect(c.rejection).not.toContain('SDK_INTEGRITY_VIOLATION');
    expect(c.rejection).not.toContain('UNTRUSTED_CORRUPTED_PAYLOAD');
    expect(c.rejection).not.toContain('SUSPICIOUS_ACTIVITY');
  }, 120_000);

  it('the payload opened with the station key holds the environment evidence the rules read', () => {
    const keys = LivenessKeyStore.open(path.join(tmp, 'data', LIVENESS_KEY_FILE));
    const env = parseEnvelope(Buffer.from(genuine.payload, 'base64'));
    const plain = openEnvelope(keys.find(env.keyId)!.privateKey, env)!;
    const { metadata, frames } = unpackPlaintext(plain);
    const m = readMetadata(metadata, frames.length);
    console.info(`[e2e advanced liveness] metadata: camera ${JSON.stringify(m.camera.label)}, ${frames.length} frames, timing ${JSON.stringify(m.timing)}, automation ${JSON.stringify({ ...m.automation, native: undefined })}, webgl ${m.webgl?.renderer}`);
    expect(m.camera.label).toMatch(/\.y4m$/);
    expect(m.automation.webdriver || m.automation.cdp_runtime || m.automation.headless_ua).toBe(true);
    expect(m.frames.filter((f) => f.role === 'challenge').length).toBeGreaterThanOrEqual(8);
    expect(m.frames.find((f) => f.role === 'key')).toMatchObject({ width: 640, height: 480 });
    expect(m.sdk.build_hash).toBe(createHash('sha256').update(library).digest('hex'));
  });

  it('the same payload again is a replay: SUSPICIOUS_ACTIVITY', async () => {
    const res = await post(Buffer.from(genuine.payload, 'base64'));
    expect(res.status).toBe(200);
    expect(res.body.data.capture_liveness.rejection).toEqual(['SUSPICIOUS_ACTIVITY']);
  });

  it('one flipped ciphertext byte: UNTRUSTED_CORRUPTED_PAYLOAD', async () => {
    const bytes = Buffer.from(genuine.payload, 'base64');
    bytes[200] ^= 0x10;
    const res = await post(bytes);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ face_liveness: { probability: 0 }, capture_liveness: { probability: 0.01, score: 0, rejection: ['UNTRUSTED_CORRUPTED_PAYLOAD'] } });
  });

  it('random bytes: 400 Failed to parse file', async () => {
    const res = await post(Buffer.from(Array.from({ length: 10_000 }, () => Math.floor(Math.random() * 256))));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: 'Bad Request', message: 'Failed to parse file', path: CHECK, error_code: 'UNKNOWN' });
  });

  it("a payload sealed for another station's key: 400 Failed to decrypt message", async () => {
    const other = createECDH('prime256v1');
    other.generateKeys();
    const point = other.getPublicKey();
    const kid = createHash('sha256').update(point).digest().subarray(0, 8).toString('hex');
    const cap = await captureInPage(undefined, (page) =>
      page.route(`${station.url}/api/v1/services/liveness/challenge`, async (route) => {
        const real = await route.fetch();
        const body = await real.json();
        await route.fulfill({ response: real, json: { ...body, key: { kid, crv: 'P-256', public_key: point.toString('base64url') } } });
      }),
    );
    expect(cap.status).toBe(400);
    expect(cap.body).toMatchObject({ status: 400, message: 'Failed to decrypt message', error_code: 'UNKNOWN' });
  }, 120_000);

  it('a camera below 640x480 fails in the page with "Resolução da câmera muito baixa"', async () => {
    // A 320x240 grey y4m for a second browser's fake camera.
    const y4m = path.join(tmp, 'small.y4m');
    const frame = Buffer.concat([Buffer.from('FRAME\n'), Buffer.alloc(320 * 240, 120), Buffer.alloc(2 * 160 * 120, 128)]);
    await writeFile(y4m, Buffer.concat([Buffer.from('YUV4MPEG2 W320 H240 F10:1 Ip A1:1 C420jpeg\n'), ...Array.from({ length: 10 }, () => frame)]));
    const small = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${y4m}`],
    });
    try {
      const page = await small.newPage();
      await page.route(`${station.url}/liveness-demo.html`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><body></body>' }));
      await page.goto(`${station.url}/liveness-demo.html`);
      const out = await page.evaluate(`(async () => {
        const lib = await import('/capture/biostation-capture.js');
        try { await lib.captureLiveness({ baseUrl: location.origin, token: ${JSON.stringify(token)} }); return 'resolved'; }
        catch (e) { return e.name + ' ' + e.code + ' ' + e.message; }
      })()`);
      expect(out).toBe('LivenessCaptureError LOW_RESOLUTION Resolução da câmera muito baixa');
    } finally {
      await small.close();
    }
  }, 120_000);

  it('a copy of the library with one changed line: SDK_INTEGRITY_VIOLATION', async () => {
    const lines = library.split('\n');
    const i = lines.findIndex((l) => l.includes('LIBRARY_VERSION = '));
    expect(i).toBeGreaterThanOrEqual(0);
    lines[i] = lines[i].replace(/"1\.0\.0"|'1\.0\.0'/, '"1.0.0-patched"');
    expect(lines.join('\n')).not.toBe(library);
    const cap = await captureInPage('/capture/copy/biostation-capture.js', (page) =>
      page.route(`${station.url}/capture/copy/biostation-capture.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: lines.join('\n') })),
    );
    expect(cap.status).toBe(200);
    expect(cap.body.data.capture_liveness.rejection).toContain('SDK_INTEGRITY_VIOLATION');
  }, 120_000);
});
