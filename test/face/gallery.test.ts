/** Templates, quantised similarity and the 1:N gallery, on synthetic vectors (no datasets needed). */
import { beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, type OnnxFaceEngine } from '../../src/face/index.js';
import { fitSimilarity, MIRROR_68 } from '../../src/face/align/align.js';
import { warpAffine, type Affine } from '../../src/face/align/warp.js';
import { encodeTemplate, decodeTemplate, cosine } from '../../src/face/template/template.js';
import { DLIB_DIM, fuseEmbeddings, FUSED_DIM, MOBILEFACENET_DIM, W_DLIB } from '../../src/face/embed/fusion.js';
import { foldAccuracy, tarAtFar } from '../../bench/lib/face-metrics.js';
import { isFaceError } from '../../src/face/errors.js';

let engine: OnnxFaceEngine;

function randomUnit(seed: number, dim: number): Float32Array {
  let s = seed * 2654435761;
  const v = new Float32Array(dim).map(() => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648 - 0.5;
  });
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** A fused engine vector built from two random unit vectors (dlib part, MobileFaceNet part). */
const unit = (seed: number): Float32Array => fuseEmbeddings(randomUnit(seed, DLIB_DIM), randomUnit(seed + 0.5, MOBILEFACENET_DIM), 1);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isFaceError(e) ? e.code : 'NOT_A_FACE_ERROR';
  }
  return undefined;
}

beforeAll(async () => {
  engine = await createFaceEngine();
});

describe('face templates', () => {
  it('round-trips model id and vector (float32, 320-d)', () => {
    const v = unit(1);
    const t = engine.templateOf(v);
    expect(t.length).toBe(9 + engine.modelId.length + 4 * FUSED_DIM);
    const d = decodeTemplate(t);
    expect(d.modelId).toBe(engine.modelId);
    expect(Array.from(d.vector)).toEqual(Array.from(v));
  });

  it('refuses another model version with TEMPLATE_INCOMPATIBLE and garbage with INVALID_TEMPLATE', () => {
    const other = encodeTemplate('dlib-r34-128/lm68-chip150+flip@1', randomUnit(2, DLIB_DIM)); // the dlib-only engine's templates
    expect(codeOf(() => engine.assertCompatible(other))).toBe('TEMPLATE_INCOMPATIBLE');
    const sameLength = encodeTemplate('dlib-r34-128+mfn-192/lm68-chip150-arc112+flip@1', unit(2));
    expect(codeOf(() => engine.assertCompatible(sameLength))).toBe('TEMPLATE_INCOMPATIBLE');
    expect(codeOf(() => engine.similarity(other, engine.templateOf(unit(2))))).toBe('TEMPLATE_INCOMPATIBLE');
    expect(codeOf(() => engine.assertCompatible(new Uint8Array([1, 2, 3])))).toBe('INVALID_TEMPLATE');
    const truncated = engine.templateOf(unit(3)).subarray(0, 100);
    expect(codeOf(() => engine.assertCompatible(truncated))).toBe('INVALID_TEMPLATE');
  });

  it('fused vectors are unit length and their cosine is the weighted sum of the two recognisers\' cosines', () => {
    const [d1, d2, m1, m2] = [randomUnit(3, DLIB_DIM), randomUnit(4, DLIB_DIM), randomUnit(5, MOBILEFACENET_DIM), randomUnit(6, MOBILEFACENET_DIM)];
    const a = fuseEmbeddings(d1, m1, 1);
    const b = fuseEmbeddings(d2, m2, 1);
    expect(cosine(a, a)).toBeCloseTo(1, 6);
    expect(cosine(a, b)).toBeCloseTo(W_DLIB * cosine(d1, d2) + (1 - W_DLIB) * cosine(m1, m2), 6);
    // two views are summed per recogniser before normalising
    const two = fuseEmbeddings(new Float32Array([...d1, ...d2]), new Float32Array([...m1, ...m2]), 2);
    const sum = (x: Float32Array, y: Float32Array): Float32Array => x.map((v, i) => v + y[i]);
    expect(cosine(two, fuseEmbeddings(sum(d1, d2), sum(m1, m2), 1))).toBeCloseTo(1, 6);
    expect(W_DLIB).toBeGreaterThan(0.8);
    expect(W_DLIB).toBeLessThan(0.9);
  });

  it('similarity is the cosine up to quantisation (16-bit on the dlib part, int8 on MobileFaceNet\'s)', () => {
    for (let i = 0; i < 20; i++) {
      const a = unit(10 + i);
      const b = unit(100 + i);
      expect(Math.abs(engine.similarity(engine.templateOf(a), engine.templateOf(b)) - cosine(a, b))).toBeLessThan(5e-4);
    }
    expect(engine.similarity(engine.templateOf(unit(5)), engine.templateOf(unit(5)))).toBeGreaterThan(0.999);
  });
});

