import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { applyH, findCardQuad, homography, needsPerspective, quadShape, rectifiedSize, warpPerspective, type Quad } from '../../src/ocr/perspective.js';
import { otsu, prepareImage } from '../../src/ocr/preprocess.js';
import { generateCnh } from '../fixtures/cnh/index.js';

const rect = (w: number, h: number): Quad => [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }];

describe('perspective', () => {
  it('solves the homography through four point pairs', () => {
    const to: Quad = [{ x: 12, y: 7 }, { x: 300, y: 20 }, { x: 310, y: 190 }, { x: 5, y: 170 }];
    const h = homography(rect(320, 200), to);
    for (const [i, p] of rect(320, 200).entries()) {
      const q = applyH(h, p);
      expect(q.x).toBeCloseTo(to[i].x, 6);
      expect(q.y).toBeCloseTo(to[i].y, 6);
    }
  });

  it('tells rectangles (also rotated) from trapezoids', () => {
    const c = Math.cos(0.1), s = Math.sin(0.1);
    const rotated = rect(856, 540).map((p) => ({ x: p.x * c - p.y * s, y: p.x * s + p.y * c })) as Quad;
    expect(needsPerspective(rotated)).toBe(false);
    expect(quadShape(rotated).angleDev).toBeLessThan(1e-9);
    expect(needsPerspective([{ x: 30, y: 0 }, { x: 826, y: 0 }, { x: 856, y: 540 }, { x: 0, y: 540 }])).toBe(true);
    expect(rectifiedSize([{ x: 30, y: 0 }, { x: 826, y: 0 }, { x: 856, y: 540 }, { x: 0, y: 540 }])).toEqual({ w: 856, h: 540 });
  });

  it('finds the corners of a warped light card on a dark background and warps it back', async () => {
    const w = 400, h = 252;
    const card = new Uint8Array(w * h).fill(220);
    const corners: Quad = [{ x: 60, y: 50 }, { x: 420, y: 70 }, { x: 430, y: 300 }, { x: 40, y: 280 }];
    const g = { data: warpPerspective(card, w, h, 1, homography(corners, rect(w, h)), 480, 360, [60]), w: 480, h: 360 };
    const quad = findCardQuad(g, otsu(g.data), 2);
    expect(quad).not.toBeNull();
    for (const [i, p] of quad!.entries()) {
      expect(Math.abs(p.x - corners[i].x)).toBeLessThan(0.25);
      expect(Math.abs(p.y - corners[i].y)).toBeLessThan(0.25);
    }
    expect(needsPerspective(quad!)).toBe(true);
  });

  it('leaves a rotated (rectangular) photo to the rotation path', async () => {
    const doc = await generateCnh(106, { model: '2022', frontOnly: true, degraded: { rotateDeg: 8, photo: true, jpegQuality: 85, cardWidthPx: 1280 } });
    expect((await prepareImage(doc.bytes)).perspective).toBeUndefined();
    const tilted = await generateCnh(111, { model: 'old', frontOnly: true, perspective: true });
    const prepared = await prepareImage(tilted.bytes);
    expect(prepared.perspective).toBeDefined();
    const meta = await sharp(prepared.png).metadata();
    expect(meta.width! / meta.height!).toBeCloseTo(85.6 / 54, 1);
  });

  it('samples one channel (its own loop) exactly as the interleaved path samples each channel', () => {
    const w = 97, h = 61;
    const gray = new Uint8Array(w * h).map((_, i) => (i * 2654435761) >>> 24);
    const two = new Uint8Array(2 * w * h);
    gray.forEach((v, i) => { two[2 * i] = v; two[2 * i + 1] = 255 - v; });
    // A tilted quad reaching past the source's edges, so border pixels blend with the fill too.
    const H = homography(rect(120, 80), [{ x: -6, y: 3 }, { x: 99, y: -4 }, { x: 92, y: 66 }, { x: 2, y: 58 }]);
    const one = warpPerspective(gray, w, h, 1, H, 120, 80, [40]);
    const both = warpPerspective(two, w, h, 2, H, 120, 80, [40, 215]);
    expect(one.filter((v) => v === 40).length).toBeGreaterThan(100);
    expect(Array.from(one)).toEqual(Array.from(both.filter((_, i) => i % 2 === 0)));
  });
});
