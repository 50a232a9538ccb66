import { describe, expect, it } from 'vitest';
import { deinterlace, fieldOffset, joinFields } from '../../src/ocr/interlace.js';
import { drawn } from './drawn-word.js';
import type { Gray } from '../../src/ocr/glyph-i.js';

/** Three lines of type stacked into one page (a card's value lines), 1 band. */
async function page(): Promise<Gray> {
  const lines = await Promise.all(['055.912.480-55', '04/06/2027 MATULEVIČIUS', 'CATEGORIA AB 17068958100'].map((t) => drawn(t, 'DejaVu Sans', 30)));
  const width = Math.max(...lines.map((l) => l.g.width)), height = lines.reduce((s, l) => s + l.g.height, 0);
  const data = new Uint8Array(width * height).fill(255);
  let y0 = 0;
  for (const { g } of lines) {
    for (let y = 0; y < g.height; y++) data.set(g.data.subarray(y * g.width, (y + 1) * g.width), (y0 + y) * width);
    y0 += g.height;
  }
  return { data, width, height };
}

/** The odd rows moved `shift` px sideways and scaled by `gain` (as a video source's later field). */
function combed(g: Gray, shift: number, gain: number): Uint8Array {
  const out = Uint8Array.from(g.data);
  for (let y = 1; y < g.height; y += 2) for (let x = 0; x < g.width; x++) {
    out[y * g.width + x] = Math.min(255, Math.round(g.data[y * g.width + Math.min(g.width - 1, Math.max(0, x - shift))] * gain));
  }
  return out;
}

const meanDiff = (a: Uint8Array, b: Uint8Array): number => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;

describe('interlaced frames (interlace.ts)', () => {
  it('finds no comb in a progressive page of type', async () => {
    const g = await page();
    expect(fieldOffset(g.data, g.width, g.height, 1)).toBeNull();
  });

  it('finds the later field\'s sideways shift and brightness, and joins the fields again', async () => {
    const g = await page();
    for (const shift of [-3, -1, 2]) {
      const c = combed(g, shift, 0.97);
      const o = fieldOffset(c, g.width, g.height, 1);
      expect(o?.shift).toBe(shift);
      expect(o!.gain).toBeGreaterThan(0.95);
      expect(o!.gain).toBeLessThan(0.99);
      const before = meanDiff(c, g.data);
      joinFields(c, g.width, g.height, 1, o!);
      // Edge pixels aside, the page is the progressive one again.
      expect(meanDiff(c, g.data)).toBeLessThan(before / 4);
    }
  });

  it('reads one band of interleaved ones and moves every band', async () => {
    const g = await page();
    const c = combed(g, 2, 1.03);
    const rgb = new Uint8Array(c.length * 3);
    for (let i = 0; i < c.length; i++) { rgb[3 * i] = c[i]; rgb[3 * i + 1] = c[i]; rgb[3 * i + 2] = 255 - c[i]; }
    const o = deinterlace(rgb, g.width, g.height, 3, 1);
    expect(o?.shift).toBe(2);
    const green = rgb.filter((_, i) => i % 3 === 1);
    expect(meanDiff(green, g.data)).toBeLessThan(meanDiff(c, g.data) / 4);
    expect(deinterlace(Uint8Array.from(g.data), g.width, g.height, 1)).toBeNull();
  });
});
