/** Choice of the dominant face (src/face/dominance.ts) and multi-pass merging (detector.ts). */
import { describe, expect, it } from 'vitest';
import { mergePasses, type Detection } from '../../src/face/detect/detector.js';
import { byDominance, dominance, isFramedPortrait, visibleArea } from '../../src/face/detect/dominance.js';

const det = (x: number, y: number, w: number, score = 0.9, support?: number): Detection => ({ box: { x, y, width: w, height: w }, score, support });

describe('dominant face', () => {
  it('counts only the part of a box inside the image', () => {
    expect(visibleArea({ x: -50, y: 0, width: 100, height: 100 }, 250, 250)).toBe(5000);
    expect(visibleArea({ x: 300, y: 0, width: 100, height: 100 }, 250, 250)).toBe(0);
  });

  it('prefers a centred face to a larger neighbour cut by the border (LFW framing)', () => {
    const centred = det(75, 75, 100);
    const neighbour = det(-20, 60, 120);
    expect(byDominance([neighbour, centred], 250, 250)[0]).toBe(centred);
  });

  it('still prefers a much larger face when both are whole', () => {
    const small = det(110, 110, 30);
    const large = det(20, 40, 140);
    expect(byDominance([small, large], 250, 250)[0]).toBe(large);
  });

  it('halves unconfident detections and multiplies by the passes that saw a face', () => {
    expect(dominance(det(75, 75, 100, 0.4), 250, 250)).toBeCloseTo(dominance(det(75, 75, 100, 0.9), 250, 250) / 2, 9);
    const seenThrice = det(70, 80, 100, 0.7, 3);
    const seenOnce = det(40, 0, 160, 0.6, 1);
    expect(byDominance([seenOnce, seenThrice], 250, 250)[0]).toBe(seenThrice);
  });

  it('a framed portrait is one confident, whole, centred face; anything else asks for more scales', () => {
    expect(isFramedPortrait(det(75, 75, 100, 0.9), 250, 250)).toBe(true);
    expect(isFramedPortrait(det(75, 75, 100, 0.45), 250, 250)).toBe(false); // not confident
    expect(isFramedPortrait(det(-4, 29, 94, 0.93), 250, 250)).toBe(false); // off-centre (LFW Sam_Bith_0003 at 1x)
    expect(isFramedPortrait(det(180, 75, 100, 0.9), 250, 250)).toBe(false); // 30 % outside the image
  });

  it('mergePasses keeps the best box per face and counts the passes that found it', () => {
    const merged = mergePasses([[det(70, 80, 100, 0.7)], [det(72, 78, 100, 0.8), det(0, 0, 40, 0.5)], [det(69, 81, 98, 0.6)]], 0.4);
    expect(merged).toHaveLength(2);
    expect(merged[0]).toMatchObject({ score: 0.8, support: 3 });
    expect(merged[1]).toMatchObject({ score: 0.5, support: 1 });
  });
});
