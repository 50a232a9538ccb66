import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Gray } from '../../src/ocr/frame.js';
import { findCard } from '../../src/ocr/frame.js';
import { pointsBox, pointsInBox, TYPE_BOX_PAD, turnedMarks, typeMarks, typeTurn, unionBox } from '../../src/ocr/card-type.js';
import { generateWidened } from '../fixtures/cnh/widened.js';
import { turnedCard } from './turned-card.js';

/** `g` with a dark thin bar (3 px, level 120) drawn through (x0, y0) at `deg` degrees clockwise, across the whole copy: a window's frame bar. */
function withBar(g: Gray, x0: number, y0: number, deg: number): Gray {
  const data = Uint8Array.from(g.data), r = (deg * Math.PI) / 180;
  for (let k = -2 * g.w; k <= 2 * g.w; k += 0.5) for (let d = -1; d <= 1; d++) {
    const x = Math.round(x0 + k * Math.cos(r) - d * Math.sin(r)), y = Math.round(y0 + k * Math.sin(r) + d * Math.cos(r));
    if (x >= 0 && y >= 0 && x < g.w && y < g.h) data[y * g.w + x] = 120;
  }
  return { ...g, data };
}

describe('the card\'s type as a mask (card-type.ts typeMarks)', () => {
  it('marks the strokes of type, not a large dark region beside it nor a smooth shade', async () => {
    const g = await turnedCard(0);
    const data = Uint8Array.from(g.data);
    // A dark desk over the right fifth, and a soft shade over the left fifth.
    for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) {
      if (x >= Math.round(0.8 * g.w)) data[y * g.w + x] = 40;
      else if (x < Math.round(0.2 * g.w)) data[y * g.w + x] = Math.min(data[y * g.w + x], 235 - Math.round((x / (0.2 * g.w)) * 60));
    }
    const m = typeMarks({ ...g, data });
    expect(m.count).toBeGreaterThan(500);
    let onDesk = 0, onType = 0;
    for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) {
      if (!m.mask[y * g.w + x]) continue;
      if (x >= Math.round(0.8 * g.w) + 4) onDesk++;
      if (g.data[y * g.w + x] < 150) onType++;
    }
    expect(onDesk).toBe(0);
    // Nearly every mark is on the type's ink.
    expect(onType / m.count).toBeGreaterThan(0.6);
  });
});

describe('a turn by the bright region checked against the type (card-type.ts typeTurn)', () => {
  it('leaves a turn of 14 degrees when the type runs along the frame\'s rows, bars of a window across it or not', async () => {
    const g = await turnedCard(0);
    expect(typeTurn(typeMarks(g), 14)).toBe(0);
    expect(typeTurn(typeMarks(g), -9)).toBe(0);
    // final24 #35: a window's bars reflected at 18 and -72 degrees, the bright region's axis at 14.
    const barred = withBar(withBar(g, g.w / 2, g.h / 3, 18), (2 * g.w) / 3, g.h / 2, -72);
    expect(typeTurn(typeMarks(barred), 14)).toBe(0);
  });

  it('takes the axis when the type runs along it, and any axis within 3 degrees', async () => {
    for (const deg of [-20, 5, 8]) {
      const g = await turnedCard(deg);
      expect(typeTurn(typeMarks(g), deg)).toBe(deg);
    }
    const g = await turnedCard(0);
    expect(typeTurn(typeMarks(g), 2.5)).toBe(2.5);
  });
});

describe('a crop checked against the type (card-type.ts turnedMarks, pointsInBox, pointsBox)', () => {
  it('carries marks into a turned copy, counts those a box keeps and boxes them with a margin', async () => {
    const g = await turnedCard(0);
    const m = typeMarks(g);
    const same = turnedMarks(m, 0, { w: g.w, h: g.h, scale: 1 }, { w: g.w, h: g.h, scale: 1 });
    expect(same.length).toBe(2 * m.count);
    expect(pointsInBox(same, { left: 0, top: 0, width: g.w, height: g.h })).toBe(1);
    // A box over the top half of the type keeps about half of it: under TYPE_KEEP.
    expect(pointsInBox(same, { left: 0, top: 0, width: g.w, height: Math.round(g.h / 2) })).toBeLessThan(0.75);
    const box = pointsBox(same, g.w, g.h)!;
    let x0 = Infinity, x1 = -Infinity;
    for (let i = 0; i < same.length; i += 2) { x0 = Math.min(x0, same[i]); x1 = Math.max(x1, same[i]); }
    // Widened beyond the type on both sides, inside the copy.
    expect(box.left).toBeLessThan(x0);
    expect(box.left + box.width).toBeGreaterThan(x1 + 1);
    expect(box.left + box.width).toBeLessThanOrEqual(g.w);
    expect(pointsInBox(same, box)).toBeGreaterThan(0.98);
    expect(TYPE_BOX_PAD).toBeGreaterThan(0);
    expect(unionBox({ left: 10, top: 20, width: 100, height: 30 }, { left: 5, top: 40, width: 50, height: 60 })).toEqual({ left: 5, top: 20, width: 105, height: 80 });
    // Half a turn carries every mark to the point opposite the centre.
    const half = turnedMarks(m, 180, { w: g.w, h: g.h, scale: 1 }, { w: g.w, h: g.h, scale: 1 });
    expect(half[0]).toBeCloseTo(g.w - same[0], 6);
    expect(half[1]).toBeCloseTo(g.h - same[1], 6);
  });

  it('final24 #35: a window\'s reflection no longer turns the card by 11 degrees nor cuts its front off', async () => {
    const doc = await generateWidened('final24', 35);
    const meta = await sharp(doc.bytes).metadata();
    const found = await findCard(doc.bytes);
    // The card lies within 3 degrees of the frame's rows (the start turned it by -11.2 and kept its back alone, 1489 px wide).
    expect(Math.abs(found.turned)).toBeLessThan(3);
    expect(found.rgb.width).toBeGreaterThan(0.8 * meta.width!);
  }, 120_000);

  it('final20 #11: a card half in shadow is cropped whole, not to its lit upper part', async () => {
    const doc = await generateWidened('final20', 11);
    const found = await findCard(doc.bytes);
    // The lit part's box alone was 2.9 times as wide as tall (the shadowed lower third cut off); the card is 1.59.
    expect(found.rgb.width / found.rgb.height).toBeGreaterThan(1.4);
    expect(found.rgb.width / found.rgb.height).toBeLessThan(1.8);
  }, 120_000);
});
