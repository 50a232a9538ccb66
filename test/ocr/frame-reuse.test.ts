/**
 * The speed pass of the tenth round: the card found in a frame kept for the document's next
 * preparations (frame.ts FrameCache), glyph-i.ts's blobs on ink-lines.ts's one component labelling,
 * and shadow-step.ts's slant rule for steps parallel to the frame.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { FrameCache, frames } from '../../src/ocr/frame.js';
import { blobs } from '../../src/ocr/glyph-i.js';
import { inkComponents } from '../../src/ocr/ink-lines.js';
import { prepareImage, type PreparedImage } from '../../src/ocr/preprocess.js';
import { findShadowStep, parallelToFrame } from '../../src/ocr/shadow-step.js';
import { generateCnh } from '../fixtures/cnh/index.js';

const digest = (p: PreparedImage): string => createHash('sha1').update(p.png).digest('hex') + JSON.stringify({ ...p, png: undefined });

describe('frames kept between a document\'s preparations (frame.ts)', () => {
  it('prepares a document again from its kept card, pixel for pixel as from the bytes', async () => {
    const doc = await generateCnh(111, { model: 'old', frontOnly: true, perspective: true });
    const other = await generateCnh(106, { model: '2022', frontOnly: true, degraded: { rotateDeg: 8, photo: true, jpegQuality: 85, cardWidthPx: 1280 } });
    frames.clear();
    const before = frames.searches;
    const first = await prepareImage(doc.bytes);
    const again = await prepareImage(doc.bytes, { localContrast: true, clip: 0.8 });
    const turned = await prepareImage(doc.bytes, { extraTurnDeg: 180 });
    // Two searches: the frame at 0 and at 180 degrees; the second tone setting reused the first card.
    expect(frames.searches - before).toBe(2);
    expect(first.perspective).toBeDefined();
    // The same as prepared from scratch (the cache emptied before each).
    frames.clear();
    expect(digest(await prepareImage(doc.bytes, { localContrast: true, clip: 0.8 }))).toBe(digest(again));
    frames.clear();
    expect(digest(await prepareImage(doc.bytes, { extraTurnDeg: 180 }))).toBe(digest(turned));
    // Another frame is searched anew, and its card is its own.
    const searched = frames.searches;
    const second = await prepareImage(other.bytes);
    expect(frames.searches).toBe(searched + 1);
    expect(digest(second)).not.toBe(digest(first));
    frames.clear();
  }, 60_000);

  it('keys the card on the bytes, the turn and the pixel limit, and forgets a failed search', async () => {
    const cache = new FrameCache();
    const doc = await generateCnh(106, { model: '2022', frontOnly: true });
    const a = await cache.card(doc.bytes, 0);
    expect(await cache.card(Uint8Array.from(doc.bytes), 0)).toBe(a);
    expect(cache.searches).toBe(1);
    await cache.card(doc.bytes, 0, 50_000_000);
    expect(cache.searches).toBe(2);
    const junk = Uint8Array.from([1, 2, 3, 4]);
    await expect(cache.card(junk, 0)).rejects.toThrow();
    await expect(cache.card(junk, 0)).rejects.toThrow();
    expect(cache.searches).toBe(4);
    cache.clear();
  }, 60_000);
});

/** The connected blobs of a box by a plain flood fill (glyph-i.ts's own before it used inkComponents). */
function floodBlobs(g: { data: Uint8Array; width: number; height: number }, x0: number, y0: number, x1: number, y1: number, t: number): Array<{ x0: number; y0: number; x1: number; y1: number; px: number[] }> {
  const seen = new Set<number>();
  const out: Array<{ x0: number; y0: number; x1: number; y1: number; px: number[] }> = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
    const i = y * g.width + x;
    if (seen.has(i) || g.data[i] > t) continue;
    const b = { x0: x, y0: y, x1: x, y1: y, px: [] as number[] };
    const stack = [i];
    seen.add(i);
    while (stack.length) {
      const q = stack.pop()!;
      const qx = q % g.width, qy = Math.floor(q / g.width);
      b.px.push(q);
      b.x0 = Math.min(b.x0, qx); b.x1 = Math.max(b.x1, qx); b.y0 = Math.min(b.y0, qy); b.y1 = Math.max(b.y1, qy);
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const nx = qx + dx, ny = qy + dy, n = ny * g.width + nx;
        if (nx < x0 || nx > x1 || ny < y0 || ny > y1 || seen.has(n) || g.data[n] > t) continue;
        seen.add(n);
        stack.push(n);
      }
    }
    out.push(b);
  }
  return out;
}

