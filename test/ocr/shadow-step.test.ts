import { describe, expect, it } from 'vitest';
import { findShadowStep, liftShadowStep } from '../../src/ocr/shadow-step.js';

/** A 400 x 260 frame: dark table (60), a light card (210) with dark text bars, optionally a hard shadow. */
function frame(shadow: null | { from: 'left' | 'top'; a: number; b: number; depth: number }): Uint8Array {
  const w = 400, h = 260, d = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const card = x >= 40 && x < 360 && y >= 40 && y < 220;
    let v = card ? 210 : 60;
    if (card && y % 40 < 3 && x % 50 < 12) v = 40;
    if (shadow) {
      const inside = shadow.from === 'left' ? x < w * (shadow.a + ((shadow.b - shadow.a) * y) / (h - 1)) : y < h * (shadow.a + ((shadow.b - shadow.a) * x) / (w - 1));
      if (inside) v = Math.round(v * (1 - shadow.depth));
    }
    d[y * w + x] = v;
  }
  return d;
}

describe('findShadowStep', () => {
  it('finds a slanted hard shadow from the left and lifts it back', () => {
    const d = frame({ from: 'left', a: 0.3, b: 0.4, depth: 0.45 });
    const st = findShadowStep(d, 400, 260);
    expect(st).not.toBeNull();
    expect(st!.dir).toBe('v');
    expect(st!.darkBefore).toBe(true);
    expect(Math.abs(st!.u - 120)).toBeLessThan(8);
    expect(Math.abs(st!.v - 160)).toBeLessThan(8);
    expect(Math.exp(-st!.lift)).toBeGreaterThan(0.5);
    expect(Math.exp(-st!.lift)).toBeLessThan(0.65);
    liftShadowStep(d, 400, 260, 1, st!, 1);
    // Card paper deep in the shadow reads near its lit level again.
    expect(Math.abs(d[130 * 400 + 60] - 210)).toBeLessThan(30);
    // The lit side is untouched.
    expect(d[130 * 400 + 300]).toBe(210);
  });

  it('finds a shadow from the top', () => {
    const st = findShadowStep(frame({ from: 'top', a: 0.55, b: 0.25, depth: 0.5 }), 400, 260);
    expect(st?.dir).toBe('h');
    expect(st?.darkBefore).toBe(true);
  });

  it('leaves an evenly lit frame and a card edge alone', () => {
    expect(findShadowStep(frame(null), 400, 260)).toBeNull();
  });
});

