import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FingerEngine } from '../../src/finger/engine.js';
import { createFingerEngine } from '../../src/finger/index.js';
import { FingerError } from '../../src/finger/errors.js';
import { datasetsRoot, fvcDir, hasFvc } from './datasets.js';

let engine: FingerEngine;
beforeAll(async () => {
  engine = await createFingerEngine();
});

async function codeOf(action: () => unknown): Promise<string> {
  try {
    await action();
  } catch (e) {
    expect(e).toBeInstanceOf(FingerError);
    const error = e as FingerError;
    expect(error.code).not.toBe('ENGINE_UNAVAILABLE'); // an input error, never the engine's own failure
    return error.code;
  }
  throw new Error('expected a FingerError');
}

const validIso = (() => {
  // header + one view with two minutiae, no extended data
  const b = Buffer.alloc(24 + 4 + 12 + 2);
  b.write('FMR\0 20\0', 0, 'latin1');
  b.writeUInt32BE(b.length, 8);
  b.writeUInt16BE(400, 14);
  b.writeUInt16BE(500, 16);
  b.writeUInt16BE(197, 18);
  b.writeUInt16BE(197, 20);
  b[22] = 1;
  b[27] = 2;
  b.writeUInt16BE(0x4000 | 100, 28);
  b.writeUInt16BE(120, 30);
  b.writeUInt16BE(0x8000 | 200, 34);
  b.writeUInt16BE(220, 36);
  return new Uint8Array(b);
})();

describe('bad templates give INVALID_TEMPLATE', () => {
  it('accepts the well-formed record used below', () => {
    expect(engine.similarityOfInterchange(validIso, validIso)).toBeGreaterThanOrEqual(0);
  });
  it('truncated record', async () => {
    for (const n of [0, 5, 11, 20, 30, validIso.length - 1]) {
      expect(await codeOf(() => engine.similarityOfInterchange(validIso.slice(0, n), validIso))).toBe('INVALID_TEMPLATE');
    }
  });
  it('wrong magic or version', async () => {
    const wrong = validIso.slice();
    wrong[0] = 0x58;
    expect(await codeOf(() => engine.similarity(wrong, validIso))).toBe('INVALID_TEMPLATE');
    const version = validIso.slice();
    version[5] = 0x39;
    expect(await codeOf(() => engine.similarity(validIso, version))).toBe('INVALID_TEMPLATE');
  });
  it('minutia count larger than the record', async () => {
    const lying = validIso.slice();
    lying[27] = 200;
    expect(await codeOf(() => engine.similarity(lying, validIso))).toBe('INVALID_TEMPLATE');
  });
  it('declared length larger than the data', async () => {
    const lying = validIso.slice();
    new DataView(lying.buffer).setUint32(8, 5000);
    expect(await codeOf(() => engine.similarity(lying, validIso))).toBe('INVALID_TEMPLATE');
  });
  it('random bytes', async () => {
    const junk = new Uint8Array(300).map((_, i) => (i * 7919) & 255);
    expect(await codeOf(() => engine.similarity(junk, validIso))).toBe('INVALID_TEMPLATE');
    expect(await codeOf(() => engine.createGallery().upsert('x', [junk]))).toBe('INVALID_TEMPLATE');
  });
});

describe('bad images', () => {
  it('zero-size image is INVALID_IMAGE', async () => {
    expect(await codeOf(() => engine.extract(new Uint8Array(0)))).toBe('INVALID_IMAGE');
  });
  it('non-image bytes are INVALID_IMAGE', async () => {
    expect(await codeOf(() => engine.extract(new TextEncoder().encode('this is not an image at all')))).toBe('INVALID_IMAGE');
    const truncatedPng = new Uint8Array(await sharp({ create: { width: 300, height: 300, channels: 3, background: '#808080' } }).png().toBuffer()).slice(0, 40);
    expect(await codeOf(() => engine.extract(truncatedPng))).toBe('INVALID_IMAGE');
  });
  it('tiny image is IMAGE_TOO_SMALL', async () => {
    const tiny = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#888' } }).png().toBuffer();
    expect(await codeOf(() => engine.extract(tiny))).toBe('IMAGE_TOO_SMALL');
  });
  it('blank image is NO_FINGERPRINT', async () => {
    const blank = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect(await codeOf(() => engine.extract(blank))).toBe('NO_FINGERPRINT');
  });
  it('uniform noise is NO_FINGERPRINT', async () => {
    let seed = 12345;
    const noise = Buffer.alloc(400 * 400);
    for (let i = 0; i < noise.length; i++) noise[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    const png = await sharp(noise, { raw: { width: 400, height: 400, channels: 1 } }).png().toBuffer();
    expect(await codeOf(() => engine.extract(png))).toBe('NO_FINGERPRINT');
  });
  it.skipIf(!hasFvc)('a face photo is NO_FINGERPRINT', async () => {
    const face = readFileSync(path.join(datasetsRoot, 'faces-misc', 'spoof-samples', 'image_T1.jpg'));
    expect(await codeOf(() => engine.extract(face))).toBe('NO_FINGERPRINT');
  });
  it.skipIf(!hasFvc)('BMP and JPEG encodings of a fingerprint are read', async () => {
    const png = readFileSync(path.join(fvcDir('fvc2002/DB1_B'), '101_1.png'));
    const raw = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const { width, height } = raw.info;
    const stride = Math.ceil(width / 4) * 4;
    const bmp = Buffer.alloc(54 + 1024 + stride * height);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(bmp.length, 2);
    bmp.writeUInt32LE(54 + 1024, 10);
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(width, 18);
    bmp.writeInt32LE(height, 22);
    bmp.writeUInt16LE(1, 26);
    bmp.writeUInt16LE(8, 28);
    for (let i = 0; i < 256; i++) bmp.fill(i, 54 + i * 4, 54 + i * 4 + 3);
    for (let y = 0; y < height; y++) raw.data.copy(bmp, 54 + 1024 + (height - 1 - y) * stride, y * width, (y + 1) * width);
    const fromPng = await engine.extract(png);
    const fromBmp = await engine.extract(bmp);
    expect(Buffer.from(fromBmp.template).equals(Buffer.from(fromPng.template))).toBe(true);
    const jpeg = await sharp(png).jpeg({ quality: 95 }).toBuffer();
    const fromJpeg = await engine.extract(jpeg);
    expect(engine.similarity(fromJpeg.template, fromPng.template)).toBeGreaterThan(engine.defaultThreshold);
    expect(fromPng.quality).toBeGreaterThan(0);
    expect(fromPng.quality).toBeLessThanOrEqual(100);
  });
});
