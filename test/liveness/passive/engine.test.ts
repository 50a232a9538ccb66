/**
 * The passive liveness engine's behaviour on constructed inputs: each image signal responds to the
 * structure it is meant for, the quality gates refuse what cannot be judged, the engine runs without
 * its network, and the result is a pure function of the input.
 */
import { describe, expect, it } from 'vitest';
import { powerSpectra2 } from '../../../src/liveness/passive/fft.js';
import { borderStrength, spectrumStats } from '../../../src/liveness/passive/signals.js';
import { createPassiveLivenessEngine, PassiveLivenessQualityError } from '../../../src/liveness/passive/index.js';
import { gateFailures } from '../../../src/liveness/passive/engine.js';
import { DEFAULT_LIVENESS_TUNING } from '../../../src/liveness/passive/tuning.js';
import { mulberry32 } from '../../../bench/liveness/attacks.js';

const N = 64;

/** A smooth random field (sum of a few low-frequency waves plus mild noise): face-like spectrum. */
function smoothPatch(seed: number): Float32Array {
  const rnd = mulberry32(seed);
  const waves = Array.from({ length: 12 }, () => ({ fx: rnd() * 0.08, fy: rnd() * 0.08, ph: rnd() * 6.28, a: 20 * rnd() }));
  const p = new Float32Array(N * N);
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
    let v = 120;
    for (const w of waves) v += w.a * Math.cos(2 * Math.PI * (w.fx * x + w.fy * y) + w.ph);
    p[y * N + x] = v + (rnd() - 0.5) * 4;
  }
  return p;
}

describe('image signals', () => {
  it('spectral peak: a fine periodic grid (screen, halftone) stands out of a smooth patch', () => {
    const smooth = smoothPatch(1);
    const grid = smooth.map((v, i) => v + 12 * Math.cos(2 * Math.PI * (0.29 * (i % N) + 0.13 * Math.floor(i / N))));
    const [ps, pg] = powerSpectra2(smooth, grid, N);
    const a = spectrumStats(ps);
    const b = spectrumStats(pg);
    expect(b.peak).toBeGreaterThan(a.peak + 1.5);
    expect(b.highFreq).toBeGreaterThan(a.highFreq);
  });

  it('the two spectra of one complex FFT equal those computed one at a time', () => {
    const a = smoothPatch(2);
    const b = smoothPatch(3);
    const zero = new Float32Array(N * N);
    const [pa, pb] = powerSpectra2(a, b, N);
    const [pa1] = powerSpectra2(a, zero, N);
    const [pb1] = powerSpectra2(b, zero, N);
    for (let i = 0; i < N * N; i += 97) {
      expect(pa[i]).toBeCloseTo(pa1[i], 3);
      expect(pb[i]).toBeCloseTo(pb1[i], 3);
    }
  });

  it('border: a long straight edge around the face (paper or bezel) scores higher than none', () => {
    const S = 128;
    const face = { x0: 40, y0: 40, x1: 88, y1: 88 };
    const plain = new Float32Array(S * S).map((_, i) => 100 + 10 * Math.sin(i * 0.37) + 10 * Math.cos(Math.floor(i / S) * 0.21));
    const edged = plain.map((v, i) => (Math.floor(i / S) > 110 ? v + 80 : v));
    expect(borderStrength(edged, S, face)).toBeGreaterThan(3 * borderStrength(plain, S, face));
  });
});

/** A 320x320 RGB test card: a bright ellipse ("face") with texture on a darker background. */
function card(brightness = 1): { width: number; height: number; data: Uint8Array } {
  const W = 320;
  const rnd = mulberry32(7);
  const data = new Uint8Array(W * W * 3);
  for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) {
    const inFace = ((x - 160) / 70) ** 2 + ((y - 160) / 90) ** 2 <= 1;
    const base = inFace ? [190, 150, 130] : [70, 80, 90];
    const t = 25 * Math.sin(x * 0.3) * Math.cos(y * 0.25) + (rnd() - 0.5) * 20;
    for (let c = 0; c < 3; c++) data[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round((base[c] + t) * brightness)));
  }
  return { width: W, height: W, data };
}
const BOX = { x: 90, y: 70, width: 140, height: 180 };

describe('passive liveness engine', () => {
  it('without its network it runs on the image signals and says so; the same input gives the same result', async () => {
    const engine = await createPassiveLivenessEngine({ useNetwork: false });
    expect(engine.hasNetwork).toBe(false);
    const a = await engine.check(card(), BOX);
    const b = await engine.check(card(), BOX);
    expect(a.mode).toBe('signals');
    expect(a.cnn).toBeNull();
    expect(a.probability).toBeGreaterThanOrEqual(0);
    expect(a.probability).toBeLessThanOrEqual(1);
    expect(a.live).toBe(a.probability >= a.threshold);
    expect(b).toEqual(a);
    expect(Object.keys(a.contributions)).toContain('texture');
  });

  it('a per-call threshold decides: 0 accepts, 1 refuses', async () => {
    const engine = await createPassiveLivenessEngine({ useNetwork: false });
    expect((await engine.check(card(), BOX, 0)).live).toBe(true);
    expect((await engine.check(card(), BOX, 1)).live).toBe(false);
  });

  it('quality gates: a tiny face, a dark frame and a flat (blurred) face are refused as unjudgeable, not as attacks', async () => {
    const engine = await createPassiveLivenessEngine({ useNetwork: false });
    const failures = async (img: ReturnType<typeof card>, box: typeof BOX): Promise<string[]> => {
      try {
        await engine.check(img, box);
        return [];
      } catch (e) {
        expect(e).toBeInstanceOf(PassiveLivenessQualityError);
        expect((e as PassiveLivenessQualityError).code).toBe('LIVENESS_QUALITY_TOO_LOW');
        return (e as PassiveLivenessQualityError).failures;
      }
    };
    expect(await failures(card(), BOX)).toEqual([]);
    expect(await failures(card(), { x: 150, y: 150, width: 30, height: 36 })).toContain('faceWidthPx');
    expect(await failures(card(0.12), BOX)).toContain('underexposed');
    // a dim face (mean luma ~45 of 255: the low-light captures the network mostly calls attacks) is a quality error too
    expect(await failures(card(0.3), BOX)).toEqual(['underexposed']);
    expect(await failures(card(0.5), BOX)).toEqual([]);
    const flat = { width: 320, height: 320, data: new Uint8Array(320 * 320 * 3).fill(128) };
    expect(await failures(flat, BOX)).toContain('sharpness');
  });
});

describe('quality gates as a rule', () => {
  const g = DEFAULT_LIVENESS_TUNING.gates;
  const ok = { meanLuma: 120, clipped: 0, sharpness: 50 };
  it('names every gate failed, and none for a judgeable face', () => {
    expect(gateFailures(ok, 100, g)).toEqual([]);
    expect(gateFailures({ ...ok, meanLuma: g.minMeanLuma - 1 }, 100, g)).toEqual(['underexposed']);
    expect(gateFailures({ ...ok, meanLuma: g.minMeanLuma }, 100, g)).toEqual([]);
    expect(gateFailures({ ...ok, clipped: 0.5 }, 100, g)).toEqual(['overexposed']);
    expect(gateFailures({ meanLuma: 10, clipped: 0, sharpness: 0 }, 20, g)).toEqual(['faceWidthPx', 'sharpness', 'underexposed']);
  });
});
