import { describe, expect, it } from 'vitest';
import { assessFace, GUIDE } from '../../renderer/capture/face-guide.js';
import { eyeAspectRatio, laplacianVariance, yawDeg, type Point } from '../../renderer/capture/face-measures.js';
import { qualityFailuresOf } from '../../renderer/src/quality.js';

/**
 * 68 landmarks of a schematic frontal face 100 px wide (iBUG numbering): jaw 0-16 on an arc from
 * x 0 to 100, nose 27-35 on x = 50 + noseShift, eyes 20 px wide centred at (30, 40) and (70, 40)
 * with lids `eyeOpen` px apart.
 */
function face({ noseShift = 0, eyeOpen = 6 } = {}): Point[] {
  const pts: Point[] = [];
  for (let i = 0; i <= 16; i++) {
    const a = Math.PI * (i / 16);
    pts.push({ x: 50 - 50 * Math.cos(a), y: 40 + 60 * Math.sin(a) });
  }
  for (let i = 17; i <= 26; i++) pts.push({ x: 10 + (i - 17) * 9, y: 25 });
  for (let i = 27; i <= 35; i++) pts.push({ x: 50 + noseShift, y: 40 + (i - 27) * 4 });
  for (const cx of [30, 70]) {
    const h = eyeOpen / 2;
    pts.push({ x: cx - 10, y: 40 }, { x: cx - 4, y: 40 - h }, { x: cx + 4, y: 40 - h }, { x: cx + 10, y: 40 }, { x: cx + 4, y: 40 + h }, { x: cx - 4, y: 40 + h });
  }
  for (let i = 48; i < 68; i++) pts.push({ x: 40 + (i - 48), y: 80 });
  return pts;
}

describe('face guide measures (renderer/capture/face-measures.ts)', () => {
  it('yaw: 0 for a frontal face, the sign and size follow the nose between the jaw ends, the same after a roll', () => {
    expect(Math.abs(yawDeg(face()))).toBeLessThan(0.5);
    expect(yawDeg(face({ noseShift: 25 }))).toBeCloseTo(30, 0);
    expect(yawDeg(face({ noseShift: -25 }))).toBeCloseTo(-30, 0);
    const r = Math.PI / 8;
    const rolled = face({ noseShift: 25 }).map((p) => ({ x: p.x * Math.cos(r) - p.y * Math.sin(r), y: p.x * Math.sin(r) + p.y * Math.cos(r) }));
    expect(yawDeg(rolled)).toBeCloseTo(30, 0);
    expect(() => yawDeg(face().slice(0, 10))).toThrow(RangeError);
  });

  it('eye aspect ratio: lid distance over eye width', () => {
    expect(eyeAspectRatio(face({ eyeOpen: 6 }))).toBeCloseTo(0.3, 5);
    expect(eyeAspectRatio(face({ eyeOpen: 2 }))).toBeCloseTo(0.1, 5);
  });

  it('Laplacian variance: 0 on a flat or linear image, high on fine detail', () => {
    const w = 24;
    expect(laplacianVariance(new Float32Array(w * w).fill(128), w, w)).toBe(0);
    expect(laplacianVariance(Float32Array.from({ length: w * w }, (_, i) => i % w), w, w)).toBe(0);
    const checker = Float32Array.from({ length: w * w }, (_, i) => ((i % w) + Math.floor(i / w)) % 2 ? 255 : 0);
    expect(laplacianVariance(checker, w, w)).toBeGreaterThan(1e5);
    expect(() => laplacianVariance(new Float32Array(16), 4, 4)).toThrow(RangeError);
  });

  it('the guide says head turned, eyes closed, then blurred, for a face that is otherwise good', () => {
    const frame = { widthPx: 640, heightPx: 480 };
    const good = { x: 220, y: 116, width: 200, height: 240, score: 0.9, yawDeg: 3, eyeAspect: 0.3, sharpness: 120 };
    expect(assessFace([good], frame, 120)).toBe('good');
    expect(assessFace([{ ...good, yawDeg: -(GUIDE.maxYawDeg + 1) }], frame, 120)).toBe('headTurned');
    expect(assessFace([{ ...good, eyeAspect: GUIDE.minEyeAspect - 0.01 }], frame, 120)).toBe('eyesClosed');
    expect(assessFace([{ ...good, sharpness: GUIDE.minSharpness - 1 }], frame, 120)).toBe('blurry');
    // Size and centring come first: a turned face too far away is asked to come closer.
    expect(assessFace([{ ...good, x: 290, width: 60, height: 72, yawDeg: 40 }], frame, 120)).toBe('tooFar');
  });

  it('names the limits of the station\'s FACE_QUALITY_TOO_LOW detail', () => {
    expect(qualityFailuresOf('Face quality too low: sharpness, yawDeg')).toEqual(['sharpness', 'yawDeg']);
    expect(qualityFailuresOf('Face quality too low')).toEqual([]);
  });
});
