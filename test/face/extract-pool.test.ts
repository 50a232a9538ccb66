/**
 * Face extraction on worker threads (extract-pool.ts): same templates as the in-process engine,
 * input errors keep their codes and details, requests run in parallel, a dead worker fails only its
 * own request and is replaced, a closed pool refuses work.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, createPooledFaceEngine, FaceExtractorPool, type OnnxFaceEngine, type PooledFaceEngine } from '../../src/face/index.js';
import { FaceError, isFaceError } from '../../src/face/errors.js';
import { BBT_DIR, HAVE_BBT, HAVE_LFW, lfwPath } from './datasets.js';

const PEOPLE: Array<[string, number]> = [
  ['Aaron_Sorkin', 1],
  ['Tony_Blair', 32],
  ['Abel_Pacheco', 1],
  ['George_HW_Bush', 6],
  ['Colin_Farrell', 2],
  ['Colin_Campbell', 1],
];

async function failure(p: Promise<unknown>): Promise<FaceError> {
  try {
    await p;
  } catch (e) {
    if (isFaceError(e)) return e;
    throw new Error(`not a FaceError: ${String(e)}`);
  }
  throw new Error('expected a failure');
}

describe.skipIf(!HAVE_LFW)('pooled face engine (worker threads)', () => {
  let pooled: PooledFaceEngine;
  let local: OnnxFaceEngine;
  let images: Uint8Array[];

  beforeAll(async () => {
    [pooled, local] = await Promise.all([createPooledFaceEngine(2), createFaceEngine({ intraOpNumThreads: 1 })]);
    images = PEOPLE.map(([name, i]) => readFileSync(lfwPath(name, i)));
  }, 120_000);

  afterAll(async () => {
    await pooled?.close();
  });

  it('gives byte-identical templates, quality and scores to the in-process engine', async () => {
    expect(pooled.modelId).toBe(local.modelId);
    expect(pooled.defaultThreshold).toBe(local.defaultThreshold);
    expect(pooled.identifyThreshold).toBe(local.identifyThreshold);
    const a = await Promise.all(images.map((img) => pooled.extract(img, 'probe')));
    for (let i = 0; i < images.length; i++) {
      const b = await local.extract(images[i], 'probe');
      expect(Buffer.from(a[i].template).equals(Buffer.from(b.template))).toBe(true);
      expect(a[i].quality).toEqual(b.quality);
      expect(a[i].box).toEqual(b.box);
    }
    expect(pooled.similarity(a[0].template, a[1].template)).toBe(local.similarity(a[0].template, a[1].template));
    const gallery = pooled.createGallery();
    gallery.upsert('p1', [a[1].template]);
    expect(gallery.search(a[1].template, 1)[0]).toEqual({ extId: 'p1', score: local.similarity(a[1].template, a[1].template) });
  }, 120_000);

  it('serves many concurrent requests, each with its own answer', async () => {
    const expected = await Promise.all(images.map((img) => pooled.extract(img, 'probe')));
    const order = Array.from({ length: 24 }, (_, k) => (k * 5) % images.length);
    const got = await Promise.all(order.map((i) => pooled.extract(images[i], 'probe')));
    got.forEach((r, k) => expect(Buffer.from(r.template).equals(Buffer.from(expected[order[k]].template))).toBe(true));
  }, 120_000);

  it('keeps input error codes and details across the thread boundary', async () => {
    expect((await failure(pooled.extract(new TextEncoder().encode('not an image at all'), 'probe'))).code).toBe('INVALID_IMAGE');
    const blank = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#777' } }).jpeg().toBuffer();
    expect((await failure(pooled.extract(blank, 'probe'))).code).toBe('NO_FACE');
    const tiny = await sharp(images[0]).resize(60, 60).jpeg().toBuffer();
    const low = await failure(pooled.extract(tiny, 'enroll'));
    expect(low.code).toBe('FACE_QUALITY_TOO_LOW');
    expect(low.details?.failures).toEqual(expect.arrayContaining([expect.any(String)]));
  }, 60_000);

  it.skipIf(!HAVE_BBT)('reports several faces in enroll mode with their count', async () => {
    const group = readFileSync(path.join(BBT_DIR, 'bbt1.jpg'));
    const e = await failure(pooled.extract(group, 'enroll'));
    expect(e.code).toBe('MULTIPLE_FACES');
    expect(e.details?.faces).toBeGreaterThan(1);
  }, 60_000);

  it('replaces a worker that dies; only the request it held can fail', async () => {
    const inFlight = pooled.extract(images[0], 'probe').then(
      (r) => r.template,
      (e: unknown) => e,
    );
    await pooled.pool.crashOne();
    const outcome = await inFlight;
    if (outcome instanceof Uint8Array) expect(outcome.length).toBeGreaterThan(0);
    else expect((outcome as FaceError).code).toBe('ENGINE_UNAVAILABLE');
    // The other worker keeps serving while the replacement loads; then the pool is whole again.
    const after = await Promise.all(images.slice(0, 4).map((img) => pooled.extract(img, 'probe')));
    expect(after).toHaveLength(4);
    for (let i = 0; i < 100 && pooled.pool.size < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(pooled.pool.size).toBe(2);
  }, 120_000);
});

describe('face extractor pool lifecycle', () => {
  it('a worker that cannot load the models fails the start with ENGINE_UNAVAILABLE', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'face-pool-'));
    const file = path.join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    const e = await failure(FaceExtractorPool.start(1, { modelsDir: file }));
    expect(e.code).toBe('ENGINE_UNAVAILABLE');
  }, 60_000);

  it.skipIf(!HAVE_LFW)('close() lets a running request finish instead of killing its thread mid-inference', async () => {
    const pool = await FaceExtractorPool.start(1);
    const running = pool.extract(readFileSync(lfwPath('Aaron_Sorkin', 1)), 'probe');
    await new Promise((r) => setTimeout(r, 5));
    await pool.close();
    expect((await running).template.length).toBeGreaterThan(0);
  }, 60_000);

  it.skipIf(!HAVE_LFW)('a closed pool refuses work with ENGINE_UNAVAILABLE', async () => {
    const pool = await FaceExtractorPool.start(1);
    expect(pool.size).toBe(1);
    await pool.close();
    expect(pool.size).toBe(0);
    expect((await failure(pool.extract(readFileSync(lfwPath('Aaron_Sorkin', 1)), 'probe'))).code).toBe('ENGINE_UNAVAILABLE');
  }, 60_000);
});