describe('face gallery', () => {
  it('finds the best person, scores equal similarity(), and follows upsert/remove', async () => {
    const g = engine.createGallery();
    const templates = Array.from({ length: 300 }, (_, i) => engine.templateOf(unit(1000 + i)));
    for (let p = 0; p < 100; p++) g.upsert(`person-${p}`, templates.slice(3 * p, 3 * p + 3));
    expect(g.size).toBe(300);
    const probe = templates[3 * 42 + 1];
    const [hit] = g.search(probe, 1);
    expect(hit.extId).toBe('person-42');
    expect(hit.score).toBe(Math.max(...templates.slice(126, 129).map((t) => engine.similarity(probe, t))));
    expect(await g.searchAsync(probe, 3)).toEqual(g.search(probe, 3));
    g.remove('person-42');
    expect(g.size).toBe(297);
    expect(g.search(probe, 5).some((h) => h.extId === 'person-42')).toBe(false);
    // person-99's rows were moved into the freed slots: their 16-bit scores must still be exact.
    const moved = templates[298];
    expect(g.search(moved, 1)[0]).toEqual({ extId: 'person-99', score: engine.similarity(moved, moved) });
    g.upsert('person-7', [templates[3 * 42 + 1]]);
    expect(g.size).toBe(295);
    expect(g.search(probe, 1)[0].extId).toBe('person-7');
    const before = g.size;
    const bad = encodeTemplate('other-model@9', unit(9));
    expect(codeOf(() => g.upsert('person-8', [templates[0], bad]))).toBe('TEMPLATE_INCOMPATIBLE');
    expect(g.size).toBe(before);
    expect(codeOf(() => g.search(bad, 1))).toBe('TEMPLATE_INCOMPATIBLE');
  });

  it('onnxruntime and JS search agree on a large gallery', async () => {
    const g = engine.createGallery();
    for (let i = 0; i < 20_000; i++) g.upsertVectors(`p${i % 5000}-${i}`, [unit(50_000 + i)]);
    for (let k = 0; k < 5; k++) {
      const probe = engine.templateOf(unit(50_000 + k * 997));
      expect(await g.searchAsync(probe, 5)).toEqual(g.search(probe, 5));
    }
  });
});

describe('alignment and metrics helpers', () => {
  it('MIRROR_68 swaps left and right points and is its own inverse', () => {
    expect(MIRROR_68.every((j, i) => MIRROR_68[j] === i)).toBe(true);
    expect([MIRROR_68[0], MIRROR_68[36], MIRROR_68[39], MIRROR_68[48], MIRROR_68[30], MIRROR_68[8], MIRROR_68[62]]).toEqual([16, 45, 42, 54, 30, 8, 62]);
    expect(new Set(MIRROR_68).size).toBe(68);
  });

  it('warpAffine: the axis-aligned fast path gives exactly what the general path gives, borders included', () => {
    const W = 61;
    const H = 47;
    const img = { width: W, height: H, data: Uint8Array.from({ length: W * H * 3 }, (_, i) => (i * 7919) % 251) };
    for (const [s, c, f] of [[0.47, -3.3, 2.1], [0.9, 10.25, -6.5], [1.2, 0.3, 0.7]]) {
      const fast: Affine = [s, 0, c, 0, s, f];
      // a shear of 1e-300 changes no coordinate but takes the general per-sample loop
      const general: Affine = [s, 1e-300, c, 1e-300, s, f];
      expect(Array.from(warpAffine(img, fast, 80, 64))).toEqual(Array.from(warpAffine(img, general, 80, 64)));
    }
  });

  it('fitSimilarity recovers a rotation + scale + translation', () => {
    const a = 1.3 * Math.cos(0.4);
    const b = 1.3 * Math.sin(0.4);
    const from = [[0, 0], [10, 0], [0, 10], [7, 3]];
    const to = from.map(([x, y]) => [a * x - b * y + 5, b * x + a * y - 2]);
    const m = fitSimilarity(from, to);
    [a, -b, 5, b, a, -2].forEach((v, i) => expect(m[i]).toBeCloseTo(v, 9));
  });

  it('fold accuracy and TAR@FAR on a separable toy set', () => {
    const pairs = Array.from({ length: 1000 }, (_, i) => ({ score: i % 2 ? 0.9 + i / 1e5 : 0.1 + i / 1e5, same: i % 2 === 1, fold: i % 5 }));
    expect(foldAccuracy(pairs).mean).toBe(1);
    expect(tarAtFar(pairs, 1e-3).tar).toBe(1);
  });
});
