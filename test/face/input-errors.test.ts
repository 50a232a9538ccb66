/** Bad input to the face engine: each case throws a FaceError with a stable code. */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, type OnnxFaceEngine } from '../../src/face/index.js';
import { isFaceError } from '../../src/face/errors.js';
import { HAVE_LFW, lfwPath } from './datasets.js';

let engine: OnnxFaceEngine;

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    return isFaceError(e) ? e.code : `NOT_A_FACE_ERROR: ${String(e)}`;
  }
  return undefined;
}

function crc32(buf: Uint8Array): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const t = Buffer.from(type, 'ascii');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([t, data])));
  return Buffer.concat([len, t, data, crc]);
}

/** A PNG whose header claims width x height (8-bit RGB) with a tiny, incomplete IDAT. */
function pngHeaderClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(64))), chunk('IEND', Buffer.alloc(0))]);
}

beforeAll(async () => {
  engine = await createFaceEngine();
});

describe('face engine rejects bad input with stable codes', () => {
  it('not an image -> INVALID_IMAGE', async () => {
    expect(await codeOf(engine.extract(new TextEncoder().encode('definitely not an image, just text bytes'), 'probe'))).toBe('INVALID_IMAGE');
    expect(await codeOf(engine.extract(new Uint8Array(0), 'enroll'))).toBe('INVALID_IMAGE');
  });

  it('a GIF (unsupported format) -> INVALID_IMAGE', async () => {
    const gif = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).gif().toBuffer();
    expect(await codeOf(engine.extract(gif, 'probe'))).toBe('INVALID_IMAGE');
  });

  it('1x1 image -> IMAGE_TOO_SMALL', async () => {
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await codeOf(engine.extract(png, 'probe'))).toBe('IMAGE_TOO_SMALL');
  });

  it('PNG header claiming 20000x20000 -> IMAGE_TOO_LARGE (nothing decoded)', async () => {
    expect(await codeOf(engine.extract(pngHeaderClaiming(20000, 20000), 'enroll'))).toBe('IMAGE_TOO_LARGE');
  });

  it('image without a face -> NO_FACE', async () => {
    const plain = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#7a8c9e' } }).jpeg().toBuffer();
    expect(await codeOf(engine.extract(plain, 'probe'))).toBe('NO_FACE');
    expect(await codeOf(engine.extract(plain, 'enroll'))).toBe('NO_FACE');
  });

  describe.skipIf(!HAVE_LFW)('on real photos', () => {
    it('truncated JPEG -> INVALID_IMAGE', async () => {
      const jpg = readFileSync(lfwPath('Aaron_Sorkin', 1));
      expect(await codeOf(engine.extract(jpg.subarray(0, Math.floor(jpg.length / 2)), 'probe'))).toBe('INVALID_IMAGE');
    });

    it('two faces of similar size -> MULTIPLE_FACES in enroll mode; probe mode uses the dominant one', async () => {
      const a = await sharp(lfwPath('Aaron_Sorkin', 1)).toBuffer();
      const b = await sharp(lfwPath('Aaron_Patterson', 1)).toBuffer();
      const two = await sharp({ create: { width: 500, height: 250, channels: 3, background: '#000' } })
        .composite([{ input: a, left: 0, top: 0 }, { input: b, left: 250, top: 0 }])
        .jpeg({ quality: 92 })
        .toBuffer();
      expect(await codeOf(engine.extract(two, 'enroll'))).toBe('MULTIPLE_FACES');
      const probe = await engine.extract(two, 'probe');
      expect(probe.template.length).toBeGreaterThan(0);
    });

    it('EXIF orientation is honoured (a rotated file tagged orientation 6 gives the same face)', async () => {
      const src = readFileSync(lfwPath('Aaron_Sorkin', 1));
      const upright = await engine.extract(src, 'probe');
      // Store the pixels rotated 90 degrees counter-clockwise and tag them "rotate 90 CW to display".
      const rotated = await sharp(src).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
      const viaExif = await engine.extract(rotated, 'probe');
      expect(engine.similarity(upright.template, viaExif.template)).toBeGreaterThan(engine.defaultThreshold);
    });

    it('WebP and PNG are accepted', async () => {
      const src = readFileSync(lfwPath('Aaron_Sorkin', 1));
      for (const bytes of [await sharp(src).webp().toBuffer(), await sharp(src).png().toBuffer()]) {
        const r = await engine.extract(bytes, 'enroll');
        expect(r.quality.interOcularPx).toBeGreaterThan(20);
      }
    });
  });
});