describe('one labelling of ink components (ink-lines.ts inkComponents, glyph-i.ts blobs)', () => {
  it('finds the same blobs, boxes and pixels as a flood fill, in the same order, on random ink in a box', () => {
    let seed = 7;
    const rand = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    for (let k = 0; k < 20; k++) {
      const width = 40 + Math.floor(rand() * 30), height = 30 + Math.floor(rand() * 20);
      const data = new Uint8Array(width * height);
      const density = 0.2 + 0.4 * rand();
      for (let i = 0; i < data.length; i++) data[i] = rand() < density ? Math.floor(rand() * 120) : 130 + Math.floor(rand() * 125);
      const g = { data, width, height };
      const x0 = Math.floor(rand() * 10), y0 = Math.floor(rand() * 8), x1 = width - 1 - Math.floor(rand() * 10), y1 = height - 1 - Math.floor(rand() * 8);
      const t = 60 + rand() * 100;
      const got = blobs(g, x0, y0, x1, y1, t);
      const want = floodBlobs(g, x0, y0, x1, y1, t);
      expect(got.map((b) => [b.x0, b.y0, b.x1, b.y1])).toEqual(want.map((b) => [b.x0, b.y0, b.x1, b.y1]));
      expect(got.map((b) => [...b.px].sort((p, q) => p - q))).toEqual(want.map((b) => [...b.px].sort((p, q) => p - q)));
    }
  });

  it('labels the whole page without pixels unless asked, with boxes in page px', () => {
    const width = 20, height = 10, data = new Uint8Array(width * height).fill(255);
    for (const [x, y] of [[2, 2], [3, 3], [15, 7], [16, 7]]) data[y * width + x] = 0;
    const all = inkComponents({ data, width, height });
    expect(all).toEqual([{ x0: 2, y0: 2, x1: 3, y1: 3 }, { x0: 15, y0: 7, x1: 16, y1: 7 }]);
    expect(inkComponents({ data, width, height }, 128, { x0: 10, y0: 5, x1: 19, y1: 9 }, true)).toEqual([{ x0: 15, y0: 7, x1: 16, y1: 7, px: [7 * width + 15, 7 * width + 16] }]);
  });
});

describe('a step parallel to the frame is the frame\'s own (shadow-step.ts)', () => {
  /** A 400 x 260 frame: a dark table, a light card, and a step darkening everything left of the line from (a, 0) to (b, 259). */
  function stepped(a: number, b: number): Uint8Array {
    const w = 400, h = 260, d = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const card = x >= 40 && x < 360 && y >= 40 && y < 220;
      let v = card ? 210 : 60;
      if (x < a + ((b - a) * y) / (h - 1)) v = Math.round(v * 0.55);
      d[y * w + x] = v;
    }
    return d;
  }

  it('leaves a pixel-aligned step (a screenshot\'s bar) and finds the same step cast at an angle', () => {
    expect(findShadowStep(stepped(150, 150), 400, 260)).toBeNull();
    expect(findShadowStep(stepped(151, 151), 400, 260)).toBeNull();
    const cast = findShadowStep(stepped(150, 170), 400, 260);
    expect(cast?.dir).toBe('v');
    expect(cast?.darkBefore).toBe(true);
    expect(Math.abs(cast!.u - 150)).toBeLessThan(4);
    expect(Math.abs(cast!.v - 170)).toBeLessThan(4);
  });

  it('calls a line parallel when its ends lie in the same column at the search\'s resolution', () => {
    expect(parallelToFrame(72, 72)).toBe(true);
    expect(parallelToFrame(72, 73)).toBe(false);
    expect(parallelToFrame(88, 84)).toBe(false);
  });
});
