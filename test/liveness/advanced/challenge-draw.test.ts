/**
 * The challenge's colour draw (challenge.ts drawColours) never draws a sequence equal to one of its
 * cyclic shifts: for such a sequence the reflection rule (reflection.ts) cannot tell a perfect response
 * from a shifted one, and a live person was answered UNTRUSTED_CONTENT_LOW_CONFIDENCE (1.6 % of draws;
 * found through a flaky test/liveness/advanced/route.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { drawColours, isPeriodic, PALETTE } from '../../../src/liveness/advanced/challenge.js';
import { reflectionResponse, type Raster } from '../../../src/liveness/advanced/reflection.js';

/** A perfect response: one settled 4 x 4 frame per colour, a grey face lit by it. */
function perfect(indices: number[]) {
  const colours = indices.map((k, j) => ({ rgb: PALETTE[k].rgb, shownMs: 400 * j, durationMs: 400 }));
  const frames = colours.map((c) => {
    const data = new Uint8Array(4 * 4 * 3);
    for (let p = 0; p < 16; p++) for (let i = 0; i < 3; i++) data[p * 3 + i] = 100 + Math.round(0.3 * c.rgb[i]);
    const raster: Raster = { width: 4, height: 4, data };
    return { tMs: c.shownMs + 300, raster };
  });
  return reflectionResponse({ colours, frames, face: { x0: 0, y0: 0, x1: 4, y1: 4 } });
}

describe('the challenge\'s colour draw', () => {
  it('tells periodic sequences', () => {
    expect(isPeriodic([0, 1, 0, 1])).toBe(true);
    expect(isPeriodic([0, 1, 2, 0, 1, 2])).toBe(true);
    expect(isPeriodic([0, 1, 0, 1, 0, 1])).toBe(true);
    expect(isPeriodic([0, 1, 2, 3])).toBe(false);
    expect(isPeriodic([0, 1, 0, 2])).toBe(false);
    expect(isPeriodic([0, 1, 2, 0, 1])).toBe(false);
  });

  it('a perfect response to a periodic sequence ties a shift of it (weak), to another it follows', () => {
    expect(perfect([0, 1, 0, 1]).verdict).toBe('weak');
    expect(perfect([0, 1, 0, 2]).verdict).toBe('follows');
  });

  it('never draws a periodic sequence; 4-6 colours, none twice in a row; a perfect response always follows', () => {
    for (let i = 0; i < 3000; i++) {
      const c = drawColours();
      const indices = c.map((x) => x.index);
      expect(c.length).toBeGreaterThanOrEqual(4);
      expect(c.length).toBeLessThanOrEqual(6);
      expect(indices.every((k, j) => j === 0 || k !== indices[j - 1])).toBe(true);
      expect(isPeriodic(indices)).toBe(false);
      if (i < 300) expect(perfect(indices).verdict).toBe('follows');
    }
  });
});
